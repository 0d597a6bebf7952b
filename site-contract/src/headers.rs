//! The response headers of the files of `dist/`: the server (`api serve`) sends them, and the
//! generator writes them for static hosts (`dist/_headers`) and object storage (`site publish`),
//! so a page carries the same policy however it is served.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The Netlify / Cloudflare Pages file of each path's headers that `site build` writes beside the
/// pages, for a static host; the server and `site publish` leave it out.
pub const HEADERS_FILE: &str = "_headers";

/// Content-hashed assets never change under their name.
pub const CACHE_IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else is stored but revalidated with its ETag each time.
pub const CACHE_REVALIDATE: &str = "no-cache";

/// The headers every response carries besides its CSP (and HSTS, which depends on how the site
/// is reached, so the server adds it over https and a static host sets its own).
pub const FIXED_HEADERS: [(&str, &str); 5] = [
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ("X-Frame-Options", "DENY"),
    // The site uses none of these; a page that is somehow made to ask gets no prompt.
    (
        "Permissions-Policy",
        "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    ),
    // Windows this site opens, or that open it, cannot reach into each other.
    ("Cross-Origin-Opener-Policy", "same-origin"),
];

/// The Content-Security-Policy allowing the inline elements whose hashes are given
/// (`sha256-...`: the head script's, and a page's own stylesheet) and no other inline code.
pub fn csp(script_hashes: &[String], style_hashes: &[String]) -> String {
    let (script_src, style_src) = (sources(script_hashes), sources(style_hashes));
    format!(
        "default-src 'self'; script-src {script_src}; style-src {style_src}; img-src 'self' data: https:; \
         connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// The CSP of a page: the site's, with the hash of the stylesheet its `<head>` inlines (the
/// generator writes each page the rules that match it). None for a file without one.
pub fn page_csp(script_hashes: &[String], html: &[u8]) -> Option<String> {
    let style = inline_stylesheet(html)?;
    let hash = format!("sha256-{}", BASE64.encode(Sha256::digest(style.as_bytes())));
    Some(csp(script_hashes, &[hash]))
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
pub fn content_type(path: &str) -> String {
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
        return fixed.to_string();
    }
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    if mime.type_() == mime_guess::mime::TEXT && mime.get_param("charset").is_none() {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    }
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

/// The `Cache-Control` a file is served with.
pub fn cache_control(path: &str) -> &'static str {
    if is_content_hashed(path) {
        CACHE_IMMUTABLE
    } else {
        CACHE_REVALIDATE
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
        assert_eq!(cache_control("assets/chunk-HYW6B6RY.js"), CACHE_IMMUTABLE);
        assert_eq!(cache_control("assets/search/en/g3.json"), CACHE_REVALIDATE);
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
        let csp = csp(&["sha256-abc=".into(), "sha256-def=".into()], &[]);
        assert!(csp.contains("script-src 'self' 'sha256-abc=' 'sha256-def=';"), "{csp}");
        assert!(csp.contains("style-src 'self';"), "{csp}");
        assert!(!csp.contains("unsafe"), "{csp}");
    }

    #[test]
    fn a_page_allows_only_the_stylesheet_in_its_head() {
        let scripts = ["sha256-abc=".to_string()];
        let page = b"<html><head><style>a{color:red}</style></head><body><style>b{}</style></body></html>";
        let csp = page_csp(&scripts, page).unwrap();
        // `printf 'a{color:red}' | openssl dgst -sha256 -binary | base64`
        assert!(
            csp.contains("style-src 'self' 'sha256-6hWWMOcF+mJesSJGYhmK2lkIIEw9Xc5XKGLPVzh8yxs=';"),
            "{csp}"
        );
        assert!(csp.contains("script-src 'self' 'sha256-abc=';"), "{csp}");
        // A <style> in the body (from a page's own HTML) is not the build's.
        assert!(page_csp(&scripts, b"<html><head></head><body><style>b{}</style></body></html>").is_none());
        assert!(page_csp(&scripts, b"<p>no head").is_none());
    }
}
