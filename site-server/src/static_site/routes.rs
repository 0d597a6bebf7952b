//! Which file, if any, answers a request path: direct files, pages in each language, the
//! collections' not-found pages, and the redirect home for any other unknown page path.

use super::files::{Entry, Site};
use poem::http::{HeaderMap, HeaderValue};
use site_contract::FILE_ONLY_ROOTS;
use std::borrow::Cow;

pub enum Resolved<'a> {
    /// A file or page; `negotiated` when its language was chosen from the request headers.
    File {
        entry: &'a Entry,
        negotiated: bool,
    },
    /// A collection's prerendered not-found page, sent with status 404.
    NotFoundPage {
        entry: &'a Entry,
        negotiated: bool,
    },
    NotFound,
    Redirect(&'a HeaderValue),
    /// A page's old URL: a permanent redirect to the page; `negotiated` as for `File`.
    Moved {
        location: &'a HeaderValue,
        negotiated: bool,
    },
    BadRequest,
}

pub fn resolve<'a>(site: &'a Site, raw_path: &str, headers: &HeaderMap) -> Resolved<'a> {
    let Some(path) = decode_path(raw_path) else {
        return Resolved::BadRequest;
    };
    let Some(relative) = path.strip_prefix('/') else {
        return Resolved::BadRequest;
    };

    if !relative.is_empty() && !relative.ends_with('/') {
        if let Some(entry) = site.files.get(relative) {
            return Resolved::File {
                entry,
                negotiated: false,
            };
        }
    }

    let (prefixed, rest) = split_prefix(site, relative);
    let route = rest.trim_end_matches('/');
    let lang = match prefixed {
        Some(lang) => lang,
        None => site_contract::choose(headers, &site.facts.languages, site.default_language),
    };
    let negotiated = prefixed.is_none();
    // A page missing in the chosen language falls back to the default's rather than vanish.
    let pages = &site.pages;
    if let Some(entry) = pages[lang]
        .get(route)
        .or_else(|| pages[site.default_language].get(route))
    {
        return Resolved::File { entry, negotiated };
    }
    if let Some(targets) = site.aliases.get(route) {
        let location = &targets[lang];
        return Resolved::Moved { location, negotiated };
    }

    let (first, tail) = route.split_once('/').unwrap_or((route, ""));
    if !tail.is_empty() {
        let table = &site.not_found_pages;
        if let Some(entry) = table[lang]
            .get(first)
            .or_else(|| table[site.default_language].get(first))
        {
            return Resolved::NotFoundPage { entry, negotiated };
        }
    }
    if prefixed.is_none() && FILE_ONLY_ROOTS.contains(&first) {
        return Resolved::NotFound;
    }
    // A name with an extension asks for a file (`/favicon.ico`), not a page.
    let last = route.rsplit('/').next().unwrap_or(route);
    if last.contains('.') {
        return Resolved::NotFound;
    }
    Resolved::Redirect(&site.home_redirects[prefixed.unwrap_or(site.default_language)])
}

/// `zh/notes/x` → (Some(zh), `notes/x`); `zh` alone is the Chinese home.
fn split_prefix<'p>(site: &Site, relative: &'p str) -> (Option<usize>, &'p str) {
    let (first, rest) = relative.split_once('/').unwrap_or((relative, ""));
    match site.facts.languages.iter().position(|l| l.code == first) {
        Some(i) if i != site.default_language => (Some(i), rest),
        _ => (None, relative),
    }
}

/// Percent-decodes the path and rejects anything that could name a file outside `dist/`
/// or that no file name in `dist/` can match. (The index holds only files under `dist/`, so
/// this is a second wall, not the only one.)
pub fn decode_path(raw: &str) -> Option<Cow<'_, str>> {
    let path: Cow<str> = if raw.contains('%') {
        let bytes = raw.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let hex = bytes.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        Cow::Owned(String::from_utf8(out).ok()?)
    } else {
        Cow::Borrowed(raw)
    };
    let unsafe_segment = path
        .split('/')
        .any(|segment| segment == ".." || segment == "." || segment.contains(['\\', '\0']));
    if unsafe_segment {
        return None;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::decode_path;

    #[test]
    fn rejects_traversal_plain_and_encoded() {
        assert!(decode_path("/../etc/passwd").is_none());
        assert!(decode_path("/assets/%2e%2e/%2e%2e/etc/passwd").is_none());
        assert!(decode_path("/a/..%2f..%2fsecret").is_none());
        assert!(decode_path("/a%5c..%5cb").is_none());
        assert!(decode_path("/bad%zz").is_none());
        assert_eq!(decode_path("/notes/%E7%AD%86").unwrap(), "/notes/筆");
        assert_eq!(decode_path("/a..b/c").unwrap(), "/a..b/c");
    }
}
