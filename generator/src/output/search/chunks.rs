//! The search index as the browser fetches it: per language, n-gram buckets that say which pages
//! hold a string, item buckets for the titles, keywords and routes a query may contain, page
//! chunks with the pages' text, and a vocabulary for the fuzzy fallback. A query downloads only
//! the buckets of its substrings and the chunks of the pages they allow. The format is described
//! in docs/internals.md ("The search index"); `ui/src/search/chunked.ts` reads it.
//!
//! Files keep their names from build to build (`assets/search/<lang>/g17.json`), so an edit
//! rewrites only the files whose bytes change; the manifest gives each language a version, a
//! hash of all its files, that the browser adds to their URLs (`?v=`), so a cached file is never
//! read with another version's manifest.

use crate::model::locales::Locales;
use crate::output::search::entries::IndexEntry;
use base64::Engine;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Pages per chunk are chosen so a chunk holds about this many bytes: a query reads whole chunks,
/// so small ones waste little text on pages it does not show.
const CHUNK_BYTES: usize = 4 * 1024;
/// Buckets hold about this many bytes; a query reads one per lookup.
const BUCKET_BYTES: usize = 1024;
const MAX_BUCKETS: usize = 4096;
const MAX_PAGES_PER_CHUNK: usize = 64;

/// One file of the index: its path below `assets/` and its bytes.
pub struct SearchFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// FNV-1a over UTF-16 code units: cheap, and the same in JavaScript (`bucketOf` in chunked.ts).
pub fn bucket_of(gram: &str, buckets: usize) -> usize {
    let mut hash: u32 = 0x811c_9dc5;
    for unit in gram.encode_utf16() {
        hash ^= u32::from(unit);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash as usize % buckets
}

/// Every distinct substring of one to three characters of `text`.
fn grams_of<'a>(text: &'a str, into: &mut HashSet<&'a str>) {
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
    for start in 0..bounds.len().saturating_sub(1) {
        for n in 1..=3 {
            if let Some(&end) = bounds.get(start + n) {
                into.insert(&text[bounds[start]..end]);
            }
        }
    }
}

/// The first two characters of an item: it is filed under them, so a query finds the items it
/// contains through its own two-character substrings.
fn first_bigram(item: &str) -> Option<&str> {
    let mut ends = item.char_indices().map(|(i, c)| i + c.len_utf8());
    ends.nth(1).map(|end| &item[..end])
}

/// What the page is found by besides its text, lowered as the browser lowers it: title,
/// keywords, route and route segments (also with spaces for hyphens).
fn page_items(entry: &IndexEntry) -> Vec<String> {
    let route = entry.route.to_lowercase();
    let mut items = vec![entry.title.to_lowercase(), route.clone()];
    items.extend(entry.keywords.iter().map(|k| k.to_lowercase()));
    for segment in route.split('/').filter(|s| !s.is_empty()) {
        items.push(segment.to_string());
        items.push(segment.replace('-', " "));
    }
    items.retain(|i| !i.is_empty());
    items
}

/// The last segment of a route (`home` for `/`), as the browser keys route labels.
fn route_key(route: &str) -> &str {
    route.rsplit('/').find(|s| !s.is_empty()).unwrap_or("home")
}

/// The length of a base64 bitmap of `pages` bits, quoted.
fn bitmap_len(pages: usize) -> usize {
    pages.div_ceil(8).div_ceil(3) * 4 + 2
}

fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The gaps between sorted ids, the first id first.
fn gaps(ids: &[u32]) -> impl Iterator<Item = u32> + '_ {
    ids.iter().scan(0, |prev, &id| {
        let gap = id - *prev;
        *prev = id;
        Some(gap)
    })
}

/// The length of `ids` as a JSON array of gaps.
fn gaps_len(ids: &[u32]) -> usize {
    gaps(ids).map(|g| digits(g) + 1).sum::<usize>() + 1
}

/// A sorted list of page ids: as gaps between ids (JSON numbers), or as a base64 bitmap when
/// that is shorter (a gram most pages hold).
fn posting(ids: &[u32], pages: usize) -> Value {
    if gaps_len(ids) <= bitmap_len(pages) {
        return json!(gaps(ids).collect::<Vec<u32>>());
    }
    let mut bits = vec![0u8; pages.div_ceil(8)];
    for &id in ids {
        bits[id as usize / 8] |= 1 << (id % 8);
    }
    json!(base64::engine::general_purpose::STANDARD.encode(bits))
}

/// The length of `posting(ids, pages)` as JSON, without making it: buckets are sized by it.
fn posting_len(ids: &[u32], pages: usize) -> usize {
    match gaps_len(ids) {
        _ if ids.is_empty() => 2,
        len if len <= bitmap_len(pages) => len,
        _ => bitmap_len(pages),
    }
}

/// `id` into the sorted `ids`.
fn add_id(ids: &mut Vec<u32>, id: u32) {
    if let Err(at) = ids.binary_search(&id) {
        ids.insert(at, id);
    }
}

fn remove_id(ids: &mut Vec<u32>, id: u32) {
    if let Ok(at) = ids.binary_search(&id) {
        ids.remove(at);
    }
}

/// Bucket count for `bytes` of entries: about BUCKET_BYTES each, a power of two.
fn bucket_count(bytes: usize) -> usize {
    (bytes / BUCKET_BYTES).max(1).next_power_of_two().clamp(1, MAX_BUCKETS)
}

/// What a key of a bucket holds: the pages it is found on.
trait Posted: Default {
    fn value(&self, pages: usize) -> Value;
    /// The length of `value` as JSON.
    fn json_len(&self, pages: usize) -> usize;
    fn is_empty(&self) -> bool;
}

/// The pages holding an n-gram: in a title, keyword or route (`meta`), and in the text.
#[derive(Default)]
struct GramPages {
    meta: Vec<u32>,
    text: Vec<u32>,
}

impl Posted for GramPages {
    fn value(&self, pages: usize) -> Value {
        json!([posting(&self.meta, pages), posting(&self.text, pages)])
    }

    fn json_len(&self, pages: usize) -> usize {
        posting_len(&self.meta, pages) + posting_len(&self.text, pages) + 3
    }

    fn is_empty(&self) -> bool {
        self.meta.is_empty() && self.text.is_empty()
    }
}

/// The pages holding a whole item (title, keyword, route).
impl Posted for Vec<u32> {
    fn value(&self, pages: usize) -> Value {
        posting(self, pages)
    }

    fn json_len(&self, pages: usize) -> usize {
        posting_len(self, pages)
    }

    fn is_empty(&self) -> bool {
        <[u32]>::is_empty(self)
    }
}

/// Keys and their pages, spread over a power-of-two number of buckets of about BUCKET_BYTES of
/// JSON by a hash of `bucket_key(key)`: the gram buckets and the item buckets. It stays in memory
/// under `site watch`, so an edit changes the keys of one page and writes again only the buckets
/// they fall in (all of them when the bucket count changes).
struct Table<P> {
    entries: HashMap<String, P>,
    bucket_key: fn(&str) -> &str,
    /// The JSON bytes of the entries, as sized for the bucket count.
    bytes: usize,
    buckets: Vec<BTreeSet<String>>,
    /// Buckets whose entries changed since they were last serialised.
    dirty: BTreeSet<usize>,
}

fn whole_key(key: &str) -> &str {
    key
}

fn item_bucket_key(item: &str) -> &str {
    first_bigram(item).expect("items have two characters")
}

impl<P: Posted> Table<P> {
    fn new(entries: HashMap<String, P>, bucket_key: fn(&str) -> &str, pages: usize) -> Self {
        let bytes = entries.iter().map(|(k, p)| entry_len(k, p, pages)).sum();
        let mut table = Table {
            entries,
            bucket_key,
            bytes,
            buckets: Vec::new(),
            dirty: BTreeSet::new(),
        };
        table.spread();
        table
    }

    fn bucket_of(&self, key: &str) -> usize {
        bucket_of((self.bucket_key)(key), self.buckets.len())
    }

    /// Every entry in its bucket for the present size; every bucket dirty.
    fn spread(&mut self) {
        self.buckets = vec![BTreeSet::new(); bucket_count(self.bytes)];
        let count = self.buckets.len();
        for key in self.entries.keys() {
            self.buckets[bucket_of((self.bucket_key)(key), count)].insert(key.clone());
        }
        self.dirty = (0..count).collect();
    }

    /// Changes the pages of `key` (an entry with none is dropped).
    fn edit(&mut self, key: &str, pages: usize, change: impl FnOnce(&mut P)) {
        let posted = self.entries.entry(key.to_string()).or_default();
        let before = entry_len(key, posted, pages);
        change(posted);
        let after = entry_len(key, posted, pages);
        let emptied = posted.is_empty();
        self.bytes = self.bytes + after - before;
        let bucket = self.bucket_of(key);
        if emptied {
            self.entries.remove(key);
            self.buckets[bucket].remove(key);
        } else {
            self.buckets[bucket].insert(key.to_string());
        }
        self.dirty.insert(bucket);
    }

    /// After edits: spread again if the entries' size calls for another bucket count.
    fn settle(&mut self) {
        if bucket_count(self.bytes) != self.buckets.len() {
            self.spread();
        }
    }

    fn bucket_bytes(&self, n: usize, pages: usize) -> Vec<u8> {
        let map: serde_json::Map<String, Value> = self.buckets[n]
            .iter()
            .map(|key| (key.clone(), self.entries[key].value(pages)))
            .collect();
        serde_json::to_vec(&Value::Object(map)).expect("the index serialises")
    }

    /// The files of the buckets serialised since they were last written (named `{prefix}N`).
    fn refresh(&mut self, prefix: &str, files: &mut Vec<IndexFile>, pages: usize) {
        files.truncate(self.buckets.len());
        for n in std::mem::take(&mut self.dirty) {
            put(
                files,
                n,
                IndexFile::new(format!("{prefix}{n}"), self.bucket_bytes(n, pages)),
            );
        }
    }
}

/// An entry's share of a bucket's bytes (none for a key no page holds: it is not written).
fn entry_len(key: &str, posted: &impl Posted, pages: usize) -> usize {
    match posted.is_empty() {
        true => 0,
        false => key.len() + posted.json_len(pages) + 4,
    }
}

/// `file` as the `n`th of `files`, which holds files `0..n` at least.
fn put(files: &mut Vec<IndexFile>, n: usize, file: IndexFile) {
    match files.get_mut(n) {
        Some(old) => old.replace(file),
        None => files.push(file),
    }
}

/// Moves page `id` out of the postings (`ids_of`) of the keys only `old` has, and into those of
/// the keys only `new` has.
fn move_id<P: Posted>(
    table: &mut Table<P>,
    (old, new): (HashSet<&str>, HashSet<&str>),
    ids_of: fn(&mut P) -> &mut Vec<u32>,
    id: u32,
    pages: usize,
) {
    for key in old.difference(&new) {
        table.edit(key, pages, |p| remove_id(ids_of(p), id));
    }
    for key in new.difference(&old) {
        table.edit(key, pages, |p| add_id(ids_of(p), id));
    }
}

/// What a page is found by, lowered: its items (title, keywords, route, segments) and its text.
struct PageTerms {
    items: Vec<String>,
    text: String,
}

impl PageTerms {
    fn of(entry: &IndexEntry) -> Self {
        PageTerms {
            items: page_items(entry),
            text: entry.text.to_lowercase(),
        }
    }

    fn meta_grams(&self) -> HashSet<&str> {
        let mut grams = HashSet::new();
        for item in &self.items {
            grams_of(item, &mut grams);
        }
        grams
    }

    fn text_grams(&self) -> HashSet<&str> {
        let mut grams = HashSet::new();
        grams_of(&self.text, &mut grams);
        grams
    }

    /// The items a longer query may contain: those of two characters or more.
    fn whole_items(&self) -> HashSet<&str> {
        (self.items.iter())
            .filter(|i| first_bigram(i).is_some())
            .map(String::as_str)
            .collect()
    }
}

/// A page chunk's record of a page: `[order, route, url, title, text, keywords]`.
fn record(order: usize, e: &IndexEntry) -> String {
    json!([order, e.route, e.url, e.title, e.text, e.keywords]).to_string()
}

/// The vocabulary's record of a page: `[route, title, keywords]`.
fn vocabulary_record(e: &IndexEntry) -> Value {
    json!([e.route, e.title, e.keywords])
}

/// One file of a language's index: its name, a digest of its bytes (the language's version is
/// made from them) and its bytes until they are written.
struct IndexFile {
    path: String,
    digest: [u8; 32],
    bytes: Option<Vec<u8>>,
}

impl IndexFile {
    fn new(path: String, bytes: Vec<u8>) -> Self {
        IndexFile {
            path,
            digest: Sha256::digest(&bytes).into(),
            bytes: Some(bytes),
        }
    }

    /// Takes `new`'s place; nothing to write when its bytes are those already written.
    fn replace(&mut self, new: IndexFile) {
        if self.path != new.path || self.digest != new.digest || self.bytes.is_some() {
            *self = new;
        }
    }
}

/// One language's index as `site watch` keeps it: what makes its files, kept so that an edit of
/// a page's entry serialises only the files that show it.
struct Postings {
    /// Each page's place in the whole index, by id.
    orders: Vec<usize>,
    grams: Table<GramPages>,
    items: Table<Vec<u32>>,
    /// Each page's chunk record, by id.
    records: Vec<String>,
    record_bytes: usize,
    /// Pages whose records changed since the chunks were last serialised.
    dirty_pages: BTreeSet<u32>,
    /// Pages per chunk when the chunks were last serialised (0: never).
    written_per: usize,
}

impl Postings {
    fn of(entries: &[(usize, &IndexEntry)]) -> Self {
        let pages = entries.len();
        let mut grams: HashMap<String, GramPages> = HashMap::new();
        let mut items: HashMap<String, Vec<u32>> = HashMap::new();
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

    fn pages(&self) -> usize {
        self.orders.len()
    }

    /// Pages per chunk: about CHUNK_BYTES a chunk.
    fn per(&self) -> usize {
        (CHUNK_BYTES * self.pages() / self.record_bytes.max(1)).clamp(1, MAX_PAGES_PER_CHUNK)
    }

    /// The page of `id` now has the entry `new` where it had `old`.
    fn replace(&mut self, id: u32, old: &IndexEntry, new: &IndexEntry) {
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
    fn refresh_chunks(&mut self, files: &mut Vec<IndexFile>) {
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
fn posted<'m, P: Default>(map: &'m mut HashMap<String, P>, key: &str) -> &'m mut P {
    if !map.contains_key(key) {
        map.insert(key.to_string(), P::default());
    }
    map.get_mut(key).expect("just inserted")
}

/// Route keys a label may name (the translations' breadcrumb segments) and the top-level routes
/// (the recommendations): the pages behind each, looked up without fetching a bucket.
fn route_keys<'e>(lang: &str, entries: &'e [(usize, &IndexEntry)], locales: &Locales) -> BTreeMap<&'e str, Vec<u32>> {
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

/// One language's files and its part of the manifest. Under `site watch` it keeps its postings,
/// and an edit of some pages' entries serialises again only the files that show them.
pub struct LanguageIndex {
    pub lang: String,
    grams: Vec<IndexFile>,
    items: Vec<IndexFile>,
    chunks: Vec<IndexFile>,
    vocabulary: IndexFile,
    /// The route keys of the manifest: they follow the routes, which an edit keeps.
    keys: Value,
    part: Value,
    postings: Option<Postings>,
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
    fn refresh(&mut self, postings: &mut Postings) {
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

    fn files(&self) -> impl Iterator<Item = &IndexFile> {
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
const NUMBERED: [&str; 3] = ["g", "i", "p"];

/// How many files of each numbered kind a language's index has.
#[derive(Clone, Copy)]
pub struct FileCounts([usize; 3]);

/// The path below `assets/` of a language's file.
fn path(lang: &str, name: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn grams_are_the_substrings_of_one_to_three_characters() {
        let mut grams = HashSet::new();
        grams_of("折現率", &mut grams);
        let mut sorted: Vec<_> = grams.into_iter().collect();
        sorted.sort();
        assert_eq!(sorted, ["折", "折現", "折現率", "率", "現", "現率"]);
        assert_eq!(first_bigram("dcf"), Some("dc"));
        assert_eq!(first_bigram("折"), None);
    }

    #[test]
    fn postings_are_gaps_or_a_bitmap_whichever_is_shorter() {
        assert_eq!(posting(&[3, 10, 12], 1000), json!([3, 7, 2]));
        let all: Vec<u32> = (0..100).collect();
        let bitmap = posting(&all, 100);
        let bits = base64::engine::general_purpose::STANDARD
            .decode(bitmap.as_str().unwrap())
            .unwrap();
        assert_eq!(bits.len(), 13);
        assert!(bits[..12].iter().all(|&b| b == 0xff) && bits[12] == 0x0f);
    }

    /// A page of `n` made-up words from `seed` (an LCG), English or Chinese.
    fn made_up_entry(lang: &str, page: usize, seed: &mut u64, words: usize) -> IndexEntry {
        const EN: [&str; 12] = [
            "cash", "flow", "discount", "rate", "equity", "value", "margin", "growth", "bond", "yield", "risk", "beta",
        ];
        const ZH: [&str; 8] = ["現金", "折現率", "股權", "價值", "成長", "債券", "殖利率", "風險"];
        let mut next = || {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (*seed >> 33) as usize
        };
        let text: Vec<String> = (0..words)
            .map(|_| match lang {
                "zh" => ZH[next() % ZH.len()].to_string(),
                _ => format!("{}{}", EN[next() % EN.len()], next() % 40),
            })
            .collect();
        let route = format!("/notes/n-{page}");
        IndexEntry {
            url: if lang == "en" {
                route.clone()
            } else {
                format!("/{lang}{route}")
            },
            route,
            lang: lang.to_string(),
            title: format!("Note {page} {}", text[0]),
            text: text.join(" "),
            keywords: vec![text[words / 2].clone()],
        }
    }

    /// `disk` (path to bytes) after `index` wrote its files and removed those gone since it had
    /// `before` files; how many it wrote.
    fn write_into(disk: &mut BTreeMap<String, Vec<u8>>, index: &mut LanguageIndex, before: FileCounts) -> usize {
        for gone in index.gone_since(before) {
            assert!(disk.remove(&gone).is_some(), "{gone} was never written");
        }
        let files = index.take_files();
        let written = files.len();
        disk.extend(files);
        written
    }

    #[test]
    fn an_edit_rewrites_only_the_files_that_show_it_and_equals_encoding_anew() {
        let locales = Locales::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../locales"),
            &["en".to_string(), "zh".to_string()],
            "en",
        )
        .unwrap();
        let mut seed = 7;
        let mut entries: Vec<IndexEntry> = (0..400)
            .map(|n| made_up_entry(if n % 2 == 0 { "en" } else { "zh" }, n / 2, &mut seed, 60))
            .collect();
        let mut kept = LanguageIndex::encode(&entries, "en", &locales, true);
        let mut disk = BTreeMap::new();
        let all = write_into(&mut disk, &mut kept, FileCounts([0; 3]));
        let buckets_before = kept.grams.len();
        let mut small_edit_writes = Vec::new();
        // A word added to a page's text, a retitle, then new pages that grow until the buckets
        // are counted anew.
        for step in 0..24 {
            let order = (step * 38) % 400 / 2 * 2;
            let edited = match step {
                0..16 => IndexEntry {
                    text: format!("{} quokka{step}", entries[order].text),
                    ..made_up_entry("en", order / 2, &mut { 0 }, 1)
                },
                // Rare characters: thousands of grams no other page holds.
                _ => IndexEntry {
                    text: (0..900)
                        .map(|n| char::from_u32(0x4e00 + ((n * 7919 + step * 104_729) % 6000) as u32).unwrap())
                        .collect(),
                    ..made_up_entry("en", order / 2, &mut seed, 60)
                },
            };
            let edited = IndexEntry {
                title: if step < 16 {
                    entries[order].title.clone()
                } else {
                    edited.title
                },
                keywords: if step < 16 {
                    entries[order].keywords.clone()
                } else {
                    edited.keywords
                },
                ..edited
            };
            let old = std::mem::replace(&mut entries[order], edited);
            let mut edits = vec![(order, old)];
            if step == 3 {
                let other = (order + 2) % 400;
                let retitled = IndexEntry {
                    title: "A title never seen".to_string(),
                    ..made_up_entry("en", other / 2, &mut { 0 }, 1)
                };
                let retitled = IndexEntry {
                    text: entries[other].text.clone(),
                    keywords: entries[other].keywords.clone(),
                    ..retitled
                };
                edits.push((other, std::mem::replace(&mut entries[other], retitled)));
            }
            let replaced: Vec<(usize, &IndexEntry)> = edits.iter().map(|(o, e)| (*o, e)).collect();
            let before = kept.counts();
            assert!(kept.update(&entries, &replaced), "postings were kept");
            let written = write_into(&mut disk, &mut kept, before);
            if step < 16 && step != 3 {
                small_edit_writes.push(written);
            }
            let mut fresh = LanguageIndex::encode(&entries, "en", &locales, false);
            let mut fresh_disk = BTreeMap::new();
            write_into(&mut fresh_disk, &mut fresh, FileCounts([0; 3]));
            assert_eq!(
                disk.keys().collect::<Vec<_>>(),
                fresh_disk.keys().collect::<Vec<_>>(),
                "step {step}"
            );
            for (path, bytes) in &fresh_disk {
                assert!(
                    disk[path] == *bytes,
                    "step {step}: {path} differs from a fresh encoding"
                );
            }
            assert_eq!(kept.part, fresh.part, "step {step}: the manifest's part differs");
        }
        let most = small_edit_writes.iter().max().unwrap();
        assert!(*most * 4 < all, "a word added to a page wrote {most} of {all} files");
        assert!(
            kept.grams.len() > buckets_before,
            "the longer pages took more gram buckets"
        );
    }

    #[test]
    fn buckets_hash_utf16_units_with_fnv1a() {
        // The same values as `bucketOf` in ui/src/search/chunked.ts (its test checks these).
        assert_eq!(bucket_of("dis", 1 << 31), 0xea62_b327 % (1 << 31));
        assert_eq!(bucket_of("", 7), 0x811c_9dc5 % 7);
    }
}
