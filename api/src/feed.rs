//! The owner's blog feed (RSS or Atom), sanitised, cached, and served from the last good copy
//! when the upstream fails; `/api/feed` (routes/feed.rs) answers with it.

use crate::settings::Settings;
use poem_openapi::Object;
use std::time::Duration;
use tokio::sync::Mutex;

/// A blog post, in the shape the site's UI reads.
#[derive(Object, Debug, Clone)]
#[oai(rename_all = "camelCase")]
pub struct BlogPost {
    pub title: String,
    pub link: String,
    pub author: String,
    /// RFC 3339, or empty when the feed gives no date.
    pub pub_date: String,
    pub guid: String,
    /// The feed's thumbnail, else the first image of the content; absent when neither exists.
    #[oai(skip_serializing_if_is_none)]
    pub thumbnail: Option<String>,
    /// Sanitised HTML.
    pub content: String,
}

#[derive(Object, Debug, Clone)]
#[oai(rename_all = "camelCase")]
pub struct FeedBody {
    pub items: Vec<BlogPost>,
    /// When the items were fetched (Unix seconds); absent when no copy was ever fetched.
    #[oai(skip_serializing_if_is_none)]
    pub fetched_at: Option<i64>,
    /// True when the upstream failed and these items are the last good copy (or none).
    pub stale: bool,
}

#[derive(Default)]
struct Cached {
    items: Vec<BlogPost>,
    fetched_at: Option<i64>,
    /// When the upstream was last asked, successful or not, so a failing upstream is not hammered.
    tried_at: Option<i64>,
    last_failed: bool,
}

/// The feed cache may live in memory: it is only a cache, and every instance can refill its own.
#[derive(Default)]
pub struct FeedCache(Mutex<Cached>);

impl FeedCache {
    /// The cached items, fetched again first when the copy is older than the cache time (`feed_cache_seconds`).
    pub async fn current(&self, settings: &Settings, http: &reqwest::Client) -> FeedBody {
        let now = settings.clock.now();
        let ttl = settings.feed_cache_seconds as i64;
        let mut cached = self.0.lock().await;
        let fresh = cached.tried_at.is_some_and(|t| now - t < ttl);
        if !fresh {
            cached.tried_at = Some(now);
            match &settings.blog_feed_url {
                Some(url) => match fetch(http, url).await {
                    Ok(items) => {
                        cached.items = items;
                        cached.fetched_at = Some(now);
                        cached.last_failed = false;
                    }
                    Err(err) => {
                        tracing::warn!("blog feed {url} failed, serving the last good copy: {err:#}");
                        cached.last_failed = true;
                    }
                },
                None => cached.last_failed = true,
            }
        }
        FeedBody {
            items: cached.items.clone(),
            fetched_at: cached.fetched_at,
            stale: cached.last_failed,
        }
    }
}

/// A feed larger than this is not a blog feed worth holding in memory.
const MAX_FEED_BYTES: usize = 5 * 1024 * 1024;

async fn fetch(http: &reqwest::Client, url: &str) -> anyhow::Result<Vec<BlogPost>> {
    let mut resp = http
        .get(url)
        .timeout(Duration::from_secs(10))
        .send()
        .await?
        .error_for_status()?;
    let mut bytes = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        bytes.extend_from_slice(&chunk);
        anyhow::ensure!(
            bytes.len() <= MAX_FEED_BYTES,
            "the feed is larger than {MAX_FEED_BYTES} bytes"
        );
    }
    parse(&bytes)
}

pub fn parse(bytes: &[u8]) -> anyhow::Result<Vec<BlogPost>> {
    let feed = feed_rs::parser::parse(bytes)?;
    let feed_author = feed.authors.first().map(|a| a.name.clone()).unwrap_or_default();
    Ok(feed
        .entries
        .into_iter()
        .map(|entry| {
            let raw = entry
                .content
                .as_ref()
                .and_then(|c| c.body.clone())
                .or_else(|| entry.summary.as_ref().map(|s| s.content.clone()))
                .unwrap_or_default();
            // Relative URLs would point at this site: an image of `/api/denglu?logout=true` on the
            // blog list would be a request the visitor never meant. Only absolute ones stay.
            let content = ammonia::Builder::default()
                .url_relative(ammonia::UrlRelative::Deny)
                .clean(&raw)
                .to_string();
            let thumbnail = entry
                .media
                .iter()
                .flat_map(|m| m.thumbnails.iter().map(|t| t.image.uri.clone()))
                .next()
                .or_else(|| {
                    entry.media.iter().flat_map(|m| m.content.iter()).find_map(|c| {
                        let is_image = c.content_type.as_ref().is_some_and(|t| t.ty() == "image");
                        is_image.then(|| c.url.as_ref().map(|u| u.to_string())).flatten()
                    })
                })
                .or_else(|| first_image(&content))
                .filter(|u| u.starts_with("https://") || u.starts_with("http://"));
            BlogPost {
                title: entry.title.map(|t| t.content).unwrap_or_default(),
                link: entry.links.first().map(|l| l.href.clone()).unwrap_or_default(),
                author: entry
                    .authors
                    .first()
                    .map(|a| a.name.clone())
                    .unwrap_or_else(|| feed_author.clone()),
                pub_date: entry
                    .published
                    .or(entry.updated)
                    .map(|d| d.to_rfc3339())
                    .unwrap_or_default(),
                guid: entry.id,
                thumbnail,
                content,
            }
        })
        .collect())
}

/// The `src` of the first `<img>` of sanitised HTML (ammonia writes attributes in double quotes).
fn first_image(html: &str) -> Option<String> {
    let img = html.find("<img")?;
    let tag_end = html[img..].find('>')? + img;
    let tag = &html[img..tag_end];
    let src = tag.find(" src=\"")? + 6;
    let end = tag[src..].find('"')? + src;
    Some(tag[src..end].replace("&amp;", "&"))
}

#[cfg(test)]
mod tests {
    use super::first_image;

    #[test]
    fn finds_the_first_image() {
        assert_eq!(
            first_image(
                r#"<p>x</p><img alt="a" src="https://e.com/a.png?x=1&amp;y=2"><img src="https://e.com/b.png">"#
            ),
            Some("https://e.com/a.png?x=1&y=2".into())
        );
        assert_eq!(first_image("<p>none</p>"), None);
    }
}
