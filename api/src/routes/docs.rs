//! `/api/docs`: Swagger UI with a CSP of its own that allows exactly its inline scripts.

use base64::Engine;
use poem::http::header;
use poem::{Endpoint, Response};
use sha2::{Digest, Sha256};

/// The `sha256-...` sources of every inline `<script>` of a page.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    let mut hashes = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let Some(open_end) = rest[start..].find('>') else { break };
        let body_start = start + open_end + 1;
        let Some(close) = rest[body_start..].find("</script>") else {
            break;
        };
        let body = &rest[body_start..body_start + close];
        let digest = Sha256::digest(body.as_bytes());
        hashes.push(format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        ));
        rest = &rest[body_start + close + "</script>".len()..];
    }
    hashes
}

pub fn docs_endpoint(html: String) -> impl Endpoint<Output = Response> {
    let csp = format!(
        "default-src 'none'; script-src {}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
         connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        inline_script_hashes(&html).join(" ")
    );
    poem::endpoint::make_sync(move |_| {
        Response::builder()
            .content_type("text/html; charset=utf-8")
            .header(header::CONTENT_SECURITY_POLICY, csp.clone())
            .body(html.clone())
    })
}
