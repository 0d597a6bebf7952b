//! The files of `dist/` and their formats: writing only what changed with compressed siblings,
//! the UI bundle's manifest, the feeds, the sitemap, the search index and the per-page styles.

pub mod aliases;
pub mod assets;
pub mod feed;
pub mod files;
pub mod ledger;
pub mod search;
pub mod sitemap;
pub mod styles;
