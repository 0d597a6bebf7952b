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

use crate::locales::Locales;
use crate::search_index::IndexEntry;
use base64::Engine;
use rayon::prelude::*;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};

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

/// The manifest (`assets/search-index-<hash>.json`) and the files it versions
/// (`assets/search/<lang>/…`).
pub struct SearchFiles {
    pub manifest: SearchFile,
    pub files: Vec<SearchFile>,
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

/// A sorted list of page ids: as gaps between ids (JSON numbers), or as a base64 bitmap when
/// that is shorter (a gram most pages hold).
fn posting(ids: &[u32], pages: usize) -> Value {
    let bitmap_len = pages.div_ceil(8).div_ceil(3) * 4 + 2;
    let mut prev = 0;
    let gaps: Vec<u32> = ids
        .iter()
        .enumerate()
        .map(|(i, &id)| {
            let gap = if i == 0 { id } else { id - prev };
            prev = id;
            gap
        })
        .collect();
    let gaps_len: usize = gaps.iter().map(|g| g.to_string().len() + 1).sum::<usize>() + 1;
    if gaps_len <= bitmap_len {
        return json!(gaps);
    }
    let mut bits = vec![0u8; pages.div_ceil(8)];
    for &id in ids {
        bits[id as usize / 8] |= 1 << (id % 8);
    }
    json!(base64::engine::general_purpose::STANDARD.encode(bits))
}

/// Bucket count for `bytes` of entries: about BUCKET_BYTES each, a power of two.
fn bucket_count(bytes: usize) -> usize {
    (bytes / BUCKET_BYTES).max(1).next_power_of_two().clamp(1, MAX_BUCKETS)
}

/// `entries` spread over buckets by the hash of `key(entry)`.
fn spread(entries: Vec<(String, Value)>, key: impl Fn(&str) -> &str) -> Vec<serde_json::Map<String, Value>> {
    let bytes: usize = entries.iter().map(|(g, v)| g.len() + v.to_string().len() + 4).sum();
    let mut maps = vec![serde_json::Map::new(); bucket_count(bytes)];
    let count = maps.len();
    for (name, value) in entries {
        maps[bucket_of(key(&name), count)].insert(name, value);
    }
    maps
}

/// Which pages hold each n-gram: in a title, keyword or route (`meta`) and in the text; and which
/// pages hold each whole item (title, keyword, route) a longer query may contain.
struct Postings<'e> {
    meta: HashMap<&'e str, Vec<u32>>,
    text: HashMap<&'e str, Vec<u32>>,
    items: BTreeMap<String, Vec<u32>>,
}

fn postings<'e>(items: &'e [Vec<String>], texts: &'e [String]) -> Postings<'e> {
    let mut p = Postings {
        meta: HashMap::new(),
        text: HashMap::new(),
        items: BTreeMap::new(),
    };
    for (id, (page_items, text)) in items.iter().zip(texts).enumerate() {
        let id = id as u32;
        let mut meta = HashSet::new();
        for item in page_items {
            grams_of(item, &mut meta);
            if first_bigram(item).is_some() {
                let ids = p.items.entry(item.clone()).or_default();
                if ids.last() != Some(&id) {
                    ids.push(id);
                }
            }
        }
        let mut in_text = HashSet::new();
        grams_of(text, &mut in_text);
        for gram in meta {
            p.meta.entry(gram).or_default().push(id);
        }
        for gram in in_text {
            p.text.entry(gram).or_default().push(id);
        }
    }
    p
}

/// Buckets named `{prefix}0`, `{prefix}1`, ..., and how many there are.
fn named(prefix: &str, buckets: Vec<serde_json::Map<String, Value>>, out: &mut Vec<(String, Value)>) -> usize {
    let count = buckets.len();
    out.extend(
        buckets
            .into_iter()
            .enumerate()
            .map(|(n, b)| (format!("{prefix}{n}"), Value::Object(b))),
    );
    count
}

/// Page chunks of `per` pages each, `[[order, route, url, title, text, keywords], ...]`, and `per`.
fn page_chunks(entries: &[(usize, &IndexEntry)], out: &mut Vec<(String, Value)>) -> usize {
    let records: Vec<Value> = entries
        .iter()
        .map(|(order, e)| json!([order, e.route, e.url, e.title, e.text, e.keywords]))
        .collect();
    let bytes: usize = records.iter().map(|r| r.to_string().len()).sum();
    let per = (CHUNK_BYTES * entries.len() / bytes.max(1)).clamp(1, MAX_PAGES_PER_CHUNK);
    out.extend(
        records
            .chunks(per)
            .enumerate()
            .map(|(n, c)| (format!("p{n}"), json!(c))),
    );
    per
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

/// One language's files and its part of the manifest.
fn language_files(lang: &str, entries: &[(usize, &IndexEntry)], locales: &Locales) -> (Vec<SearchFile>, Value) {
    let pages = entries.len();
    let items: Vec<Vec<String>> = entries.iter().map(|(_, e)| page_items(e)).collect();
    let texts: Vec<String> = entries.iter().map(|(_, e)| e.text.to_lowercase()).collect();
    let ids = postings(&items, &texts);
    let mut out: Vec<(String, Value)> = Vec::new();

    // gram -> [pages holding it in a title/keyword/route, pages holding it in the text]
    let grams: HashSet<&str> = ids.meta.keys().chain(ids.text.keys()).copied().collect();
    let mut gram_entries: Vec<(String, Value)> = grams
        .into_iter()
        .map(|g| {
            let meta = posting(ids.meta.get(g).map(Vec::as_slice).unwrap_or(&[]), pages);
            let text = posting(ids.text.get(g).map(Vec::as_slice).unwrap_or(&[]), pages);
            (g.to_string(), json!([meta, text]))
        })
        .collect();
    gram_entries.sort_by(|a, b| a.0.cmp(&b.0));
    let gram_count = named("g", spread(gram_entries, |g| g), &mut out);
    let item_entries: Vec<(String, Value)> = ids
        .items
        .into_iter()
        .map(|(i, ids)| (i, posting(&ids, pages)))
        .collect();
    let item_buckets = spread(item_entries, |i| first_bigram(i).expect("items have two characters"));
    let item_count = named("i", item_buckets, &mut out);
    let per = page_chunks(entries, &mut out);
    let vocab: Vec<Value> = entries
        .iter()
        .map(|(_, e)| json!([e.route, e.title, e.keywords]))
        .collect();
    out.push(("v".to_string(), json!(vocab)));
    let keys = route_keys(lang, entries, locales);

    let mut version = Sha256::new();
    let mut files = Vec::with_capacity(out.len());
    for (name, value) in out {
        let bytes = serde_json::to_vec(&value).expect("the index serialises");
        version.update(name.as_bytes());
        version.update(&bytes);
        files.push(SearchFile {
            path: format!("search/{lang}/{name}.json"),
            bytes,
        });
    }
    let version = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(version.finalize());
    let manifest = json!({
        "v": &version[..8], "pages": pages, "per": per, "grams": gram_count, "items": item_count, "keys": keys,
    });
    (files, manifest)
}

/// The index files for `entries` (every page of every language, in index order).
pub fn encode(entries: &[IndexEntry], languages: &[String], locales: &Locales) -> SearchFiles {
    // Languages are independent: each is encoded on a core of its own.
    let encoded: Vec<LanguageIndex> = languages
        .par_iter()
        .map(|lang| LanguageIndex::encode(entries, lang, locales))
        .collect();
    let manifest = manifest(&encoded);
    let files = encoded.into_iter().flat_map(|l| l.files).collect();
    SearchFiles { manifest, files }
}

/// One language's files and its part of the manifest: `site watch` encodes again only the
/// languages whose entries an edit changed.
pub struct LanguageIndex {
    pub lang: String,
    pub files: Vec<SearchFile>,
    part: Value,
}

impl LanguageIndex {
    /// The files of the entries of `lang` among `entries` (every language's, in index order).
    pub fn encode(entries: &[IndexEntry], lang: &str, locales: &Locales) -> Self {
        let mine: Vec<(usize, &IndexEntry)> = entries.iter().enumerate().filter(|(_, e)| e.lang == lang).collect();
        let (files, part) = language_files(lang, &mine, locales);
        LanguageIndex {
            lang: lang.to_string(),
            files,
            part,
        }
    }
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

    #[test]
    fn buckets_hash_utf16_units_with_fnv1a() {
        // The same values as `bucketOf` in ui/src/search/chunked.ts (its test checks these).
        assert_eq!(bucket_of("dis", 1 << 31), 0xea62_b327 % (1 << 31));
        assert_eq!(bucket_of("", 7), 0x811c_9dc5 % 7);
    }
}
