//! The files of `dist/` and their formats: writing only what changed with compressed siblings,
//! the UI bundle's manifest, the feeds, the sitemap, the search index, the per-page styles and the files static hosts read.

pub mod aliases;
pub mod assets;
pub mod feed;
pub mod files;
pub mod ledger;
pub mod search;
pub mod sitemap;
pub mod static_host;
pub mod styles;
