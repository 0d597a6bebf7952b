//! A language's postings: each page's terms, the n-gram and item tables, the page chunks and
//! the vocabulary, kept in memory so an edit updates them in place.

use super::file::*;
use super::grams::*;
use super::table::*;
use crate::model::locales::Locales;
use crate::output::search::entries::IndexEntry;
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Pages per chunk are chosen so a chunk holds about this many bytes up to CHUNKS_AT_BASE
/// chunks, more beyond (`growth`): a query reads whole chunks, so small ones waste little text on
/// pages it does not show.
pub(super) const CHUNK_BYTES: usize = 4 * 1024;

pub(super) const CHUNKS_AT_BASE: usize = 128;

pub(super) const MAX_PAGES_PER_CHUNK: usize = 64;

/// What a page is found by, lowered: its items (title, keywords, route, segments) and its text.
pub(super) struct PageTerms {
    pub(super) items: Vec<String>,
    pub(super) text: String,
}

impl PageTerms {
    pub(super) fn of(entry: &IndexEntry) -> Self {
        PageTerms {
            items: page_items(entry),
            text: entry.text.to_lowercase(),
        }
    }

    pub(super) fn meta_grams(&self) -> FxHashSet<&str> {
        let mut grams = FxHashSet::default();
        for item in &self.items {
            grams_of(item, &mut grams);
        }
        grams
    }

    pub(super) fn text_grams(&self) -> FxHashSet<&str> {
        let mut grams = FxHashSet::default();
        grams_of(&self.text, &mut grams);
        grams
    }

    /// The items a longer query may contain: those of two characters or more.
    pub(super) fn whole_items(&self) -> FxHashSet<&str> {
        (self.items.iter())
            .filter(|i| first_bigram(i).is_some())
            .map(String::as_str)
            .collect()
    }
}

/// A page chunk's record of a page: `[order, route, url, title, text, keywords]`.
pub(super) fn record(order: usize, e: &IndexEntry) -> String {
    json!([order, e.route, e.url, e.title, e.text, e.keywords]).to_string()
}

/// The vocabulary's record of a page: `[route, title, keywords]`.
pub(super) fn vocabulary_record(e: &IndexEntry) -> Value {
    json!([e.route, e.title, e.keywords])
}

/// One language's index as `site watch` keeps it: what makes its files, kept so that an edit of
/// a page's entry serialises only the files that show it.
pub(super) struct Postings {
    /// Each page's place in the whole index, by id.
    pub(super) orders: Vec<usize>,
    pub(super) grams: Table<GramPages>,
    pub(super) items: Table<Vec<u32>>,
    /// Each page's chunk record, by id.
    pub(super) records: Vec<String>,
    pub(super) record_bytes: usize,
    /// Pages whose records changed since the chunks were last serialised.
    pub(super) dirty_pages: BTreeSet<u32>,
    /// Pages per chunk when the chunks were last serialised (0: never).
    pub(super) written_per: usize,
}

impl Postings {
    pub(super) fn of(entries: &[(usize, &IndexEntry)]) -> Self {
        let pages = entries.len();
        let mut grams: FxHashMap<String, GramPages> = FxHashMap::default();
        let mut items: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        for (id, (_, entry)) in entries.iter().enumerate() {
            let id = id as u32;
            let terms = PageTerms::of(entry);
            for gram in terms.meta_grams() {
                posted(&mut grams, gram).meta.push(id);
            }
            for gram in terms.text_grams() {
                posted(&mut grams, gram).text.push(id);
            }
            for item in terms.whole_items() {
                posted(&mut items, item).push(id);
            }
        }
        let records: Vec<String> = entries.iter().map(|(order, e)| record(*order, e)).collect();
        Postings {
            orders: entries.iter().map(|(order, _)| *order).collect(),
            grams: Table::new(grams, whole_key, pages),
            items: Table::new(items, item_bucket_key, pages),
            record_bytes: records.iter().map(String::len).sum(),
            dirty_pages: BTreeSet::new(),
            written_per: 0,
            records,
        }
    }

    pub(super) fn pages(&self) -> usize {
        self.orders.len()
    }

    /// Pages per chunk: about CHUNK_BYTES a chunk on a small site, more on a large one.
    pub(super) fn per(&self) -> usize {
        let chunk_bytes = CHUNK_BYTES as f64 * growth(self.record_bytes / CHUNK_BYTES, CHUNKS_AT_BASE);
        let per = chunk_bytes * self.pages() as f64 / self.record_bytes.max(1) as f64;
        (per as usize).clamp(1, MAX_PAGES_PER_CHUNK)
    }

    /// The page of `id` now has the entry `new` where it had `old`.
    pub(super) fn replace(&mut self, id: u32, old: &IndexEntry, new: &IndexEntry) {
        let pages = self.pages();
        let (old_terms, new_terms) = (PageTerms::of(old), PageTerms::of(new));
        let meta = (old_terms.meta_grams(), new_terms.meta_grams());
        move_id(&mut self.grams, meta, |p| &mut p.meta, id, pages);
        let text = (old_terms.text_grams(), new_terms.text_grams());
        move_id(&mut self.grams, text, |p| &mut p.text, id, pages);
        let items = (old_terms.whole_items(), new_terms.whole_items());
        move_id(&mut self.items, items, |ids| ids, id, pages);
        let record = record(self.orders[id as usize], new);
        let old_record = std::mem::replace(&mut self.records[id as usize], record);
        self.record_bytes = self.record_bytes + self.records[id as usize].len() - old_record.len();
        self.dirty_pages.insert(id);
    }

    /// The chunk files serialised since they were last written: those of the pages whose records
    /// changed, or every one when another `per` moved the pages to other chunks.
    pub(super) fn refresh_chunks(&mut self, files: &mut Vec<IndexFile>) {
        let per = self.per();
        let chunks = self.pages().div_ceil(per);
        let dirty: BTreeSet<usize> = match per == self.written_per {
            true => self.dirty_pages.iter().map(|&id| id as usize / per).collect(),
            false => (0..chunks).collect(),
        };
        files.truncate(chunks);
        for n in dirty {
            let records = &self.records[n * per..((n + 1) * per).min(self.pages())];
            put(
                files,
                n,
                IndexFile::new(format!("p{n}"), format!("[{}]", records.join(",")).into_bytes()),
            );
        }
        self.dirty_pages.clear();
        self.written_per = per;
    }
}

/// The posting of `key` in `map`, made if new.
pub(super) fn posted<'m, P: Default>(map: &'m mut FxHashMap<String, P>, key: &str) -> &'m mut P {
    if !map.contains_key(key) {
        map.insert(key.to_string(), P::default());
    }
    map.get_mut(key).expect("just inserted")
}

/// Route keys a label may name (the translations' breadcrumb segments) and the top-level routes
/// (the recommendations): the pages behind each, looked up without fetching a bucket.
pub(super) fn route_keys<'e>(
    lang: &str,
    entries: &'e [(usize, &IndexEntry)],
    locales: &Locales,
) -> BTreeMap<&'e str, Vec<u32>> {
    let mut keys: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (id, (_, e)) in entries.iter().enumerate() {
        let key = route_key(&e.route);
        let top = e.route.matches('/').count() <= 1;
        let labelled = locales
            .get(lang, "translation", &format!("breadcrumb.segments.{key}"))
            .is_some();
        if top || labelled {
            keys.entry(key).or_default().push(id as u32);
        }
    }
    keys
}
