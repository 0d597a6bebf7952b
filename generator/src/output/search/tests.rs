use super::grams::*;
use super::language::*;
use super::table::*;
use crate::model::locales::Locales;
use crate::output::search::entries::IndexEntry;
use base64::Engine;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

#[test]
fn grams_are_the_substrings_of_one_to_three_characters() {
    let mut grams = rustc_hash::FxHashSet::default();
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

/// Step `step`'s edit of the page `current` (the `order`th entry): a word added to its text for
/// the first 16 steps, then thousands of rare characters.
fn edit_for_step(step: usize, current: &IndexEntry, order: usize, seed: &mut u64) -> IndexEntry {
    let edited = match step {
        0..16 => IndexEntry {
            text: format!("{} quokka{step}", current.text),
            ..made_up_entry("en", order / 2, &mut { 0 }, 1)
        },
        // Rare characters: thousands of grams no other page holds.
        _ => IndexEntry {
            text: (0..900)
                .map(|n| char::from_u32(0x4e00 + ((n * 7919 + step * 104_729) % 6000) as u32).unwrap())
                .collect(),
            ..made_up_entry("en", order / 2, seed, 60)
        },
    };
    IndexEntry {
        title: if step < 16 { current.title.clone() } else { edited.title },
        keywords: if step < 16 {
            current.keywords.clone()
        } else {
            edited.keywords
        },
        ..edited
    }
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
        let edited = edit_for_step(step, &entries[order], order, &mut seed);
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

#[test]
fn a_large_index_gets_fewer_larger_files_and_a_small_one_kilobyte_buckets() {
    use super::table::{bucket_count, BUCKET_BYTES};
    // A small site: a bucket per KB of entries, as a query reads one bucket per lookup.
    assert_eq!(bucket_count(48 * BUCKET_BYTES), 64);
    assert_eq!(bucket_count(3 * BUCKET_BYTES), 4);
    // 4 MB of entries (some 10,000 pages): hundreds of buckets of several KB, not 4,096 of 1 KB.
    let large = bucket_count(4096 * BUCKET_BYTES);
    assert!((256..=512).contains(&large), "{large} buckets");
    // Chunks grow the same way past their base count.
    assert_eq!(super::file::growth(100, 128), 1.0);
    assert_eq!(super::file::growth(128 * 16, 128), 4.0);
}
