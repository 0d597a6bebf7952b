//! `serve`'s composition: the membership API under `/api` beside the static site, whose headers
//! wrap both.

use crate::helpers::Reply;
use poem::http::StatusCode;
use serde_json::json;
use server::startup::build_app;
use site_server::static_site::SiteOptions;

fn site(dir: &std::path::Path) -> SiteOptions {
    SiteOptions {
        dist_dir: crate::process::minimal_dist(dir),
        dev: false,
    }
}

/// The API as `serve` mounts it: under `/api` beside the static site, whose headers wrap it.
#[tokio::test]
async fn the_whole_app_serves_the_api_under_api() {
    let dir = tempfile::tempdir().unwrap();
    let settings = api::settings::Settings::for_data_dir(&dir.path().join("data"), 8080);
    let app = build_app(settings, site(dir.path())).await.unwrap();
    let client = poem::test::TestClient::new(app);
    let status = Reply::read(client.get("/api/denglu").send().await.0).await;
    status.assert(StatusCode::OK);
    assert_eq!(status.body, json!({"loggedIn": false}));
    let unknown = Reply::read(client.get("/api/nothing-here").send().await.0).await;
    unknown.assert(StatusCode::NOT_FOUND);
    assert!(unknown.body.get("message").is_some());
    let docs = Reply::read(client.get("/api/docs").send().await.0).await;
    docs.assert(StatusCode::OK);
    let csps: Vec<_> = docs.headers.get_all("content-security-policy").iter().collect();
    assert_eq!(csps.len(), 1, "the docs page keeps its own CSP only");
    assert!(csps[0].to_str().unwrap().contains("'sha256-"));
}

/// Over https (PUBLIC_URL) every answer asks browsers to keep to https; over http none does.
#[tokio::test]
async fn https_sites_send_strict_transport_security() {
    let dir = tempfile::tempdir().unwrap();
    // Subdomains are covered unless the owner turns it off (a sibling still on plain http).
    for (public_url, subdomains, hsts) in [
        (
            "https://site.example",
            None,
            Some("max-age=31536000; includeSubDomains"),
        ),
        ("https://site.example", Some(false), Some("max-age=31536000")),
        ("http://127.0.0.1:8080", None, None),
    ] {
        let mut settings = api::settings::Settings::for_data_dir(&dir.path().join("data"), 8080);
        settings.public_url = url::Url::parse(public_url).unwrap();
        if let Some(subdomains) = subdomains {
            settings.hsts_include_subdomains = subdomains;
        }
        let client = poem::test::TestClient::new(build_app(settings, site(dir.path())).await.unwrap());
        for path in ["/api/denglu", "/no-such-page"] {
            let reply = Reply::read(client.get(path).send().await.0).await;
            assert_eq!(
                reply.header("strict-transport-security").as_deref(),
                hsts,
                "{public_url}{path}"
            );
            assert_eq!(
                reply.header("cross-origin-opener-policy").as_deref(),
                Some("same-origin")
            );
            assert!(reply.header("permissions-policy").is_some());
        }
    }
}
