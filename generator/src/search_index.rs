//! The site search index: one JSON file covering every page in every language, fetched only by
//! the search page. Its name carries a hash of its bytes so it can be cached for good.

use crate::config::SiteConfig;
use crate::content::PageKind;
use crate::pages::{Page, Pages};
use serde::Serialize;
use sha2::{Digest, Sha256};

#[derive(Debug, Serialize)]
pub struct IndexEntry {
    /// The English route, the same for every language of a page.
    pub route: String,
    /// Where a result navigates: the route in the entry's language.
    pub url: String,
    pub lang: String,
    pub title: String,
    pub text: String,
    pub keywords: Vec<String>,
}

#[derive(Serialize)]
struct Index<'a> {
    version: u32,
    pages: &'a [IndexEntry],
}

/// Runs of white space become one space: the index is for matching and snippets, not layout.
pub fn squash_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The index entry of each page written as a page of its own. A list whose entries have no
/// pages (app projects) carries their titles, text and keywords: the list is where they are read.
pub fn entries(pages: &Pages, config: &SiteConfig) -> Vec<IndexEntry> {
    pages
        .built()
        .map(|page| {
            let listed: Vec<&Page> = match &page.source.kind {
                PageKind::Collection { name } => pages
                    .entries(name, &page.lang)
                    .into_iter()
                    .filter(|entry| !entry.gets_page)
                    .collect(),
                _ => Vec::new(),
            };
            let mut text = page.rendered.text.clone();
            let mut keywords = page.source.front.keywords.clone();
            for entry in listed {
                text.push_str(&format!("\n{}\n{}", entry.source.front.title, entry.rendered.text));
                keywords.extend(entry.source.front.keywords.iter().cloned());
            }
            IndexEntry {
                route: page.route().to_string(),
                url: config.localized_path(page.route(), &page.lang),
                lang: page.lang.clone(),
                title: page.source.front.title.clone(),
                text: squash_whitespace(&text),
                keywords,
            }
        })
        .collect()
}

/// The index's bytes and its file name (`search-index-<hash>.json`).
pub fn encode(pages: &[IndexEntry]) -> (Vec<u8>, String) {
    let bytes = serde_json::to_vec(&Index { version: 1, pages }).expect("the index serialises");
    let hash = hex_prefix(&Sha256::digest(&bytes), 10);
    (bytes, format!("search-index-{hash}.json"))
}

fn hex_prefix(bytes: &[u8], chars: usize) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()[..chars].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> IndexEntry {
        IndexEntry {
            route: "/notes".into(),
            url: "/zh/notes".into(),
            lang: "zh".into(),
            title: "筆記".into(),
            text: squash_whitespace(text),
            keywords: vec!["流動性".into()],
        }
    }

    #[test]
    fn name_follows_content() {
        let (bytes, name) = encode(&[entry("a  b\n c")]);
        let (_, same) = encode(&[entry("a b c")]);
        let (_, other) = encode(&[entry("a b d")]);
        assert_eq!(name, same);
        assert_ne!(name, other);
        assert!(
            name.starts_with("search-index-") && name.ends_with(".json") && name.len() == 28,
            "{name}"
        );
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(value["pages"][0]["text"], "a b c");
        assert_eq!(value["pages"][0]["url"], "/zh/notes");
    }
}
