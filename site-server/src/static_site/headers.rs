//! Security headers for every response, and the caching and content-type policy of files.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use poem::http::header::{
    HeaderName, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use poem::http::{HeaderMap, HeaderValue};
use sha2::{Digest, Sha256};

/// Content-hashed assets never change under their name.
pub const CACHE_IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");
/// Everything else is stored but revalidated with its ETag each time.
pub const CACHE_REVALIDATE: HeaderValue = HeaderValue::from_static("no-cache");

pub const VARY_ENCODING: HeaderValue = HeaderValue::from_static("Accept-Encoding");
pub const VARY_ENCODING_LANGUAGE: HeaderValue = HeaderValue::from_static("Accept-Encoding, Cookie, Accept-Language");
pub const VARY_LANGUAGE: HeaderValue = HeaderValue::from_static("Cookie, Accept-Language");

/// The headers every response carries. The CSP depends on the build (the hashes of the inline head
/// script), so it is made per load of `dist/`; a page's CSP also allows its own inline stylesheet
/// (`for_page`), which differs from page to page.
#[derive(Clone)]
pub struct SecurityHeaders {
    script_src: String,
    csp: HeaderValue,
}

impl SecurityHeaders {
    pub fn new(script_hashes: &[String]) -> Self {
        Self::with_style_src(sources(script_hashes), &[])
    }

    fn with_style_src(script_src: String, style_hashes: &[String]) -> Self {
        let style_src = sources(style_hashes);
        let csp = format!(
            "default-src 'self'; script-src {script_src}; style-src {style_src}; img-src 'self' data: https:; \
             connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; \
             form-action 'self'; frame-ancestors 'none'"
        );
        Self {
            csp: HeaderValue::from_str(&csp).expect("hashes were checked to be header-safe"),
            script_src,
        }
    }

    /// The headers of a page whose `<head>` inlines a stylesheet (the generator writes each page
    /// the rules that match it): its CSP allows that text and no other inline style.
    pub fn for_page(&self, html: &[u8]) -> Option<Self> {
        let style = inline_stylesheet(html)?;
        let hash = format!("sha256-{}", BASE64.encode(Sha256::digest(style.as_bytes())));
        Some(Self::with_style_src(self.script_src.clone(), &[hash]))
    }

    /// Adds the headers, keeping a CSP the response already chose (e.g. the API docs page).
    pub fn apply(&self, headers: &mut HeaderMap) {
        headers
            .entry(CONTENT_SECURITY_POLICY)
            .or_insert_with(|| self.csp.clone());
        for (name, value) in Self::fixed() {
            headers.insert(name, value);
        }
    }

    fn fixed() -> [(HeaderName, HeaderValue); 5] {
        // HSTS depends on PUBLIC_URL, so `startup` adds it when the site is served over https.
        [
            (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            (
                REFERRER_POLICY,
                HeaderValue::from_static("strict-origin-when-cross-origin"),
            ),
            (X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            // The site uses none of these; a page that is somehow made to ask gets no prompt.
            (
                HeaderName::from_static("permissions-policy"),
                HeaderValue::from_static(
                    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
                ),
            ),
            // Windows this site opens, or that open it, cannot reach into each other.
            (
                HeaderName::from_static("cross-origin-opener-policy"),
                HeaderValue::from_static("same-origin"),
            ),
        ]
    }
}

/// The text of the `<style>` element in a page's `<head>`, if it has one.
fn inline_stylesheet(html: &[u8]) -> Option<&str> {
    let html = std::str::from_utf8(html).ok()?;
    let head = &html[..html.find("</head>").unwrap_or(html.len())];
    let start = head.find("<style>")? + "<style>".len();
    let end = start + html[start..].find("</style>")?;
    Some(&html[start..end])
}

/// `'self'` and each hash: the inline elements the build wrote, and no others.
fn sources(hashes: &[String]) -> String {
    let mut list = String::from("'self'");
    for hash in hashes {
        list.push_str(" '");
        list.push_str(hash);
        list.push('\'');
    }
    list
}

/// The `Content-Type` of a file in `dist/`, by its name.
pub fn content_type(path: &str) -> HeaderValue {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let fixed = match ext.as_str() {
        "html" | "htm" => Some("text/html; charset=utf-8"),
        "js" | "mjs" => Some("text/javascript"),
        "json" | "map" => Some("application/json"),
        "css" => Some("text/css; charset=utf-8"),
        "txt" => Some("text/plain; charset=utf-8"),
        "xml" => Some("application/xml; charset=utf-8"),
        "svg" => Some("image/svg+xml"),
        "webmanifest" => Some("application/manifest+json"),
        _ => None,
    };
    if let Some(fixed) = fixed {
        return HeaderValue::from_static(fixed);
    }
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let value = if mime.type_() == mime_guess::mime::TEXT && mime.get_param("charset").is_none() {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

/// Whether a file's name carries its content hash, so it may be cached forever.
/// esbuild names chunks `name-HASH.ext` (8 base32 characters); the generator's search index
/// follows the same shape. Anything in `assets/` without such a suffix (the manifest) is not.
pub fn is_content_hashed(path: &str) -> bool {
    let Some(rest) = path.strip_prefix("assets/") else {
        return false;
    };
    let name = rest.rsplit('/').next().unwrap_or(rest);
    let stem = name.split('.').next().unwrap_or(name);
    match stem.rsplit_once('-') {
        Some((_, hash)) => hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_alphanumeric()),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hashed_asset_names_are_immutable() {
        assert!(is_content_hashed("assets/entry-5XKQ3Z2A.js"));
        assert!(is_content_hashed("assets/chunk-HYW6B6RY.js"));
        assert!(is_content_hashed("assets/entry-PLLIG2FN.css"));
        assert!(is_content_hashed("assets/search-index-0123456789.json"));
        assert!(!is_content_hashed("assets/manifest.json"));
        assert!(!is_content_hashed("assets/entry-short.js"));
        assert!(!is_content_hashed("images/photo-ABCDEFGH.png"));
        assert!(!is_content_hashed("index.html"));
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type("zh/index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("assets/a-X.js"), "text/javascript");
        assert_eq!(content_type("locales/en/translation.json"), "application/json");
        assert_eq!(content_type("images/a.svg"), "image/svg+xml");
        assert_eq!(content_type("robots.txt"), "text/plain; charset=utf-8");
        assert_eq!(content_type("images/a.png"), "image/png");
        assert_eq!(content_type("LICENSE"), "application/octet-stream");
    }

    #[test]
    fn csp_lists_hashes_and_allows_no_other_inline_script_or_style() {
        let mut headers = HeaderMap::new();
        SecurityHeaders::new(&["sha256-abc=".into(), "sha256-def=".into()]).apply(&mut headers);
        let csp = headers[CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("script-src 'self' 'sha256-abc=' 'sha256-def=';"), "{csp}");
        assert!(csp.contains("style-src 'self';"), "{csp}");
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(headers[X_FRAME_OPTIONS], "DENY");
        assert_eq!(headers["cross-origin-opener-policy"], "same-origin");
        assert!(headers["permissions-policy"].to_str().unwrap().contains("camera=()"));
    }

    #[test]
    fn a_page_allows_only_the_stylesheet_in_its_head() {
        let site = SecurityHeaders::new(&["sha256-abc=".into()]);
        let page = b"<html><head><style>a{color:red}</style></head><body><style>b{}</style></body></html>";
        let mut headers = HeaderMap::new();
        site.for_page(page).unwrap().apply(&mut headers);
        let csp = headers[CONTENT_SECURITY_POLICY].to_str().unwrap();
        // `printf 'a{color:red}' | openssl dgst -sha256 -binary | base64`
        assert!(
            csp.contains("style-src 'self' 'sha256-6hWWMOcF+mJesSJGYhmK2lkIIEw9Xc5XKGLPVzh8yxs=';"),
            "{csp}"
        );
        assert!(csp.contains("script-src 'self' 'sha256-abc=';"), "{csp}");
        // A <style> in the body (from a page's own HTML) is not the build's.
        assert!(site
            .for_page(b"<html><head></head><body><style>b{}</style></body></html>")
            .is_none());
        assert!(site.for_page(b"<p>no head").is_none());
    }
}
