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
//!
//! The maps and sets of n-grams and items hash with `rustc_hash` (Fx) rather than SipHash: a
//! large site has hundreds of thousands of short keys, none chosen by a client, and SipHash was
//! about 5% of a cold build's CPU.

pub mod entries;
mod file;
mod grams;
mod language;
mod postings;
mod table;
#[cfg(test)]
mod tests;

pub use language::{manifest, LanguageIndex, SearchFile};
