//! The strings a query can look up: a text's n-grams and the items (titles, keywords, routes)
//! of a page, and the bucket each falls in.

use crate::output::search::entries::IndexEntry;
use rustc_hash::FxHashSet;

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
pub(super) fn grams_of<'a>(text: &'a str, into: &mut FxHashSet<&'a str>) {
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
pub(super) fn first_bigram(item: &str) -> Option<&str> {
    let mut ends = item.char_indices().map(|(i, c)| i + c.len_utf8());
    ends.nth(1).map(|end| &item[..end])
}

/// What the page is found by besides its text, lowered as the browser lowers it: title,
/// keywords, route and route segments (also with spaces for hyphens).
pub(super) fn page_items(entry: &IndexEntry) -> Vec<String> {
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
pub(super) fn route_key(route: &str) -> &str {
    route.rsplit('/').find(|s| !s.is_empty()).unwrap_or("home")
}
