//! Keys and the pages that hold them, spread over buckets: the posting lists, their encoding
//! (gaps or a bitmap, whichever is shorter) and the bucket files that hold them.

use super::file::*;
use super::grams::*;
use base64::Engine;
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// Buckets hold about this many bytes up to BUCKETS_AT_BASE buckets, more beyond (`growth`); a
/// query reads one per lookup.
pub(super) const BUCKET_BYTES: usize = 1024;

pub(super) const BUCKETS_AT_BASE: usize = 64;

pub(super) const MAX_BUCKETS: usize = 4096;

/// The length of a base64 bitmap of `pages` bits, quoted.
pub(super) fn bitmap_len(pages: usize) -> usize {
    pages.div_ceil(8).div_ceil(3) * 4 + 2
}

pub(super) fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The gaps between sorted ids, the first id first.
pub(super) fn gaps(ids: &[u32]) -> impl Iterator<Item = u32> + '_ {
    ids.iter().scan(0, |prev, &id| {
        let gap = id - *prev;
        *prev = id;
        Some(gap)
    })
}

/// The length of `ids` as a JSON array of gaps.
pub(super) fn gaps_len(ids: &[u32]) -> usize {
    gaps(ids).map(|g| digits(g) + 1).sum::<usize>() + 1
}

/// A sorted list of page ids: as gaps between ids (JSON numbers), or as a base64 bitmap when
/// that is shorter (a gram most pages hold).
pub(super) fn posting(ids: &[u32], pages: usize) -> Value {
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
pub(super) fn posting_len(ids: &[u32], pages: usize) -> usize {
    match gaps_len(ids) {
        _ if ids.is_empty() => 2,
        len if len <= bitmap_len(pages) => len,
        _ => bitmap_len(pages),
    }
}

/// `id` into the sorted `ids`.
pub(super) fn add_id(ids: &mut Vec<u32>, id: u32) {
    if let Err(at) = ids.binary_search(&id) {
        ids.insert(at, id);
    }
}

pub(super) fn remove_id(ids: &mut Vec<u32>, id: u32) {
    if let Ok(at) = ids.binary_search(&id) {
        ids.remove(at);
    }
}

/// Bucket count for `bytes` of entries, a power of two: about BUCKET_BYTES each on a small
/// site, growing with the site on a large one.
pub(super) fn bucket_count(bytes: usize) -> usize {
    let units = bytes / BUCKET_BYTES;
    let count = (units as f64 / growth(units, BUCKETS_AT_BASE)) as usize;
    count.max(1).next_power_of_two().clamp(1, MAX_BUCKETS)
}

/// What a key of a bucket holds: the pages it is found on.
pub(super) trait Posted: Default {
    fn value(&self, pages: usize) -> Value;
    /// The length of `value` as JSON.
    fn json_len(&self, pages: usize) -> usize;
    fn is_empty(&self) -> bool;
}

/// The pages holding an n-gram: in a title, keyword or route (`meta`), and in the text.
#[derive(Default)]
pub(super) struct GramPages {
    pub(super) meta: Vec<u32>,
    pub(super) text: Vec<u32>,
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
pub(super) struct Table<P> {
    pub(super) entries: FxHashMap<String, P>,
    pub(super) bucket_key: fn(&str) -> &str,
    /// The JSON bytes of the entries, as sized for the bucket count.
    pub(super) bytes: usize,
    pub(super) buckets: Vec<BTreeSet<String>>,
    /// Buckets whose entries changed since they were last serialised.
    pub(super) dirty: BTreeSet<usize>,
}

pub(super) fn whole_key(key: &str) -> &str {
    key
}

pub(super) fn item_bucket_key(item: &str) -> &str {
    first_bigram(item).expect("items have two characters")
}

impl<P: Posted> Table<P> {
    pub(super) fn new(entries: FxHashMap<String, P>, bucket_key: fn(&str) -> &str, pages: usize) -> Self {
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

    pub(super) fn bucket_of(&self, key: &str) -> usize {
        bucket_of((self.bucket_key)(key), self.buckets.len())
    }

    /// Every entry in its bucket for the present size; every bucket dirty.
    pub(super) fn spread(&mut self) {
        self.buckets = vec![BTreeSet::new(); bucket_count(self.bytes)];
        let count = self.buckets.len();
        for key in self.entries.keys() {
            self.buckets[bucket_of((self.bucket_key)(key), count)].insert(key.clone());
        }
        self.dirty = (0..count).collect();
    }

    /// Changes the pages of `key` (an entry with none is dropped).
    pub(super) fn edit(&mut self, key: &str, pages: usize, change: impl FnOnce(&mut P)) {
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
    pub(super) fn settle(&mut self) {
        if bucket_count(self.bytes) != self.buckets.len() {
            self.spread();
        }
    }

    pub(super) fn bucket_bytes(&self, n: usize, pages: usize) -> Vec<u8> {
        let map: serde_json::Map<String, Value> = self.buckets[n]
            .iter()
            .map(|key| (key.clone(), self.entries[key].value(pages)))
            .collect();
        serde_json::to_vec(&Value::Object(map)).expect("the index serialises")
    }

    /// The files of the buckets serialised since they were last written (named `{prefix}N`).
    pub(super) fn refresh(&mut self, prefix: &str, files: &mut Vec<IndexFile>, pages: usize) {
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
pub(super) fn entry_len(key: &str, posted: &impl Posted, pages: usize) -> usize {
    match posted.is_empty() {
        true => 0,
        false => key.len() + posted.json_len(pages) + 4,
    }
}

/// Moves page `id` out of the postings (`ids_of`) of the keys only `old` has, and into those of
/// the keys only `new` has.
pub(super) fn move_id<P: Posted>(
    table: &mut Table<P>,
    (old, new): (FxHashSet<&str>, FxHashSet<&str>),
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
