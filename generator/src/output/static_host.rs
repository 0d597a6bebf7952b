//! `dist/_headers`: the headers the server sends with each page and file, in the form static
//! hosts read (Netlify, Cloudflare Pages), so `dist/` served without the server keeps its
//! security policy. What the form cannot say (the visitor's language on an unprefixed URL, the
//! API) is in docs/deploy.md, "Pages from object storage or a CDN".

use crate::model::config::SiteConfig;
use anyhow::{Context, Result};
use site_contract::headers::{cache_control, csp, is_content_hashed, page_csp, CACHE_IMMUTABLE, FIXED_HEADERS};
use site_contract::{is_build_record, location, FILE_ONLY_ROOTS};
use std::collections::BTreeSet;
use std::path::Path;
use walkdir::WalkDir;

/// One file of `dist/` as the headers file needs it: its path below `dist/` and whether it is a
/// page, with the page's own CSP (the hashes of its inline scripts and styles) when it has one.
pub struct HostedFile<'a> {
    pub path: &'a str,
    pub page: Option<Option<String>>,
}

impl<'a> HostedFile<'a> {
    /// The file at `path` below `dist`: a page's HTML is read for its CSP, one page at a time,
    /// so a large site's pages are never all in memory at once.
    pub fn read(dist: &Path, path: &'a str, script_hashes: &[String]) -> Result<Self> {
        let page = match path.ends_with(".html") {
            true => {
                let file = dist.join(path);
                let html = std::fs::read(&file).with_context(|| format!("Failed to read {}", file.display()))?;
                Some(page_csp(script_hashes, &html))
            }
            false => None,
        };
        Ok(HostedFile { path, page })
    }
}

/// The headers file: the fixed headers for every path; the site's CSP for the file folders;
/// each page's own CSP and language at every URL it answers; the immutable cache rule for each
/// hashed asset. A header is never set by two rules that match one path: hosts join such values
/// with a comma, which would make two CSPs, both enforced.
pub fn headers_file(config: &SiteConfig, script_hashes: &[String], files: &[HostedFile]) -> String {
    let mut text = String::from(
        "# Made by `site build` (docs/deploy.md, \"Pages from object storage or a CDN\"): the headers\n\
         # `api serve` sends, for a static host that reads this file (Netlify, Cloudflare Pages).\n",
    );
    rule(&mut text, "/*", FIXED_HEADERS.iter().map(|(n, v)| (*n, v.to_string())));
    let site_csp = csp(script_hashes, &[]);
    for root in FILE_ONLY_ROOTS {
        if files.iter().any(|f| f.path.starts_with(&format!("{root}/"))) {
            rule(
                &mut text,
                &format!("/{root}/*"),
                [("Content-Security-Policy", site_csp.clone())],
            );
        }
    }
    for file in files {
        if let Some(page_csp) = &file.page {
            let csp = page_csp.clone().unwrap_or_else(|| site_csp.clone());
            let language = page_language(config, file.path);
            for url in page_urls(file.path) {
                let headers = [
                    ("Content-Security-Policy", csp.clone()),
                    ("Content-Language", language.clone()),
                ];
                rule(&mut text, &location(&url), headers);
            }
        } else if is_content_hashed(file.path) {
            debug_assert_eq!(cache_control(file.path), CACHE_IMMUTABLE);
            rule(
                &mut text,
                &location(&format!("/{}", file.path)),
                [("Cache-Control", CACHE_IMMUTABLE.to_string())],
            );
        }
    }
    text
}

/// The files of `dist/` a static host or a bucket serves, as paths below it (`zh/notes/index.html`),
/// sorted: not the build's records (`_site.json`, this file, ...), hidden files or the
/// precompressed `.gz` and `.br` siblings of another file (a static host compresses itself).
pub fn hosted_files(dist: &Path) -> Result<Vec<String>> {
    let mut paths = BTreeSet::new();
    for entry in WalkDir::new(dist).follow_links(true) {
        let entry = entry.with_context(|| format!("Failed to list {}", dist.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(dist).expect("below its root");
        let Some(path) = relative.to_str().map(|p| p.replace('\\', "/")) else {
            continue;
        };
        if !path.split('/').any(|part| part.starts_with('.')) && !is_build_record(&path) {
            paths.insert(path);
        }
    }
    let siblings: Vec<String> = (paths.iter())
        .filter(|p| {
            [".gz", ".br"]
                .iter()
                .any(|ext| p.strip_suffix(ext).is_some_and(|base| paths.contains(base)))
        })
        .cloned()
        .collect();
    for sibling in siblings {
        paths.remove(&sibling);
    }
    Ok(paths.into_iter().collect())
}

fn rule(text: &mut String, path: &str, headers: impl IntoIterator<Item = (&'static str, String)>) {
    text.push_str(path);
    text.push('\n');
    for (name, value) in headers {
        text.push_str(&format!("  {name}: {value}\n"));
    }
}

/// The URLs a page file answers at on a static host: `notes/x/index.html` at `/notes/x` and
/// `/notes/x/` (hosts differ in which they serve and which they redirect), another `.html` file
/// (a collection's not-found page) at its own path.
fn page_urls(path: &str) -> Vec<String> {
    match path.strip_suffix("index.html") {
        Some("") => vec!["/".into()],
        Some(dir) => {
            let route = format!("/{}", dir.trim_end_matches('/'));
            vec![route.clone(), format!("{route}/")]
        }
        None => vec![format!("/{path}")],
    }
}

/// The `Content-Language` of the page at `path`: its language prefix's tag, else the default's.
fn page_language(config: &SiteConfig, path: &str) -> String {
    let first = path.split('/').next().unwrap_or_default();
    let language = (config.languages.iter())
        .find(|l| l.code == first && path.contains('/'))
        .or_else(|| config.languages.iter().find(|l| l.code == config.default_language));
    language.map(|l| l.tag.clone()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::page_urls;

    #[test]
    fn a_page_answers_with_and_without_its_trailing_slash() {
        assert_eq!(page_urls("index.html"), ["/"]);
        assert_eq!(page_urls("zh/index.html"), ["/zh", "/zh/"]);
        assert_eq!(page_urls("notes/first/index.html"), ["/notes/first", "/notes/first/"]);
        assert_eq!(page_urls("zh/notes/404.html"), ["/zh/notes/404.html"]);
    }
}
