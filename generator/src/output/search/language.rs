//! A language's index files and the manifest that lists every language's, with their versions.

use super::file::*;
use super::postings::*;
use crate::model::locales::Locales;
use crate::output::search::entries::IndexEntry;
use base64::Engine;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// One file of the index: its path below `assets/` and its bytes.
pub struct SearchFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// One language's files and its part of the manifest. Under `site watch` it keeps its postings,
/// and an edit of some pages' entries serialises again only the files that show them.
pub struct LanguageIndex {
    pub lang: String,
    pub(super) grams: Vec<IndexFile>,
    pub(super) items: Vec<IndexFile>,
    pub(super) chunks: Vec<IndexFile>,
    pub(super) vocabulary: IndexFile,
    /// The route keys of the manifest: they follow the routes, which an edit keeps.
    pub(super) keys: Value,
    pub(super) part: Value,
    pub(super) postings: Option<Postings>,
}

impl LanguageIndex {
    /// The files of the entries of `lang` among `entries` (every language's, in index order);
    /// `keep`: keep the postings for `update`.
    pub fn encode(entries: &[IndexEntry], lang: &str, locales: &Locales, keep: bool) -> Self {
        let mine: Vec<(usize, &IndexEntry)> = entries.iter().enumerate().filter(|(_, e)| e.lang == lang).collect();
        let mut postings = Postings::of(&mine);
        let vocabulary: Vec<Value> = mine.iter().map(|(_, e)| vocabulary_record(e)).collect();
        let mut index = LanguageIndex {
            lang: lang.to_string(),
            grams: Vec::new(),
            items: Vec::new(),
            chunks: Vec::new(),
            vocabulary: IndexFile::new("v".to_string(), json!(vocabulary).to_string().into_bytes()),
            keys: json!(route_keys(lang, &mine, locales)),
            part: Value::Null,
            postings: None,
        };
        index.refresh(&mut postings);
        index.postings = keep.then_some(postings);
        index
    }

    /// The index after the pages at `replaced` (places in `entries`, with their entries before)
    /// changed their entries in place, no page added, removed or moved; false, and nothing
    /// changed, when it kept no postings (the caller encodes it anew).
    pub fn update(&mut self, entries: &[IndexEntry], replaced: &[(usize, &IndexEntry)]) -> bool {
        let Some(mut postings) = self.postings.take() else {
            return false;
        };
        let mut vocabulary_changed = false;
        for &(order, old) in replaced {
            let new = &entries[order];
            let id = postings.orders.binary_search(&order).expect("a page of this language") as u32;
            postings.replace(id, old, new);
            vocabulary_changed |= vocabulary_record(old) != vocabulary_record(new);
        }
        if vocabulary_changed {
            let vocabulary: Vec<Value> = (postings.orders.iter())
                .map(|&order| vocabulary_record(&entries[order]))
                .collect();
            let file = IndexFile::new("v".to_string(), json!(vocabulary).to_string().into_bytes());
            self.vocabulary.replace(file);
        }
        self.refresh(&mut postings);
        self.postings = Some(postings);
        true
    }

    /// Serialises the files the postings changed, and the manifest's part.
    pub(super) fn refresh(&mut self, postings: &mut Postings) {
        let pages = postings.pages();
        postings.grams.settle();
        postings.items.settle();
        postings.grams.refresh("g", &mut self.grams, pages);
        postings.items.refresh("i", &mut self.items, pages);
        postings.refresh_chunks(&mut self.chunks);
        let mut version = Sha256::new();
        for file in self.files() {
            version.update(file.path.as_bytes());
            version.update(file.digest);
        }
        let version = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(version.finalize());
        self.part = json!({
            "v": &version[..8], "pages": pages, "per": postings.per(), "grams": self.grams.len(),
            "items": self.items.len(), "keys": self.keys,
        });
    }

    pub(super) fn files(&self) -> impl Iterator<Item = &IndexFile> {
        (self.grams.iter())
            .chain(&self.items)
            .chain(&self.chunks)
            .chain([&self.vocabulary])
    }

    /// The files to write, their paths below `assets/` and bytes (taken): every file after
    /// `encode`, those whose bytes changed after `update` (the others are as written before).
    pub fn take_files(&mut self) -> Vec<(String, Vec<u8>)> {
        let lang = &self.lang;
        (self.grams.iter_mut())
            .chain(&mut self.items)
            .chain(&mut self.chunks)
            .chain([&mut self.vocabulary])
            .filter_map(|file| Some((path(lang, &file.path), file.bytes.take()?)))
            .collect()
    }

    pub fn counts(&self) -> FileCounts {
        FileCounts([self.grams.len(), self.items.len(), self.chunks.len()])
    }

    /// The paths (below `assets/`) of the files the index had when it had `before` files of each
    /// kind, and has no more.
    pub fn gone_since(&self, before: FileCounts) -> Vec<String> {
        (NUMBERED.iter().zip(before.0).zip(self.counts().0))
            .flat_map(|((kind, before), now)| (now..before).map(move |n| path(&self.lang, &format!("{kind}{n}"))))
            .collect()
    }
}

/// The numbered kinds of files, in the order of `FileCounts`: gram buckets, item buckets, chunks.
pub(super) const NUMBERED: [&str; 3] = ["g", "i", "p"];

/// How many files of each numbered kind a language's index has.
#[derive(Clone, Copy)]
pub struct FileCounts(pub(super) [usize; 3]);

/// The path below `assets/` of a language's file.
pub(super) fn path(lang: &str, name: &str) -> String {
    format!("search/{lang}/{name}.json")
}

/// The manifest of the languages' files (`search-index-<hash>.json`).
pub fn manifest<'a>(languages: impl IntoIterator<Item = &'a LanguageIndex>) -> SearchFile {
    let langs: serde_json::Map<String, Value> = languages
        .into_iter()
        .map(|l| (l.lang.clone(), l.part.clone()))
        .collect();
    let bytes = serde_json::to_vec(&json!({"version": 2, "langs": langs})).expect("the index serialises");
    let hash: String = Sha256::digest(&bytes)[..6].iter().map(|b| format!("{b:02x}")).collect();
    SearchFile {
        path: format!("search-index-{hash}.json"),
        bytes,
    }
}
