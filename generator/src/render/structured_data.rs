//! The JSON-LD of a page's head, for search engines: the owner as a `Person` on the home page, an
//! `Article` on articles (`Pages::is_article`) and a `BreadcrumbList` matching the visible
//! breadcrumb. It is a data block the browser never runs, so the CSP needs no hash for it.

use crate::model::config::SiteConfig;
use crate::model::layout::Crumb;
use crate::model::pages::Page;
use serde_json::{json, Value};

/// The owner, with the contact links that are profiles (not `mailto:`) as `sameAs`.
fn person(config: &SiteConfig, base: &str) -> Value {
    let same_as: Vec<&str> = (config.owner.links.iter())
        .map(|l| l.url.as_str())
        .filter(|url| !url.starts_with("mailto:"))
        .collect();
    json!({
        "@type": "Person",
        "name": config.owner.name,
        "url": format!("{base}/"),
        "image": format!("{base}{}", config.owner.image),
        "sameAs": same_as,
    })
}

fn article(page: &Page, config: &SiteConfig, base: &str, canonical: &str) -> Value {
    let front = &page.source.front;
    let mut article = json!({
        "@type": "Article",
        "headline": front.title,
        "description": front.description,
        // The language of the text: a page still showing English for want of a translation is English.
        "inLanguage": config.language(&page.source.lang).tag,
        "url": canonical,
        "mainEntityOfPage": canonical,
        "author": person(config, base),
    });
    if let Some(date) = front.date {
        article["datePublished"] = date.to_string().into();
    }
    if let Some(updated) = page.updated() {
        article["dateModified"] = updated.to_string().into();
    }
    article
}

/// The breadcrumb's crumbs, the last (the page itself, unlinked on the page) at `canonical`.
fn breadcrumb_list(crumbs: &[Crumb], base: &str, canonical: &str) -> Value {
    let items: Vec<Value> = (crumbs.iter().enumerate())
        .map(|(i, crumb)| {
            let item = crumb
                .href
                .as_ref()
                .map_or_else(|| canonical.to_string(), |href| format!("{base}{href}"));
            json!({"@type": "ListItem", "position": i + 1, "name": crumb.label, "item": item})
        })
        .collect();
    json!({"@type": "BreadcrumbList", "itemListElement": items})
}

/// The page's JSON-LD, ready to sit inside `<script type="application/ld+json">`: `</` is written
/// `<\/` so no text of a page can close the script. Empty when there is nothing to say.
pub fn json_ld(
    page: &Page,
    is_article: bool,
    crumbs: Option<&[Crumb]>,
    config: &SiteConfig,
    canonical: &str,
) -> String {
    let base = config.base_url.trim_end_matches('/');
    let mut graph = Vec::new();
    if page.route() == "/" {
        graph.push(person(config, base));
    }
    if is_article {
        graph.push(article(page, config, base, canonical));
    }
    if let Some(crumbs) = crumbs {
        graph.push(breadcrumb_list(crumbs, base, canonical));
    }
    if graph.is_empty() {
        return String::new();
    }
    script_safe(&json!({"@context": "https://schema.org", "@graph": graph}))
}

/// `data` as JSON with `</` written `<\/`, the same JSON to a parser but no `</script>` to HTML.
fn script_safe(data: &Value) -> String {
    serde_json::to_string(data)
        .expect("JSON values serialize")
        .replace("</", "<\\/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cannot_close_the_script() {
        let data = json!({"headline": "A </script><script>alert(1)</script> title"});
        let text = script_safe(&data);
        assert!(!text.contains("</"), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), data);
    }
}
