//! The static-site server against a small fixture `dist/`, over a real listener.

use poem::endpoint::BoxEndpoint;
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::web::Json;
use poem::{handler, EndpointExt, IntoResponse, Response, Route, Server};
use reqwest::header::HeaderMap;
use reqwest::{Client, StatusCode};
use site_server::static_site::{site_endpoint, SiteOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;
use tempfile::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SCRIPT_HASH: &str = "sha256-R2VuZXJhdGVkSGVhZFNjcmlwdEhhc2g=";
const ASSET: &str = "assets/entry-5XKQ3Z2A.js";

// ---------- fixture ----------

fn page(lang: &str, what: &str) -> String {
    format!(
        "<!doctype html><html lang=\"{lang}\" data-lang=\"{lang}\"><head><style>{}</style></head><body><h1>{what} [{lang}]</h1>{}</body></html>",
        page_style(what),
        "padding ".repeat(40)
    )
}

/// Each page inlines a stylesheet of its own, as the generator writes the rules that match it.
fn page_style(what: &str) -> String {
    format!("h1::after{{content:\"{what}\"}}")
}

/// The CSP source of a page's inline stylesheet.
fn style_hash(what: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    let digest = sha2::Sha256::digest(page_style(what).as_bytes());
    format!("sha256-{}", base64::engine::general_purpose::STANDARD.encode(digest))
}

fn brotli(bytes: &[u8], quality: u8) -> Vec<u8> {
    let encoder = (brotlic::BrotliEncoderOptions::new())
        .quality(brotlic::Quality::new(quality).unwrap())
        .build()
        .unwrap();
    let mut writer = brotlic::CompressorWriter::with_encoder(encoder, Vec::new());
    writer.write_all(bytes).unwrap();
    writer.into_inner().unwrap()
}

fn write(dist: &Path, path: &str, bytes: &[u8], siblings: bool) {
    let file = dist.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, bytes).unwrap();
    if siblings {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(bytes).unwrap();
        std::fs::write(dist.join(format!("{path}.gz")), gz.finish().unwrap()).unwrap();
        std::fs::write(dist.join(format!("{path}.br")), brotli(bytes, 11)).unwrap();
    }
}

fn fixture() -> TempDir {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("secret.txt"), "TOP SECRET outside dist").unwrap();
    let dist = root.path().join("dist");
    let site_json = serde_json::json!({
        "languages": [{"code":"en","tag":"en"},{"code":"zh","tag":"zh-Hant"},{"code":"ja","tag":"ja"}],
        "default_language": "en",
        "script_hashes": [SCRIPT_HASH],
        "dev": false,
        "aliases": [
            {"from": "/old-about", "route": "/about"},
            {"from": "/notes/舊筆記", "route": "/notes/liquidity-risk"}
        ]
    });
    write(&dist, "_site.json", site_json.to_string().as_bytes(), false);
    write(
        &dist,
        "_aliases.nginx.conf",
        b"location = /old-about { return 301 /about; }\n",
        false,
    );
    write(&dist, "_headers", b"/*\n  X-Frame-Options: DENY\n", false);
    write(&dist, "_redirects", b"/old-about /about 301\n", false);
    for (prefix, lang) in [("", "en"), ("zh/", "zh"), ("ja/", "ja")] {
        write(
            &dist,
            &format!("{prefix}index.html"),
            page(lang, "home").as_bytes(),
            true,
        );
        for route in ["about", "notes", "notes/liquidity-risk", "my-web-project"] {
            write(
                &dist,
                &format!("{prefix}{route}/index.html"),
                page(lang, route).as_bytes(),
                true,
            );
        }
        write(
            &dist,
            &format!("{prefix}notes/404.html"),
            page(lang, "note not found").as_bytes(),
            true,
        );
        write(
            &dist,
            &format!("{prefix}my-web-project/404.html"),
            page(lang, "project not found").as_bytes(),
            true,
        );
        write(
            &dist,
            &format!("locales/{lang}/translation.json"),
            format!("{{\"lang\":\"{lang}\"}}").as_bytes(),
            true,
        );
    }
    write(
        &dist,
        ASSET,
        format!("export const x = 1; // {}", "x".repeat(300)).as_bytes(),
        true,
    );
    write(
        &dist,
        "assets/manifest.json",
        br#"{"entry":"/assets/entry-5XKQ3Z2A.js"}"#,
        true,
    );
    write(&dist, "images/photo.png", &[0x89, b'P', b'N', b'G', 0, 1, 2, 3], false);
    write(&dist, "sitemap.xml", b"<urlset></urlset>", true);
    root
}

fn dist(root: &TempDir) -> std::path::PathBuf {
    root.path().join("dist")
}

// ---------- server ----------

#[handler]
fn api_hello() -> Json<serde_json::Value> {
    Json(serde_json::json!({"hello": "api"}))
}

#[handler]
fn docs() -> Response {
    // An API page that needs its own policy (like a docs UI) keeps it.
    "docs"
        .with_header("Content-Security-Policy", "default-src 'self' 'unsafe-inline'")
        .into_response()
}

fn tiny_api() -> BoxEndpoint<'static, Response> {
    Route::new()
        .at("/hello", api_hello)
        .at("/docs", docs)
        .map_to_response()
        .boxed()
}

async fn start(dist_dir: &Path, dev: bool) -> String {
    let app = site_endpoint(
        SiteOptions {
            dist_dir: dist_dir.to_path_buf(),
            dev,
        },
        tiny_api(),
    )
    .unwrap();
    let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await.unwrap();
    let addr = *acceptor.local_addr()[0].0.as_socket_addr().unwrap();
    tokio::spawn(Server::new_with_acceptor(acceptor).run(app));
    format!("http://{addr}")
}

fn client() -> Client {
    // No automatic decompression or redirects: the test looks at what the server sent.
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn get(base: &str, path: &str, headers: &[(&str, &str)]) -> (StatusCode, HeaderMap, Vec<u8>) {
    let mut request = client().get(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or("")
}

fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}

/// Sends a request line byte for byte (reqwest would normalise `..` away).
async fn raw_get(base: &str, target: &str) -> (u16, String) {
    let addr = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = text(&response);
    let status = response.split(' ').nth(1).unwrap().parse().unwrap();
    (status, response)
}

// ---------- tests ----------

#[tokio::test]
async fn serves_the_precompressed_sibling_the_client_accepts() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    let original = std::fs::read(dist(&root).join("index.html")).unwrap();

    let (status, headers, body) = get(&base, "/", &[("accept-encoding", "gzip, deflate, br, zstd")]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-encoding"), "br");
    assert!(header(&headers, "vary").contains("Accept-Encoding"));
    let mut decoded = Vec::new();
    brotlic::DecompressorReader::new(&body[..])
        .read_to_end(&mut decoded)
        .unwrap();
    assert_eq!(decoded, original);

    let (_, headers, body) = get(&base, "/", &[("accept-encoding", "gzip")]).await;
    assert_eq!(header(&headers, "content-encoding"), "gzip");
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&body[..])
        .read_to_end(&mut decoded)
        .unwrap();
    assert_eq!(decoded, original);

    let (_, headers, _) = get(&base, "/", &[("accept-encoding", "br;q=0.2, gzip;q=0.8")]).await;
    assert_eq!(header(&headers, "content-encoding"), "gzip", "q-values are honoured");
    let (_, headers, _) = get(&base, "/", &[("accept-encoding", "br;q=0, gzip;q=0")]).await;
    assert_eq!(header(&headers, "content-encoding"), "");

    let (_, headers, body) = get(&base, "/", &[]).await;
    assert_eq!(header(&headers, "content-encoding"), "");
    assert_eq!(body, original);
    assert_eq!(header(&headers, "content-length"), original.len().to_string());

    // A file without siblings is the same for every client.
    let (status, headers, body) = get(&base, "/images/photo.png", &[("accept-encoding", "br, gzip")]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-encoding"), "");
    assert_eq!(header(&headers, "vary"), "");
    assert_eq!(header(&headers, "content-type"), "image/png");
    assert_eq!(body, [0x89, b'P', b'N', b'G', 0, 1, 2, 3]);

    // Siblings are representations, not URLs of their own.
    let (status, _, _) = get(&base, "/index.html.br", &[]).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn etags_answer_conditional_requests_with_304() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    let path = "/notes/liquidity-risk";

    let (_, plain, _) = get(&base, path, &[]).await;
    let (_, brotli, _) = get(&base, path, &[("accept-encoding", "br")]).await;
    let etag = header(&plain, "etag").to_string();
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() > 10,
        "strong etag: {etag}"
    );
    assert_ne!(etag, header(&brotli, "etag"), "each encoding is its own representation");

    let (status, headers, body) = get(&base, path, &[("if-none-match", &etag)]).await;
    assert_eq!(status, 304);
    assert!(body.is_empty());
    assert_eq!(header(&headers, "etag"), etag);
    assert_eq!(header(&headers, "cache-control"), "no-cache");

    let listed = format!("\"other\", W/{}", header(&brotli, "etag"));
    let (status, _, _) = get(&base, path, &[("if-none-match", &listed), ("accept-encoding", "br")]).await;
    assert_eq!(status, 304, "lists and weak validators match");

    let (status, _, body) = get(&base, path, &[("if-none-match", "\"stale\"")]).await;
    assert_eq!(status, 200);
    assert!(text(&body).contains("notes/liquidity-risk [en]"));

    let (status, _, _) = get(&base, &format!("/{ASSET}"), &[("if-none-match", "*")]).await;
    assert_eq!(status, 304);
}

#[tokio::test]
async fn hashed_assets_are_immutable_and_the_rest_revalidates() {
    let root = fixture();
    let base = start(&dist(&root), false).await;

    let (status, headers, _) = get(&base, &format!("/{ASSET}"), &[("accept-encoding", "gzip")]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "cache-control"), "public, max-age=31536000, immutable");
    assert_eq!(header(&headers, "content-type"), "text/javascript");

    for (path, content_type) in [
        ("/", "text/html; charset=utf-8"),
        ("/zh/about", "text/html; charset=utf-8"),
        ("/assets/manifest.json", "application/json"),
        ("/locales/zh/translation.json", "application/json"),
        ("/images/photo.png", "image/png"),
    ] {
        let (status, headers, _) = get(&base, path, &[]).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(header(&headers, "cache-control"), "no-cache", "{path}");
        assert_eq!(header(&headers, "content-type"), content_type, "{path}");
        assert!(!header(&headers, "etag").is_empty(), "{path}");
    }
    let (_, headers, _) = get(&base, "/sitemap.xml", &[]).await;
    assert!(header(&headers, "content-type").contains("xml"));
}

#[tokio::test]
async fn unprefixed_pages_answer_in_the_visitors_language() {
    let root = fixture();
    let base = start(&dist(&root), false).await;

    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: &[Case] = &[
        (&[], "en", "en"),
        (&[("accept-language", "zh-TW,zh;q=0.9,en;q=0.8")], "zh", "zh-Hant"),
        (&[("accept-language", "zh-Hant")], "zh", "zh-Hant"),
        (&[("accept-language", "zh")], "zh", "zh-Hant"),
        (&[("accept-language", "ja-JP")], "ja", "ja"),
        (&[("accept-language", "fr-FR, de")], "en", "en"),
        (
            &[("accept-language", "en;q=0.3, ja;q=0.5, zh-TW;q=0.9")],
            "zh",
            "zh-Hant",
        ),
        (&[("accept-language", "ja;q=0, en")], "en", "en"),
        // The cookie (the visitor's own choice) beats the browser's list.
        (
            &[
                ("cookie", "theme=dark; selectedLanguage=ja"),
                ("accept-language", "zh-TW"),
            ],
            "ja",
            "ja",
        ),
        (
            &[("cookie", "selectedLanguage=en"), ("accept-language", "zh-TW")],
            "en",
            "en",
        ),
        (&[("cookie", "selectedLanguage=zh")], "zh", "zh-Hant"),
        (
            &[("cookie", "selectedLanguage=klingon"), ("accept-language", "ja")],
            "ja",
            "ja",
        ),
    ];
    for path in ["/", "/about", "/about/", "/notes/liquidity-risk"] {
        for (headers, lang, tag) in cases {
            let (status, response, body) = get(&base, path, headers).await;
            assert_eq!(status, 200, "{path} {headers:?}");
            assert!(
                text(&body).contains(&format!("[{lang}]</h1>")),
                "{path} {headers:?}: {}",
                text(&body)
            );
            assert_eq!(header(&response, "content-language"), *tag, "{path} {headers:?}");
            let vary = header(&response, "vary");
            for name in ["Cookie", "Accept-Language", "Accept-Encoding"] {
                assert!(vary.contains(name), "{path}: Vary {vary:?} lacks {name}");
            }
        }
    }
}

#[tokio::test]
async fn prefixed_pages_are_their_language_whatever_the_visitor_prefers() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    let prefer_ja = [("cookie", "selectedLanguage=ja"), ("accept-language", "ja")];
    for (path, lang, tag, what) in [
        ("/zh/", "zh", "zh-Hant", "home"),
        ("/zh", "zh", "zh-Hant", "home"),
        ("/zh/about", "zh", "zh-Hant", "about"),
        ("/zh/notes/liquidity-risk/", "zh", "zh-Hant", "notes/liquidity-risk"),
        ("/ja/my-web-project", "ja", "ja", "my-web-project"),
        ("/ja/index.html", "ja", "ja", "home"),
    ] {
        let extra: &[(&str, &str)] = if lang == "zh" {
            &prefer_ja
        } else {
            &[("accept-language", "zh")]
        };
        let (status, headers, body) = get(&base, path, extra).await;
        assert_eq!(status, 200, "{path}");
        assert!(
            text(&body).contains(&format!("{what} [{lang}]")),
            "{path}: {}",
            text(&body)
        );
        assert_eq!(header(&headers, "content-language"), tag, "{path}");
        assert!(
            !header(&headers, "vary").contains("Cookie"),
            "{path}: a prefixed page does not vary by cookie"
        );
    }
}

#[tokio::test]
async fn unknown_notes_and_projects_get_the_translated_404_page() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    for (path, headers, expected, tag) in [
        ("/notes/no-such-note", vec![], "note not found [en]", "en"),
        (
            "/notes/no-such-note",
            vec![("accept-language", "ja-JP")],
            "note not found [ja]",
            "ja",
        ),
        (
            "/notes/a/b/c",
            vec![("cookie", "selectedLanguage=zh")],
            "note not found [zh]",
            "zh-Hant",
        ),
        ("/zh/notes/no-such-note", vec![], "note not found [zh]", "zh-Hant"),
        (
            "/ja/notes/x/",
            vec![("accept-language", "zh")],
            "note not found [ja]",
            "ja",
        ),
        ("/my-web-project/nope", vec![], "project not found [en]", "en"),
        ("/zh/my-web-project/nope", vec![], "project not found [zh]", "zh-Hant"),
        ("/ja/my-web-project/nope", vec![], "project not found [ja]", "ja"),
    ] {
        let (status, response, body) = get(&base, path, &headers).await;
        assert_eq!(status, 404, "{path}");
        assert!(text(&body).contains(expected), "{path} {headers:?}: {}", text(&body));
        assert_eq!(header(&response, "content-type"), "text/html; charset=utf-8");
        assert_eq!(header(&response, "content-language"), tag, "{path}");
        assert_eq!(header(&response, "etag"), "", "a 404 has no validator");
    }
    // The 404 page is precompressed like any page.
    let (status, headers, _) = get(&base, "/zh/notes/x", &[("accept-encoding", "br")]).await;
    assert_eq!(status, 404);
    assert_eq!(header(&headers, "content-encoding"), "br");
}

#[tokio::test]
async fn unknown_page_paths_redirect_home_in_their_language() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    for (path, target) in [
        ("/no-such-page", "/?not-found=1"),
        ("/valuation-models/xyz/", "/?not-found=1"),
        ("/en/about", "/?not-found=1"),
        ("/apis", "/?not-found=1"),
        ("/zh/no-such-page", "/zh/?not-found=1"),
        ("/zh/a/b", "/zh/?not-found=1"),
        ("/ja/no-such-page?x=1", "/ja/?not-found=1"),
    ] {
        let (status, headers, _) = get(&base, path, &[("accept-language", "ja")]).await;
        assert!(status == 302 || status == 307, "{path}: {status}");
        assert_eq!(header(&headers, "location"), target, "{path}");
        assert!(!header(&headers, "content-security-policy").is_empty(), "{path}");
    }
}

#[tokio::test]
async fn a_pages_old_url_moves_permanently_to_the_page_in_the_visitors_language() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    for (path, headers, target) in [
        ("/old-about", vec![], "/about"),
        ("/old-about/", vec![("accept-language", "ja")], "/ja/about"),
        (
            "/old-about",
            vec![("cookie", "selectedLanguage=zh"), ("accept-language", "ja")],
            "/zh/about",
        ),
        ("/zh/old-about", vec![("accept-language", "ja")], "/zh/about"),
        (
            "/notes/%E8%88%8A%E7%AD%86%E8%A8%98",
            vec![("accept-language", "zh-TW")],
            "/zh/notes/liquidity-risk",
        ),
    ] {
        let (status, headers, _) = get(&base, path, &headers).await;
        assert!(status == 301 || status == 308, "{path}: {status}");
        assert_eq!(header(&headers, "location"), target, "{path}");
        assert!(!header(&headers, "content-security-policy").is_empty(), "{path}");
    }
    let (_, negotiated, _) = get(&base, "/old-about", &[]).await;
    assert_eq!(header(&negotiated, "vary"), "Cookie, Accept-Language");
    let (_, prefixed, _) = get(&base, "/ja/old-about", &[]).await;
    assert!(prefixed.get("vary").is_none(), "a prefixed alias has one target");

    // What a build leaves for nginx or a static host is not served: an unknown file, or an
    // unknown page path that goes home.
    for (record, expected) in [("/_aliases.nginx.conf", 404), ("/_headers", 302), ("/_redirects", 302)] {
        let (status, _, body) = get(&base, record, &[]).await;
        assert_eq!(status, expected, "{record}");
        assert!(!String::from_utf8_lossy(&body).contains("/old-about"), "{record}");
    }
    let (status, _, _) = get(&base, "/about", &[]).await;
    assert_eq!(status, 200, "the page itself answers");
}

#[tokio::test]
async fn an_alias_that_is_not_a_plain_path_is_refused_at_load() {
    let root = fixture();
    let dist = dist(&root);
    let facts = std::fs::read_to_string(dist.join("_site.json")).unwrap();
    let bad = facts.replace("/old-about", "/old about; return 302 http://evil");
    std::fs::write(dist.join("_site.json"), bad).unwrap();
    let err = site_endpoint(
        SiteOptions {
            dist_dir: dist,
            dev: false,
        },
        tiny_api(),
    )
    .err()
    .expect("a bad alias must not load");
    assert!(format!("{err:#}").contains("is not two plain paths"), "{err:#}");
}

#[tokio::test]
async fn unknown_api_assets_locales_and_files_are_404_not_redirects() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    for path in [
        "/api/no-such-endpoint",
        "/api/",
        "/assets/entry-MISSING1.js",
        "/assets/",
        "/assets",
        "/locales/fr/translation.json",
        "/locales/zh/",
        "/images/missing.svg",
        "/images/missing",
        "/favicon.ico",
        "/zh/assets/x.js",
        "/__dev/reload.js",
        "/__dev/events",
    ] {
        let (status, headers, body) = get(&base, path, &[]).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(header(&headers, "location"), "", "{path}");
        assert!(!text(&body).contains("<html"), "{path} must not be an HTML page");
    }
    // The API answers its own routes.
    let (status, headers, body) = get(&base, "/api/hello", &[]).await;
    assert_eq!(status, 200);
    assert!(header(&headers, "content-type").starts_with("application/json"));
    assert_eq!(text(&body), r#"{"hello":"api"}"#);
}

#[tokio::test]
async fn path_traversal_never_reaches_outside_dist() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    for target in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/%2E%2E/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/zh/../../secret.txt",
        "/assets/%2e%2e%5csecret.txt",
        "/./index.html",
    ] {
        let (status, response) = raw_get(&base, target).await;
        assert!(status == 400 || status == 404, "{target}: {status}");
        assert!(!response.contains("TOP SECRET"), "{target}");
    }
}

#[tokio::test]
async fn security_headers_on_pages_files_errors_and_api() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    // Each page's own inline stylesheet by its hash; no inline style anywhere else.
    let (home, about, note_not_found) = (style_hash("home"), style_hash("about"), style_hash("note not found"));
    for (path, style_src) in [
        ("/", format!("'self' '{home}'")),
        ("/zh/about", format!("'self' '{about}'")),
        (&format!("/{ASSET}"), "'self'".to_string()),
        ("/notes/nope", format!("'self' '{note_not_found}'")),
        ("/nope.txt", "'self'".to_string()),
        ("/api/hello", "'self'".to_string()),
        ("/api/nope", "'self'".to_string()),
    ] {
        let (_, headers, _) = get(&base, path, &[]).await;
        let csp = header(&headers, "content-security-policy");
        assert!(
            csp.contains(&format!("script-src 'self' '{SCRIPT_HASH}'")),
            "{path}: {csp}"
        );
        assert!(csp.contains(&format!("style-src {style_src};")), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        for directive in [
            "default-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "frame-ancestors 'none'",
            "connect-src 'self'",
        ] {
            assert!(csp.contains(directive), "{path}: {csp} lacks {directive}");
        }
        assert_eq!(header(&headers, "x-content-type-options"), "nosniff", "{path}");
        assert_eq!(
            header(&headers, "referrer-policy"),
            "strict-origin-when-cross-origin",
            "{path}"
        );
        assert_eq!(header(&headers, "x-frame-options"), "DENY", "{path}");
        assert_eq!(header(&headers, "strict-transport-security"), "", "{path}: plain http");
    }
    // A response that set its own policy keeps it.
    let (_, headers, _) = get(&base, "/api/docs", &[]).await;
    assert_eq!(
        header(&headers, "content-security-policy"),
        "default-src 'self' 'unsafe-inline'"
    );
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
}

#[tokio::test]
async fn head_and_other_methods() {
    let root = fixture();
    let base = start(&dist(&root), false).await;
    let (_, _, full) = get(&base, "/about", &[("accept-encoding", "gzip")]).await;
    let response = client()
        .head(format!("{base}/about"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(header(response.headers(), "content-length"), full.len().to_string());
    assert_eq!(header(response.headers(), "content-encoding"), "gzip");
    assert!(response.bytes().await.unwrap().is_empty());

    let response = client().post(format!("{base}/about")).send().await.unwrap();
    assert_eq!(response.status(), 405);
    assert_eq!(header(response.headers(), "allow"), "GET, HEAD");
}

#[tokio::test]
async fn an_unbuilt_dist_is_an_error_that_says_what_to_do() {
    let root = tempfile::tempdir().unwrap();
    let error = site_endpoint(
        SiteOptions {
            dist_dir: root.path().join("dist"),
            dev: false,
        },
        tiny_api(),
    )
    .err()
    .expect("no _site.json must be an error");
    assert!(
        error.to_string().contains("dist/ is not built: run `make build`"),
        "{error}"
    );
}

/// Reads server-sent events until one named `event` arrives; returns its data.
async fn next_event(response: &mut reqwest::Response, buffer: &mut String, event: &str) -> String {
    let wanted = format!("event: {event}\ndata: ");
    loop {
        if let Some(start) = buffer.find(&wanted) {
            let rest = &buffer[start + wanted.len()..];
            if let Some(end) = rest.find("\n\n") {
                let data = rest[..end].to_string();
                buffer.drain(..start + wanted.len() + end + 2);
                return data;
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .unwrap_or_else(|_| panic!("no `{event}` event within 10s; got {buffer:?}"))
            .unwrap()
            .expect("event stream ended");
        buffer.push_str(&text(&chunk));
    }
}

/// An open page's event stream, once the server has said hello; and its unread text.
async fn dev_events(base: &str) -> (reqwest::Response, String) {
    let mut events = client().get(format!("{base}/__dev/events")).send().await.unwrap();
    let mut buffer = String::new();
    next_event(&mut events, &mut buffer, "hello").await;
    (events, buffer)
}

#[tokio::test]
async fn dev_mode_reloads_dist_and_tells_open_pages() {
    let root = fixture();
    let dist_dir = dist(&root);
    let base = start(&dist_dir, true).await;

    let (status, headers, body) = get(&base, "/__dev/reload.js", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), "text/javascript");
    assert!(text(&body).contains("new EventSource('/__dev/events')"));
    assert!(text(&body).contains("location.reload()"));

    let mut events = client().get(format!("{base}/__dev/events")).send().await.unwrap();
    assert_eq!(events.status(), 200);
    assert_eq!(header(events.headers(), "content-type"), "text/event-stream");
    let mut buffer = String::new();
    let first_build = next_event(&mut events, &mut buffer, "hello").await;

    // A rebuild rewrites a page (and its siblings).
    write(
        &dist_dir,
        "about/index.html",
        page("en", "rebuilt about").as_bytes(),
        true,
    );
    let new_build = next_event(&mut events, &mut buffer, "reload").await;
    assert_ne!(new_build, first_build);

    let (status, _, body) = get(&base, "/about", &[]).await;
    assert_eq!(status, 200);
    assert!(text(&body).contains("rebuilt about [en]"), "{}", text(&body));
    let (_, _, body) = get(&base, "/about", &[("accept-encoding", "br")]).await;
    let mut decoded = Vec::new();
    brotlic::DecompressorReader::new(&body[..])
        .read_to_end(&mut decoded)
        .unwrap();
    assert!(text(&decoded).contains("rebuilt about [en]"));

    // A new page appears too, and a reconnecting page learns the new build.
    write(&dist_dir, "tools/index.html", page("en", "tools").as_bytes(), true);
    next_event(&mut events, &mut buffer, "reload").await;
    let (status, _, body) = get(&base, "/tools", &[]).await;
    assert_eq!(status, 200);
    assert!(text(&body).contains("tools [en]"));
    let mut again = client().get(format!("{base}/__dev/events")).send().await.unwrap();
    let hello = next_event(&mut again, &mut String::new(), "hello").await;
    assert_ne!(hello, first_build);
}

#[tokio::test]
async fn dev_mode_serves_pages_written_into_new_folders() {
    let root = fixture();
    let dist_dir = dist(&root);
    let base = start(&dist_dir, true).await;
    let (mut events, mut buffer) = dev_events(&base).await;
    // A page in a folder of its own, written as soon as the folder is made: the folder's own
    // watch comes too late to see it, so only the folder's creation tells of the page.
    for n in 0..10 {
        write(
            &dist_dir,
            &format!("new-{n}/index.html"),
            page("en", "new").as_bytes(),
            false,
        );
        next_event(&mut events, &mut buffer, "reload").await;
        let (status, _, body) = get(&base, &format!("/new-{n}"), &[]).await;
        assert_eq!(status, 200, "/new-{n} after its reload");
        assert!(text(&body).contains("new [en]"));
    }
}

#[tokio::test]
async fn dev_mode_follows_a_build_that_recreates_dist() {
    let root = fixture();
    let dist_dir = dist(&root);
    let base = start(&dist_dir, true).await;
    let (mut events, mut buffer) = dev_events(&base).await;

    // A clean build: dist/ vanishes (the server keeps serving what it has) and comes back.
    let site_json = std::fs::read(dist_dir.join("_site.json")).unwrap();
    std::fs::remove_dir_all(&dist_dir).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _, _) = get(&base, "/about", &[]).await;
    assert_eq!(status, 200, "a half-built dist/ does not take the site down");
    std::fs::create_dir(&dist_dir).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    std::fs::write(dist_dir.join("_site.json"), site_json).unwrap();
    write(&dist_dir, "index.html", page("en", "fresh home").as_bytes(), true);
    write(
        &dist_dir,
        "about/index.html",
        page("en", "fresh about").as_bytes(),
        true,
    );

    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        next_event(&mut events, &mut buffer, "reload").await;
        let (status, _, body) = get(&base, "/about", &[]).await;
        if status == 200 && text(&body).contains("fresh about [en]") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never served the rebuilt dist/");
    }
    let (status, headers, _) = get(&base, "/notes", &[]).await;
    assert_eq!(
        (status.as_u16(), header(&headers, "location")),
        (302, "/?not-found=1"),
        "pages gone from the new build are gone"
    );
}

// ---------- `api serve`'s own listener (site_server::server::serve) ----------

const LARGE: &str = "assets/search-index-0123456789.json";

/// Bytes that do not compress, so every representation of [`LARGE`] is large.
fn noise(len: usize) -> Vec<u8> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

/// Writes [`LARGE`], with gzip and br siblings (as large as it: noise does not compress).
fn write_large(dist: &Path, bytes: &[u8], siblings: bool) {
    if siblings {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(bytes).unwrap();
        std::fs::write(dist.join(format!("{LARGE}.gz")), gz.finish().unwrap()).unwrap();
        std::fs::write(dist.join(format!("{LARGE}.br")), brotli(bytes, 1)).unwrap();
    }
    std::fs::write(dist.join(LARGE), bytes).unwrap();
}

/// The site on `site_server::server::serve`, as `api serve` runs it.
async fn start_serve(dist_dir: &Path, dev: bool) -> std::net::SocketAddr {
    let app = site_endpoint(
        SiteOptions {
            dist_dir: dist_dir.to_path_buf(),
            dev,
        },
        tiny_api(),
    )
    .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let forever = std::future::pending();
    tokio::spawn(site_server::server::serve(
        listener,
        app,
        forever,
        site_server::server::SHUTDOWN_GRACE,
        site_server::server::Limits::default(),
    ));
    addr
}

struct RawResponse {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl RawResponse {
    fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }
}

/// One keep-alive connection, read by hand so every byte the server sends is seen. Its small
/// receive buffer makes the server's writes partial and wait for the socket.
struct RawConnection {
    stream: tokio::net::TcpStream,
    unread: Vec<u8>,
}

impl RawConnection {
    async fn open(addr: std::net::SocketAddr) -> RawConnection {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        RawConnection {
            stream: socket.connect(addr).await.unwrap(),
            unread: Vec::new(),
        }
    }

    async fn send(&mut self, method: &str, path: &str, headers: &[(&str, &str)]) {
        let mut request = format!("{method} {path} HTTP/1.1\r\nHost: test\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        self.stream.write_all(request.as_bytes()).await.unwrap();
    }

    async fn fill(&mut self) {
        let mut chunk = [0; 16 * 1024];
        let n = tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk))
            .await
            .expect("the server stalled")
            .unwrap();
        assert!(n > 0, "the server closed the connection");
        self.unread.extend_from_slice(&chunk[..n]);
    }

    /// The next response; `has_body` is false for HEAD and 304, whose Content-Length
    /// describes a body that is not sent.
    async fn response(&mut self, has_body: bool) -> RawResponse {
        let end = loop {
            if let Some(at) = self.unread.windows(4).position(|w| w == b"\r\n\r\n") {
                break at;
            }
            self.fill().await;
        };
        let head = text(&self.unread[..end]);
        self.unread.drain(..end + 4);
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap();
        assert!(status_line.starts_with("HTTP/1.1 "), "not a response: {status_line:?}");
        let status = status_line[9..12].parse().unwrap();
        let headers: Vec<(String, String)> = lines
            .map(|line| {
                let (name, value) = line.split_once(':').unwrap();
                (name.to_string(), value.trim().to_string())
            })
            .collect();
        let mut response = RawResponse {
            status,
            headers,
            body: Vec::new(),
        };
        if has_body {
            let len: usize = response.header("content-length").parse().expect("a content-length");
            while self.unread.len() < len {
                self.fill().await;
            }
            response.body = self.unread.drain(..len).collect();
        }
        response
    }

    async fn get(&mut self, path: &str, headers: &[(&str, &str)]) -> RawResponse {
        self.send("GET", path, headers).await;
        self.response(true).await
    }
}

#[tokio::test]
async fn large_and_small_bodies_arrive_whole_over_one_connection() {
    let root = fixture();
    let dist_dir = dist(&root);
    write_large(&dist_dir, &noise(512 * 1024), true);
    let read = |path: &str| std::fs::read(dist_dir.join(path)).unwrap();
    let addr = start_serve(&dist_dir, false).await;
    let large = format!("/{LARGE}");
    let mut connection = RawConnection::open(addr).await;

    for round in 0..3 {
        let representations = [
            ("gzip", format!("{LARGE}.gz")),
            ("br", format!("{LARGE}.br")),
            ("identity", LARGE.to_string()),
        ];
        for (encoding, file) in representations {
            let response = connection.get(&large, &[("accept-encoding", encoding)]).await;
            assert_eq!(response.status, 200);
            assert_eq!(
                response.header("content-encoding"),
                if encoding == "identity" { "" } else { encoding }
            );
            assert!(response.body.len() >= 200 * 1024);
            assert!(response.body == read(&file), "{file} differs (round {round})");
        }
        let response = connection.get("/about", &[("accept-encoding", "gzip")]).await;
        assert_eq!(response.status, 200);
        assert!(
            response.body == read("about/index.html.gz"),
            "the small page differs (round {round})"
        );
    }

    // HEAD: the length of the body it does not send; the next response follows at once.
    connection.send("HEAD", &large, &[("accept-encoding", "gzip")]).await;
    let head = connection.response(false).await;
    assert_eq!(head.status, 200);
    assert_eq!(
        head.header("content-length"),
        read(&format!("{LARGE}.gz")).len().to_string()
    );
    let etag = head.header("etag").to_string();
    connection
        .send("GET", &large, &[("accept-encoding", "gzip"), ("if-none-match", &etag)])
        .await;
    assert_eq!(connection.response(false).await.status, 304);

    // Pipelined, more than the socket buffers hold (4 MB at most on Linux): the server's writes
    // stop part-way through bodies and go on when the client reads.
    let pipelined = [
        (large.as_str(), "gzip", format!("{LARGE}.gz")),
        ("/about", "br", "about/index.html.br".into()),
    ];
    for (path, encoding, _) in pipelined.iter().cycle().take(20) {
        connection.send("GET", path, &[("accept-encoding", encoding)]).await;
    }
    for (i, (_, _, file)) in pipelined.iter().cycle().take(20).enumerate() {
        assert!(
            connection.response(true).await.body == read(file),
            "pipelined response {i}: {file} differs"
        );
    }
    assert!(connection.unread.is_empty(), "stray bytes after the last response");
}

#[tokio::test]
async fn a_dev_reload_leaves_a_large_response_in_flight_whole() {
    let root = fixture();
    let dist_dir = dist(&root);
    // Larger than the socket buffers hold, so part of the response waits in the server.
    let old = noise(6 * 1024 * 1024);
    write_large(&dist_dir, &old, false);
    let addr = start_serve(&dist_dir, true).await;
    let base = format!("http://{addr}");
    let mut events = client().get(format!("{base}/__dev/events")).send().await.unwrap();
    let mut buffer = String::new();
    next_event(&mut events, &mut buffer, "hello").await;

    // The response is sent but stalls in the small receive buffer, and the build replaces the file.
    let mut connection = RawConnection::open(addr).await;
    connection.send("GET", &format!("/{LARGE}"), &[]).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let new: Vec<u8> = old.iter().map(|b| !b).collect();
    write_large(&dist_dir, &new, false);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        next_event(&mut events, &mut buffer, "reload").await;
        let (_, _, body) = get(&base, &format!("/{LARGE}"), &[]).await;
        if body == new {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never served the rebuilt file");
    }

    assert!(
        connection.response(true).await.body == old,
        "the response in flight changed under the reload"
    );
    assert!(connection.get(&format!("/{LARGE}"), &[]).await.body == new);
}
