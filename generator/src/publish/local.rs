//! The files of `dist/` as a bucket stores them: each with its key, its MD5 (what S3 reports
//! as the ETag of an object uploaded whole) and the headers the bucket serves it with.

use crate::output::static_host::hosted_files;
use anyhow::{Context, Result};
use md5::{Digest, Md5};
use site_contract::headers::{cache_control, content_type, CACHE_IMMUTABLE};
use site_contract::SiteFacts;
use std::path::Path;

/// Everything but a hashed asset is revalidated. The server says `no-cache`; in front of a
/// bucket stands a CDN, a shared cache, which this lets store a copy it revalidates.
pub const CACHE_REVALIDATE_SHARED: &str = "public, max-age=0, must-revalidate";

pub struct LocalFile {
    /// The path below `dist/` (`zh/notes/index.html`).
    pub path: String,
    pub bytes: Vec<u8>,
    pub md5: String,
    pub content_type: String,
    pub cache_control: &'static str,
    /// A page's language tag, as the server's `Content-Language`.
    pub content_language: Option<String>,
}

impl LocalFile {
    pub fn is_page(&self) -> bool {
        self.path.ends_with(".html")
    }
}

/// Every file of `dist/` a bucket serves: not the build's records (`_site.json`, `_headers`,
/// ...) nor the precompressed `.gz` and `.br` siblings, since a bucket cannot choose between
/// representations by `Accept-Encoding` (the CDN in front compresses).
pub fn local_files(dist: &Path) -> Result<Vec<LocalFile>> {
    let facts = SiteFacts::load(dist)?;
    let default = facts.default_index().expect("validated by SiteFacts::load");
    let mut files = Vec::new();
    for path in hosted_files(dist)? {
        let bytes =
            std::fs::read(dist.join(&path)).with_context(|| format!("reading {}", dist.join(&path).display()))?;
        let content_language = path.ends_with(".html").then(|| {
            let first = path.split_once('/').map(|(first, _)| first).unwrap_or_default();
            let lang = (facts.languages.iter())
                .find(|l| l.code == first)
                .unwrap_or(&facts.languages[default]);
            lang.tag.clone()
        });
        files.push(LocalFile {
            md5: hex(&Md5::digest(&bytes)),
            content_type: content_type(&path),
            cache_control: match cache_control(&path) {
                CACHE_IMMUTABLE => CACHE_IMMUTABLE,
                _ => CACHE_REVALIDATE_SHARED,
            },
            content_language,
            path,
            bytes,
        });
    }
    Ok(files)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
