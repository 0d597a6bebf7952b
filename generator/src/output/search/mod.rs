//! The search index: each page's entry, and the n-gram index the search page fetches in chunks.

pub mod chunks;
pub mod entries;
