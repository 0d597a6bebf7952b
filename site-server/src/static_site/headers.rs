//! Security headers for every response, and the caching and content-type policy of files, as
//! header values; the policy itself is the site contract's (`site_contract::headers`), which the
//! generator also writes for static hosts.

use poem::http::header::{HeaderName, CONTENT_SECURITY_POLICY};
use poem::http::{HeaderMap, HeaderValue};
use site_contract::headers as policy;

pub const VARY_ENCODING: HeaderValue = HeaderValue::from_static("Accept-Encoding");
pub const VARY_ENCODING_LANGUAGE: HeaderValue = HeaderValue::from_static("Accept-Encoding, Cookie, Accept-Language");
pub const VARY_LANGUAGE: HeaderValue = HeaderValue::from_static("Cookie, Accept-Language");

/// The headers every response carries. The CSP depends on the build (the hashes of the inline head
/// script), so it is made per load of `dist/`; a page's CSP also allows its own inline stylesheet
/// (`for_page`), which differs from page to page.
#[derive(Clone)]
pub struct SecurityHeaders {
    script_hashes: Vec<String>,
    csp: HeaderValue,
}

impl SecurityHeaders {
    pub fn new(script_hashes: &[String]) -> Self {
        Self::with_csp(script_hashes.to_vec(), policy::csp(script_hashes, &[]))
    }

    fn with_csp(script_hashes: Vec<String>, csp: String) -> Self {
        Self {
            csp: HeaderValue::from_str(&csp).expect("hashes were checked to be header-safe"),
            script_hashes,
        }
    }

    /// The headers of a page whose `<head>` inlines a stylesheet: its CSP allows that text and
    /// no other inline style.
    pub fn for_page(&self, html: &[u8]) -> Option<Self> {
        let csp = policy::page_csp(&self.script_hashes, html)?;
        Some(Self::with_csp(self.script_hashes.clone(), csp))
    }

    /// Adds the headers, keeping a CSP the response already chose (e.g. the API docs page).
    pub fn apply(&self, headers: &mut HeaderMap) {
        headers
            .entry(CONTENT_SECURITY_POLICY)
            .or_insert_with(|| self.csp.clone());
        for (name, value) in policy::FIXED_HEADERS {
            let name = HeaderName::from_bytes(name.to_ascii_lowercase().as_bytes()).expect("a header name");
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
}

/// The `Content-Type` of a file in `dist/`, by its name.
pub fn content_type(path: &str) -> HeaderValue {
    HeaderValue::from_str(&policy::content_type(path)).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

/// The `Cache-Control` of a file in `dist/`: immutable when its name carries its content hash.
pub fn cache_control(path: &str) -> HeaderValue {
    HeaderValue::from_static(policy::cache_control(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use poem::http::header::X_FRAME_OPTIONS;

    #[test]
    fn every_response_gets_the_csp_and_the_fixed_headers() {
        let mut headers = HeaderMap::new();
        SecurityHeaders::new(&["sha256-abc=".into()]).apply(&mut headers);
        let csp = headers[CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("script-src 'self' 'sha256-abc=';"), "{csp}");
        assert!(csp.contains("style-src 'self';"), "{csp}");
        assert_eq!(headers[X_FRAME_OPTIONS], "DENY");
        assert_eq!(headers["cross-origin-opener-policy"], "same-origin");
        assert!(headers["permissions-policy"].to_str().unwrap().contains("camera=()"));
        assert_eq!(
            cache_control("assets/chunk-HYW6B6RY.js"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(content_type("a/index.html"), "text/html; charset=utf-8");
    }

    #[test]
    fn a_csp_the_response_chose_is_kept() {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'"));
        SecurityHeaders::new(&[]).apply(&mut headers);
        assert_eq!(headers[CONTENT_SECURITY_POLICY], "default-src 'none'");
    }
}
