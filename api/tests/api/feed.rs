//! `/api/feed` against a local feed server: RSS and Atom, sanitising, thumbnails, the cache and
//! the last good copy.

use crate::helpers::{servers, Backend, TestApp};
use poem::http::StatusCode;
use poem::web::Data;
use poem::{get, handler, EndpointExt, Route};
use serde_json::Value;
use std::sync::{Arc, Mutex};

const RSS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
  <title>Owner's blog</title><link>https://blog.example/</link><description>posts</description>
  <item>
    <title>Valuing a bank</title>
    <link>https://blog.example/valuing-a-bank</link>
    <guid isPermaLink="false">post-2</guid>
    <dc:creator>Alex Chen</dc:creator>
    <pubDate>Tue, 07 Oct 2025 09:30:00 GMT</pubDate>
    <media:thumbnail url="https://cdn.example/bank.png"/>
    <description><![CDATA[<p onclick="steal()">Banks are <b>different</b>.</p><script>alert(1)</script><a href="javascript:alert(2)">x</a>]]></description>
  </item>
  <item>
    <title>Liquidity notes</title>
    <link>https://blog.example/liquidity</link>
    <guid>post-1</guid>
    <dc:creator>Alex Chen</dc:creator>
    <pubDate>Wed, 01 Oct 2025 08:00:00 GMT</pubDate>
    <description><![CDATA[<p>Cash first.</p><img src="https://cdn.example/cash.jpg" onerror="x()"><img src="https://cdn.example/second.jpg">]]></description>
  </item>
  <item>
    <title>No picture</title>
    <link>https://blog.example/plain</link>
    <guid>post-0</guid>
    <description>Just words.</description>
  </item>
</channel>
</rss>"#;

const ATOM: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Owner's blog</title>
  <id>urn:blog</id>
  <updated>2025-10-07T09:30:00Z</updated>
  <author><name>Alex Chen</name></author>
  <entry>
    <title>An Atom post</title>
    <link href="https://blog.example/atom-post"/>
    <id>urn:post:atom-1</id>
    <published>2025-10-05T12:00:00Z</published>
    <updated>2025-10-06T12:00:00Z</updated>
    <content type="html">&lt;p&gt;Hello &lt;img src="https://cdn.example/atom.png"&gt;&lt;iframe src="https://evil.example"&gt;&lt;/iframe&gt;&lt;/p&gt;</content>
  </entry>
</feed>"#;

struct Upstream {
    body: &'static str,
    failing: bool,
    hits: usize,
}

type Shared = Arc<Mutex<Upstream>>;

#[handler]
fn feed_file(upstream: Data<&Shared>) -> poem::Response {
    let mut u = upstream.lock().unwrap();
    u.hits += 1;
    if u.failing {
        return poem::Response::builder().status(StatusCode::BAD_GATEWAY).body("down");
    }
    poem::Response::builder().content_type("application/xml").body(u.body)
}

async fn setup(backend: Backend, body: &'static str) -> (TestApp, Shared) {
    let upstream: Shared = Arc::new(Mutex::new(Upstream {
        body,
        failing: false,
        hits: 0,
    }));
    let addr = servers::serve(Route::new().at("/feed.xml", get(feed_file)).data(upstream.clone())).await;
    let app = TestApp::with(backend, |s| {
        s.blog_feed_url = Some(format!("http://{addr}/feed.xml"));
        s.feed_cache_seconds = 300;
    })
    .await;
    (app, upstream)
}

on_both_databases! {
    async fn urls_relative_to_this_site_are_dropped(backend: Backend) {
        // An image of this site's own logout URL on the blog list would log the visitor out.
        let feed = r#"<?xml version="1.0"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>t</title><link>https://blog.example</link><description>d</description>
  <item>
    <title>Sneaky</title>
    <link>https://blog.example/sneaky</link>
    <guid>sneaky</guid>
    <media:thumbnail url="/api/denglu?logout=true"/>
    <description><![CDATA[<p>Hi<img src="/api/denglu?logout=true"><img src="../api/denglu?logout=true"><a href="/notes">notes</a></p>]]></description>
  </item>
</channel>
</rss>"#;
        let (app, _) = setup(backend, feed).await;
        let reply = app.get("/api/feed", &[]).await;
        reply.assert(StatusCode::OK);
        let item = &reply.body["items"][0];
        assert!(item.get("thumbnail").is_none(), "{item}");
        let content = item["content"].as_str().unwrap();
        assert!(!content.contains("denglu") && !content.contains("/notes"), "{content}");
        assert!(content.contains("Hi"), "{content}");
    }

    async fn rss_becomes_sanitised_posts(backend: Backend) {
        let (app, _) = setup(backend, RSS).await;
        let reply = app.get("/api/feed", &[]).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body["stale"], Value::Bool(false));
        let items = reply.body["items"].as_array().unwrap();
        assert_eq!(items.len(), 3);
        let first = &items[0];
        assert_eq!(first["title"], "Valuing a bank");
        assert_eq!(first["link"], "https://blog.example/valuing-a-bank");
        assert_eq!(first["guid"], "post-2");
        assert_eq!(first["author"], "Alex Chen");
        assert_eq!(first["pubDate"], "2025-10-07T09:30:00+00:00");
        assert_eq!(first["thumbnail"], "https://cdn.example/bank.png");
        let content = first["content"].as_str().unwrap();
        assert!(content.contains("<b>different</b>"), "{content}");
        for banned in ["<script", "onclick", "javascript:"] {
            assert!(!content.contains(banned), "{banned} in {content}");
        }
        // No thumbnail in the feed: the first image of the content.
        assert_eq!(items[1]["thumbnail"], "https://cdn.example/cash.jpg");
        assert!(!items[1]["content"].as_str().unwrap().contains("onerror"));
        assert!(items[2].get("thumbnail").is_none(), "no thumbnail: the client shows its default");
        assert_eq!(items[2]["content"], "Just words.");
    }

    async fn atom_works_too(backend: Backend) {
        let (app, _) = setup(backend, ATOM).await;
        let reply = app.get("/api/feed", &[]).await;
        let items = reply.body["items"].as_array().unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0]["title"], "An Atom post");
        assert_eq!(items[0]["link"], "https://blog.example/atom-post");
        assert_eq!(items[0]["guid"], "urn:post:atom-1");
        assert_eq!(items[0]["author"], "Alex Chen");
        assert_eq!(items[0]["pubDate"], "2025-10-05T12:00:00+00:00");
        assert_eq!(items[0]["thumbnail"], "https://cdn.example/atom.png");
        assert!(!items[0]["content"].as_str().unwrap().contains("iframe"));
    }

    async fn the_feed_is_cached(backend: Backend) {
        let (app, upstream) = setup(backend, RSS).await;
        for _ in 0..3 {
            app.get("/api/feed", &[]).await.assert(StatusCode::OK);
        }
        assert_eq!(upstream.lock().unwrap().hits, 1);
        app.clock.advance(299);
        app.get("/api/feed", &[]).await;
        assert_eq!(upstream.lock().unwrap().hits, 1);
        app.clock.advance(2);
        upstream.lock().unwrap().body = ATOM;
        let reply = app.get("/api/feed", &[]).await;
        assert_eq!(upstream.lock().unwrap().hits, 2);
        assert_eq!(reply.body["items"][0]["title"], "An Atom post");
    }

    async fn a_failing_upstream_serves_the_last_good_copy(backend: Backend) {
        let (app, upstream) = setup(backend, RSS).await;
        let good = app.get("/api/feed", &[]).await;
        upstream.lock().unwrap().failing = true;
        app.clock.advance(301);
        let fallback = app.get("/api/feed", &[]).await;
        fallback.assert(StatusCode::OK);
        assert_eq!(upstream.lock().unwrap().hits, 2);
        assert_eq!(fallback.body["items"], good.body["items"]);
        assert_eq!(fallback.body["stale"], Value::Bool(true));
        assert_eq!(fallback.body["fetchedAt"], good.body["fetchedAt"]);
        // Garbage instead of a feed counts as a failure too.
        upstream.lock().unwrap().failing = false;
        upstream.lock().unwrap().body = "<html>not a feed</html>";
        app.clock.advance(301);
        let garbage = app.get("/api/feed", &[]).await;
        assert_eq!(garbage.body["items"], good.body["items"]);
        // Recovery.
        upstream.lock().unwrap().body = RSS;
        app.clock.advance(301);
        let recovered = app.get("/api/feed", &[]).await;
        assert_eq!(recovered.body["stale"], Value::Bool(false));
    }

    async fn an_oversized_feed_is_refused(backend: Backend) {
        let (app, upstream) = setup(backend, RSS).await;
        let good = app.get("/api/feed", &[]).await;
        let huge: &'static str = Box::leak(format!("{RSS}{}", " ".repeat(6 * 1024 * 1024)).into_boxed_str());
        upstream.lock().unwrap().body = huge;
        app.clock.advance(301);
        let reply = app.get("/api/feed", &[]).await;
        assert_eq!(reply.body["stale"], Value::Bool(true));
        assert_eq!(reply.body["items"], good.body["items"]);
    }

    async fn no_copy_and_no_upstream_is_an_empty_list(backend: Backend) {
        let (app, upstream) = setup(backend, RSS).await;
        upstream.lock().unwrap().failing = true;
        let reply = app.get("/api/feed", &[]).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body["items"], Value::Array(vec![]));
        assert_eq!(reply.body["stale"], Value::Bool(true));
        assert!(reply.body.get("fetchedAt").is_none());
    }
}
