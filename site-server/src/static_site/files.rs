//! The in-memory copy of `dist/`: every file with its precompressed siblings and the complete
//! response headers of each representation, computed once at load.

use super::encoding::Encoding;
use super::headers::{self, SecurityHeaders};
use anyhow::Context;
use bytes::Bytes;
use poem::http::header::{CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LANGUAGE, CONTENT_TYPE, ETAG, VARY};
use poem::http::{HeaderMap, HeaderValue};
use sha2::{Digest, Sha256};
use site_contract::{is_build_record, SiteFacts, NOT_FOUND_FILE};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

/// One stored representation of a file.
pub struct Variant {
    pub body: Bytes,
    pub etag: HeaderValue,
    /// Headers when the file is served at its own URL.
    pub headers: HeaderMap,
    /// Headers when a page is served at an unprefixed URL in the visitor's language: the
    /// response also depends on the cookie and `Accept-Language`.
    pub negotiated_headers: HeaderMap,
}

pub struct Entry {
    pub identity: Variant,
    pub gzip: Option<Variant>,
    pub brotli: Option<Variant>,
}

impl Entry {
    pub fn variant(&self, encoding: Encoding) -> &Variant {
        match encoding {
            Encoding::Brotli => self.brotli.as_ref().unwrap_or(&self.identity),
            Encoding::Gzip => self.gzip.as_ref().unwrap_or(&self.identity),
            Encoding::Identity => &self.identity,
        }
    }
}

/// The query of the redirect home from an unknown page path.
pub const NOT_FOUND_FLAG: &str = "not-found=1";

/// One load of `dist/`.
#[derive(Clone)]
pub struct Site {
    pub facts: SiteFacts,
    pub default_language: usize,
    /// Files by their path relative to `dist/` (`assets/entry-X.js`, `zh/notes/index.html`).
    pub files: HashMap<Box<str>, Arc<Entry>>,
    /// Per language (index into `facts.languages`): page route without slashes
    /// (`""` for home, `notes/liquidity-risk`) to its `index.html`.
    pub pages: Vec<HashMap<Box<str>, Arc<Entry>>>,
    /// Per language: collection (`notes`) to its `404.html`, for its unknown entries (other
    /// unknown page paths redirect home).
    pub not_found_pages: Vec<HashMap<Box<str>, Arc<Entry>>>,
    /// Per language: where an unknown page path goes (`/?not-found=1`, `/zh/?not-found=1`).
    pub home_redirects: Vec<HeaderValue>,
    /// A page's old URL (`aliases:`), without slashes like `pages`, to its page's URL in each
    /// language (`/notes/new`, `/zh/notes/new`).
    pub aliases: HashMap<Box<str>, Vec<HeaderValue>>,
    pub security: SecurityHeaders,
    /// Changes whenever any file changes; lets a reconnecting dev page notice a rebuild.
    pub build_id: String,
}

impl Site {
    pub fn load(dist_dir: &Path) -> anyhow::Result<Site> {
        let facts = SiteFacts::load(dist_dir)?;
        let default_language = facts.default_index().expect("validated by SiteFacts::load");
        let security = SecurityHeaders::new(&facts.script_hashes);

        let paths = list_files(dist_dir)?;
        let mut files: HashMap<Box<str>, Arc<Entry>> = HashMap::with_capacity(paths.len());
        for path in &paths {
            if is_sibling(path, &paths) || is_build_record(path) {
                continue;
            }
            let entry = load_entry(dist_dir, path, &paths, &facts, default_language, &security)?;
            files.insert(path.as_str().into(), Arc::new(entry));
        }
        Ok(Site::assemble(facts, default_language, files, security))
    }

    /// This load with the files of `changed` (paths relative to `dist/`, siblings included) read
    /// again or dropped when gone: what `make dev` needs after a one-page rebuild, which would
    /// otherwise read every file of a large site again. `_site.json` changing needs `load`.
    pub fn with_changes(&self, dist_dir: &Path, changed: &BTreeSet<String>) -> anyhow::Result<Site> {
        let mut site = self.clone();
        // The id of this load: the last one's and what changed. Another id than a whole load of
        // the same files would get, but it changes when any file does, which is what it is for.
        let mut build_hash = Sha256::new();
        build_hash.update(self.build_id.as_bytes());
        let mut any = false;
        let originals: BTreeSet<&str> = changed
            .iter()
            .map(|p| p.strip_suffix(".gz").or_else(|| p.strip_suffix(".br")).unwrap_or(p))
            .collect();
        for path in originals.into_iter().filter(|p| !is_build_record(p)) {
            if !dist_dir.join(path).is_file() {
                if site.files.remove(path).is_some() {
                    site.unplace(path);
                    build_hash.update(path.as_bytes());
                    any = true;
                }
                continue;
            }
            let paths: BTreeSet<String> = ["", ".gz", ".br"]
                .iter()
                .map(|ext| format!("{path}{ext}"))
                .filter(|p| dist_dir.join(p).is_file())
                .collect();
            let entry = Arc::new(load_entry(
                dist_dir,
                path,
                &paths,
                &self.facts,
                self.default_language,
                &self.security,
            )?);
            if self.files.get(path).map(|e| &e.identity.etag) != Some(&entry.identity.etag) {
                build_hash.update(path.as_bytes());
                build_hash.update(entry.identity.etag.as_bytes());
                any = true;
            }
            site.place(path, &entry);
            site.files.insert(path.into(), entry);
        }
        if any {
            site.build_id = hex::encode(&build_hash.finalize()[..12]);
        }
        Ok(site)
    }

    /// The lookups by language and the build id of a load's files.
    fn assemble(
        facts: SiteFacts,
        default_language: usize,
        files: HashMap<Box<str>, Arc<Entry>>,
        security: SecurityHeaders,
    ) -> Site {
        let mut build_hash = Sha256::new();
        let mut sorted: Vec<(&Box<str>, &Arc<Entry>)> = files.iter().collect();
        sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        for (path, entry) in sorted {
            build_hash.update(path.as_bytes());
            build_hash.update(entry.identity.etag.as_bytes());
        }
        let languages = facts.languages.len();
        let home_redirects = (facts.languages.iter())
            .enumerate()
            .map(|(i, l)| {
                // The flag makes the home page say, once, that the page asked for was not found
                // (the UI's head script reads it: `ui/src/lib/notFound.ts`).
                let target = if i == default_language {
                    format!("/?{NOT_FOUND_FLAG}")
                } else {
                    format!("/{}/?{NOT_FOUND_FLAG}", l.code)
                };
                HeaderValue::from_str(&target).expect("language codes are plain")
            })
            .collect();
        let aliases = aliases(&facts);
        let mut site = Site {
            aliases,
            build_id: hex::encode(&build_hash.finalize()[..12]),
            facts,
            default_language,
            files: HashMap::new(),
            pages: vec![HashMap::new(); languages],
            not_found_pages: vec![HashMap::new(); languages],
            home_redirects,
            security,
        };
        for (path, entry) in &files {
            site.place(path, entry);
        }
        site.files = files;
        site
    }

    /// Where the file at `path` is found besides its path: the page of a route, a collection's
    /// not-found page.
    fn place(&mut self, path: &str, entry: &Arc<Entry>) {
        let (lang, rest) = split_language(path, &self.facts, self.default_language);
        if let Some(route) = page_route(rest) {
            self.pages[lang].insert(route.into(), entry.clone());
        }
        if let Some((collection, NOT_FOUND_FILE)) = rest.split_once('/') {
            self.not_found_pages[lang].insert(collection.into(), entry.clone());
        }
    }

    fn unplace(&mut self, path: &str) {
        let (lang, rest) = split_language(path, &self.facts, self.default_language);
        if let Some(route) = page_route(rest) {
            self.pages[lang].remove(route);
        }
        if let Some((collection, NOT_FOUND_FILE)) = rest.split_once('/') {
            self.not_found_pages[lang].remove(collection);
        }
    }
}

/// Each alias (no slashes) with its page's URL in each language.
fn aliases(facts: &SiteFacts) -> HashMap<Box<str>, Vec<HeaderValue>> {
    let default = &facts.default_language;
    (facts.aliases.iter())
        .map(|alias| {
            let targets = (facts.languages.iter())
                .map(|l| site_contract::location(&site_contract::localized_path(&alias.route, &l.code, default)))
                .map(|url| HeaderValue::from_str(&url).expect("a plain path, percent-encoded"))
                .collect();
            (alias.from.trim_matches('/').into(), targets)
        })
        .collect()
}

/// The route (no slashes) whose page is the file at `rest` (a path without its language).
fn page_route(rest: &str) -> Option<&str> {
    let route = rest.strip_suffix("index.html")?;
    (route.is_empty() || route.ends_with('/')).then(|| route.trim_end_matches('/'))
}

/// Splits `zh/notes/index.html` into (index of `zh`, `notes/index.html`); unprefixed paths
/// belong to the default language.
pub fn split_language<'a>(path: &'a str, facts: &SiteFacts, default: usize) -> (usize, &'a str) {
    let (first, rest) = path.split_once('/').unwrap_or((path, ""));
    match facts.languages.iter().position(|l| l.code == first) {
        Some(i) if i != default => (i, rest),
        _ => (default, path),
    }
}

fn list_files(dist_dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let mut paths = BTreeSet::new();
    for item in walkdir::WalkDir::new(dist_dir).follow_links(true) {
        let item = item.with_context(|| format!("listing {}", dist_dir.display()))?;
        if !item.file_type().is_file() {
            continue;
        }
        let relative = item
            .path()
            .strip_prefix(dist_dir)
            .expect("walkdir stays under its root");
        let mut key = String::new();
        let mut hidden = false;
        for part in relative.components() {
            // Non-UTF-8 names cannot be requested by a URL we would build anyway.
            let Some(part) = part.as_os_str().to_str() else {
                hidden = true;
                break;
            };
            hidden |= part.starts_with('.');
            if !key.is_empty() {
                key.push('/');
            }
            key.push_str(part);
        }
        if !hidden {
            paths.insert(key);
        }
    }
    Ok(paths)
}

/// `x.gz` / `x.br` are representations of `x` when `x` exists, not files of their own.
fn is_sibling(path: &str, paths: &BTreeSet<String>) -> bool {
    [".gz", ".br"]
        .iter()
        .any(|suffix| path.strip_suffix(suffix).is_some_and(|base| paths.contains(base)))
}

fn load_entry(
    dist_dir: &Path,
    path: &str,
    paths: &BTreeSet<String>,
    facts: &SiteFacts,
    default_language: usize,
    security: &SecurityHeaders,
) -> anyhow::Result<Entry> {
    let read = |p: &str| {
        std::fs::read(dist_dir.join(p))
            .map(Bytes::from)
            .with_context(|| format!("reading {}", dist_dir.join(p).display()))
    };
    let body = read(path)?;
    let hash = Sha256::digest(&body);
    let hash = hex::encode(&hash[..16]);

    let has_siblings = [Encoding::Gzip, Encoding::Brotli]
        .iter()
        .any(|e| paths.contains(&format!("{path}{}", e.sibling_suffix())));
    let is_html = path.ends_with(".html");
    let page_security = if is_html { security.for_page(&body) } else { None };
    let common = CommonHeaders {
        content_type: headers::content_type(path),
        cache_control: headers::cache_control(path),
        content_language: is_html.then(|| {
            let (lang, _) = split_language(path, facts, default_language);
            HeaderValue::from_str(&facts.languages[lang].tag).unwrap_or(HeaderValue::from_static("en"))
        }),
        has_siblings,
        security: page_security.as_ref().unwrap_or(security),
    };

    let variant = |encoding: Encoding, body: Bytes| -> Variant {
        // A strong ETag names one representation, so each encoding gets its own.
        let etag = match encoding {
            Encoding::Identity => format!("\"{hash}\""),
            Encoding::Gzip => format!("\"{hash}-gz\""),
            Encoding::Brotli => format!("\"{hash}-br\""),
        };
        let etag = HeaderValue::from_str(&etag).expect("hex is header-safe");
        common.variant(encoding, body, etag)
    };
    let identity = variant(Encoding::Identity, body);
    let sibling = |encoding: Encoding| -> anyhow::Result<Option<Variant>> {
        let sibling_path = format!("{path}{}", encoding.sibling_suffix());
        if !paths.contains(&sibling_path) {
            return Ok(None);
        }
        Ok(Some(variant(encoding, read(&sibling_path)?)))
    };
    let gzip = sibling(Encoding::Gzip)?;
    let brotli = sibling(Encoding::Brotli)?;
    Ok(Entry { identity, gzip, brotli })
}

struct CommonHeaders<'a> {
    content_type: HeaderValue,
    cache_control: HeaderValue,
    content_language: Option<HeaderValue>,
    has_siblings: bool,
    security: &'a SecurityHeaders,
}

impl CommonHeaders<'_> {
    fn variant(&self, encoding: Encoding, body: Bytes, etag: HeaderValue) -> Variant {
        let mut headers = HeaderMap::with_capacity(12);
        headers.insert(CONTENT_TYPE, self.content_type.clone());
        headers.insert(CACHE_CONTROL, self.cache_control.clone());
        headers.insert(ETAG, etag.clone());
        if let Some(value) = encoding.header_value() {
            headers.insert(CONTENT_ENCODING, value);
        }
        if let Some(value) = &self.content_language {
            headers.insert(CONTENT_LANGUAGE, value.clone());
        }
        self.security.apply(&mut headers);
        let mut negotiated_headers = headers.clone();
        if self.has_siblings {
            headers.insert(VARY, headers::VARY_ENCODING);
            negotiated_headers.insert(VARY, headers::VARY_ENCODING_LANGUAGE);
        } else {
            negotiated_headers.insert(VARY, headers::VARY_LANGUAGE);
        }
        Variant {
            body,
            etag,
            headers,
            negotiated_headers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use site_contract::SITE_FACTS_FILE;
    use std::collections::BTreeMap;

    fn write(dist: &Path, path: &str, text: &str) {
        let file = dist.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }

    /// Every file's etag, and the routes of the pages and not-found pages by language.
    type Lookups = (BTreeMap<String, String>, Vec<BTreeSet<String>>, Vec<BTreeSet<String>>);

    /// What a request can reach.
    fn lookups(site: &Site) -> Lookups {
        let etags = (site.files.iter())
            .map(|(path, entry)| (path.to_string(), format!("{:?}", entry.identity.etag)))
            .collect();
        let keys = |maps: &[HashMap<Box<str>, Arc<Entry>>]| -> Vec<BTreeSet<String>> {
            maps.iter().map(|m| m.keys().map(|k| k.to_string()).collect()).collect()
        };
        (etags, keys(&site.pages), keys(&site.not_found_pages))
    }

    #[test]
    fn reading_the_changed_files_again_equals_loading_every_file() {
        let root = tempfile::tempdir().unwrap();
        let dist = root.path();
        let facts = r#"{"languages": [{"code":"en","tag":"en"},{"code":"zh","tag":"zh-Hant"}],
            "default_language": "en", "script_hashes": [], "dev": true}"#;
        write(dist, SITE_FACTS_FILE, facts);
        for page in [
            "index.html",
            "about/index.html",
            "notes/index.html",
            "notes/404.html",
            "zh/notes/404.html",
        ] {
            write(dist, page, &format!("<p>{page}</p>"));
        }
        let before = Site::load(dist).unwrap();

        write(dist, "about/index.html", "<p>about, edited</p>");
        write(dist, "zh/tools/index.html", "<p>tools</p>");
        std::fs::remove_file(dist.join("notes/404.html")).unwrap();
        std::fs::remove_file(dist.join("notes/index.html")).unwrap();
        let changed: BTreeSet<String> = [
            "about/index.html",
            "zh/tools/index.html",
            "notes/404.html",
            "notes/index.html",
        ]
        .map(String::from)
        .into();
        let patched = before.with_changes(dist, &changed).unwrap();
        assert_eq!(lookups(&patched), lookups(&Site::load(dist).unwrap()));
        assert_ne!(patched.build_id, before.build_id, "open pages must learn of the change");
        assert!(patched.pages[1].contains_key("tools") && !patched.pages[0].contains_key("notes"));

        // Files written again with the same bytes: nothing for open pages to reload.
        let same = patched.with_changes(dist, &["index.html".to_string()].into()).unwrap();
        assert_eq!(same.build_id, patched.build_id);
    }
}
