//! Where things live in `dist/` and under which URL.

use crate::{ALIASES_NGINX_FILE, HEADERS_FILE, REDIRECTS_FILE, SITE_FACTS_FILE};
use std::path::PathBuf;

/// Top-level paths that hold files, never pages: links there are not language-prefixed, and a
/// miss there must not become an HTML page (a missing chunk should fail as a chunk load error).
pub const FILE_ONLY_ROOTS: [&str; 5] = ["api", "assets", "images", "locales", "__dev"];

/// The page a collection answers for an entry it does not have, in each language's copy of the
/// collection (`notes/404.html`, `zh/notes/404.html`). The generator writes one for every
/// collection with a `not_found_key` in site-config.yaml; the server serves whichever it finds.
pub const NOT_FOUND_FILE: &str = "404.html";

/// Whether the file at `path` (relative to `dist/`) is what the generator leaves for the server,
/// nginx or a static host rather than for visitors: never served, never published.
pub fn is_build_record(path: &str) -> bool {
    [SITE_FACTS_FILE, ALIASES_NGINX_FILE, HEADERS_FILE, REDIRECTS_FILE].contains(&path)
}

/// Whether the URL path `url` (`/assets/x.js`) is under one of the [`FILE_ONLY_ROOTS`].
pub fn is_file_path(url: &str) -> bool {
    let Some(rest) = url.strip_prefix('/') else {
        return false;
    };
    matches!(rest.split_once('/'), Some((first, _)) if FILE_ONLY_ROOTS.contains(&first))
}

/// Where a page of `url` lives below `dist/`: `/zh/notes` is `zh/notes/index.html`.
pub fn page_file(url: &str) -> PathBuf {
    let trimmed = url.trim_matches('/');
    if trimmed.is_empty() {
        PathBuf::from("index.html")
    } else {
        PathBuf::from(trimmed).join("index.html")
    }
}

/// Where the not-found page of the collection at `url` (`/zh/notes`) lives below `dist/`.
pub fn not_found_file(url: &str) -> PathBuf {
    page_file(url).with_file_name(NOT_FOUND_FILE)
}

/// `/notes` in `zh` is `/zh/notes`; the home page `/` in `zh` is `/zh/`.
pub fn localized_path(route: &str, lang: &str, default_language: &str) -> String {
    if lang == default_language {
        route.to_string()
    } else if route == "/" {
        format!("/{lang}/")
    } else {
        format!("/{lang}{route}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_live_in_index_files() {
        assert_eq!(page_file("/"), PathBuf::from("index.html"));
        assert_eq!(page_file("/zh/"), PathBuf::from("zh/index.html"));
        assert_eq!(
            page_file("/ja/notes/liquidity-risk"),
            PathBuf::from("ja/notes/liquidity-risk/index.html")
        );
        assert_eq!(not_found_file("/zh/notes"), PathBuf::from("zh/notes/404.html"));
    }

    #[test]
    fn file_roots_are_files_and_pages_are_not() {
        assert!(is_file_path("/assets/entry-X.js"));
        assert!(is_file_path("/images/me.svg"));
        assert!(is_file_path("/api/denglu"));
        assert!(!is_file_path("/notes/assets"));
        assert!(!is_file_path("/assetsx/y"));
        assert!(!is_file_path("https://example.com/assets/x"));
    }

    #[test]
    fn other_languages_get_a_prefix() {
        assert_eq!(localized_path("/notes", "en", "en"), "/notes");
        assert_eq!(localized_path("/notes", "zh", "en"), "/zh/notes");
        assert_eq!(localized_path("/", "ja", "en"), "/ja/");
    }
}
