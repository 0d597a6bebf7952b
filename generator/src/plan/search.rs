//! The search index a build writes: made anew for a whole build, or, after a Markdown edit,
//! the last build's with the entries of the affected pages made again, so only the files that
//! show them change.

use super::state::{SearchKept, State};
use crate::model::pages::Page;
use crate::model::site::Site;
use crate::output::search::entries::{self, IndexEntry};
use crate::output::search::{manifest, LanguageIndex, SearchFile};
use rayon::prelude::*;
use std::collections::BTreeSet;

/// The search index's files: a manifest the search page names and the chunks it lists.
pub(crate) struct SearchIndexFile {
    /// Each page's entry, in the index's order.
    pub entries: Vec<IndexEntry>,
    /// Each language's files: a rebuild writes only those whose bytes changed.
    pub languages: Vec<LanguageIndex>,
    pub manifest: SearchFile,
    /// The paths (below `assets/`) of the last build's files this one makes no more.
    pub gone: Vec<String>,
    pub edits: SearchEdits,
}

/// The search index manifest's name in a `--dev` build: one name, so an edit does not change the
/// search page's props (and with them its island). The manifest still versions the files it
/// lists, and the server does not serve it as immutable (its name carries no hash).
const DEV_SEARCH_INDEX: &str = "search-index-dev.json";

/// How the search entries changed since the last build.
pub(crate) enum SearchEdits {
    /// Every entry is new, or pages came, went or moved: their ids (places in the index) changed.
    Moved,
    /// Entries replaced in place: their places in the index and the entries they had.
    Replaced(Vec<(usize, IndexEntry)>),
}

/// The index for the pages of `state` now: the last build's (`state.search`, taken) with the
/// entries of the `dirty` routes' pages made again, or made anew when there is no last build or
/// no `dirty` (every route). A `--dev` build keeps each language's postings in memory for this.
pub(crate) fn index(state: &mut State, dirty: Option<&BTreeSet<String>>, dev: bool) -> SearchIndexFile {
    let site = &state.site;
    let (entries, edits, kept) = match (state.search.take(), dirty) {
        (Some(SearchKept { entries, languages }), Some(dirty)) => {
            let (entries, edits) = entries_after(site, entries, dirty);
            (entries, edits, Some(languages))
        }
        _ => (entries::entries(&site.pages, &site.config), SearchEdits::Moved, None),
    };
    let (languages, gone) = match kept {
        None => {
            let encode = |lang: &String| LanguageIndex::encode(&entries, lang, &site.locales, dev);
            (site.languages.par_iter().map(encode).collect(), Vec::new())
        }
        Some(kept) => update(kept, site, &entries, &edits, dev),
    };
    let mut manifest = manifest(&languages);
    if dev {
        manifest.path = DEV_SEARCH_INDEX.to_string();
    }
    SearchIndexFile {
        entries,
        languages,
        manifest,
        gone,
        edits,
    }
}

impl SearchIndexFile {
    pub(crate) fn url(&self) -> String {
        format!("/assets/{}", self.manifest.path)
    }

    /// The languages whose files the edits changed (every language when pages moved).
    pub(crate) fn changed_languages(&self, site: &Site) -> Vec<String> {
        let replaced: Vec<&str> = match &self.edits {
            SearchEdits::Moved => return site.languages.clone(),
            SearchEdits::Replaced(replaced) => replaced.iter().map(|(_, e)| e.lang.as_str()).collect(),
        };
        (site.languages.iter())
            .filter(|lang| replaced.contains(&lang.as_str()))
            .cloned()
            .collect()
    }
}

/// The languages' indexes after the edits: the languages whose entries the edits replaced
/// serialise the files that show them, the others stay as the last build (`kept`) wrote them.
/// Gives the files no language has any more.
fn update(
    kept: Vec<LanguageIndex>,
    site: &Site,
    entries: &[IndexEntry],
    edits: &SearchEdits,
    dev: bool,
) -> (Vec<LanguageIndex>, Vec<String>) {
    let update = |mut language: LanguageIndex| {
        let replaced: Vec<(usize, &IndexEntry)> = match edits {
            SearchEdits::Moved => return LanguageIndex::encode(entries, &language.lang, &site.locales, dev),
            SearchEdits::Replaced(replaced) => (replaced.iter())
                .filter(|(_, old)| old.lang == language.lang)
                .map(|(order, old)| (*order, old))
                .collect(),
        };
        if !replaced.is_empty() && !language.update(entries, &replaced) {
            return LanguageIndex::encode(entries, &language.lang, &site.locales, dev);
        }
        language
    };
    let (languages, gone): (Vec<LanguageIndex>, Vec<Vec<String>>) = (kept.into_par_iter())
        .map(|language| {
            let before = language.counts();
            let language = update(language);
            let gone = language.gone_since(before);
            (language, gone)
        })
        .unzip();
    (languages, gone.concat())
}

/// Every page's search entry in index order, and how they changed. When the pages are those of
/// the last build in the same order, its entries but for the pages of `dirty`, made again
/// (`entries::entry`, as a whole build makes them), and those replaced; else every entry made
/// again, the pages moved (a page's id is its place in the index, and all of them are encoded
/// again).
fn entries_after(site: &Site, before: Vec<IndexEntry>, dirty: &BTreeSet<String>) -> (Vec<IndexEntry>, SearchEdits) {
    let pages: Vec<&Page> = site.pages.built().collect();
    let in_place = pages.len() == before.len()
        && (pages.iter().zip(&before)).all(|(page, e)| page.route() == e.route && page.lang == e.lang);
    if !in_place {
        let entries = pages
            .iter()
            .map(|page| entries::entry(page, &site.pages, &site.config))
            .collect();
        return (entries, SearchEdits::Moved);
    }
    let mut replaced = Vec::new();
    let entries = (pages.iter().zip(before).enumerate())
        .map(|(order, (page, old))| {
            if !dirty.contains(page.route()) {
                return old;
            }
            let entry = entries::entry(page, &site.pages, &site.config);
            if entry != old {
                replaced.push((order, old));
            }
            entry
        })
        .collect();
    (entries, SearchEdits::Replaced(replaced))
}
