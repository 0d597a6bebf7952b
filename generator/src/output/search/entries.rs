//! What the site search finds: one entry per page written, in every language. `search_chunks`
//! turns the entries into the files the search page fetches.

use crate::model::config::SiteConfig;
use crate::model::content::PageKind;
use crate::model::pages::{Page, Pages};
use serde::Serialize;

#[derive(Debug, PartialEq, Serialize)]
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

/// Runs of white space become one space: the index is for matching and snippets, not layout.
pub fn squash_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The index entry of each page written as a page of its own, in the pages' order.
pub fn entries(pages: &Pages, config: &SiteConfig) -> Vec<IndexEntry> {
    pages.built().map(|page| entry(page, pages, config)).collect()
}

/// One page's entry. A list whose entries have no pages (app projects) carries their titles,
/// text and keywords: the list is where they are read.
pub fn entry(page: &Page, pages: &Pages, config: &SiteConfig) -> IndexEntry {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_runs_become_one_space() {
        assert_eq!(squash_whitespace("  a  b\n\t c "), "a b c");
    }
}
