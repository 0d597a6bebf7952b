//! `serve`'s composition: the membership API under `/api` beside the static site, whose headers
//! wrap both.

use crate::helpers::{fresh_database, Backend, Reply};
use crate::site_fixture::{options, site_with_a_fourth_language, KOREAN_API_MESSAGES};
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

on_both_databases! {
    // A site that adds a fourth language, Korean, where an owner would (site-config.yaml and
    // `locales/ko/`, its `api.json` included), built by the generator and served by `serve`'s
    // composition: the API answers a Korean visitor in Korean, from the built site alone.
    async fn the_api_answers_in_the_languages_of_the_site_it_serves(backend: Backend) {
        let site = tempfile::tempdir().unwrap();
        site_with_a_fourth_language(site.path());
        let dist = tempfile::tempdir().unwrap();
        generator::build(&options(site.path(), dist.path())).expect("the Korean site builds");
        let data = tempfile::tempdir().unwrap();
        let mut settings = api::settings::Settings::for_data_dir(&data.path().join("data"), 8080);
        settings.database_url = fresh_database(backend, data.path()).await;
        let site_options = SiteOptions {
            dist_dir: dist.path().to_path_buf(),
            dev: false,
        };
        let app = build_app(settings, site_options).await.unwrap();
        let base = format!("http://{}", crate::helpers::servers::serve(app).await);

        let korean: serde_json::Value = serde_json::from_str(KOREAN_API_MESSAGES).unwrap();
        let client = reqwest::Client::new();
        let failed_login = |headers: &[(&'static str, &'static str)]| {
            let mut req = client
                .post(format!("{base}/api/denglu"))
                .header("content-type", "application/json")
                .body(r#"{"username": "nobody", "password": "not the password"}"#);
            for (name, value) in headers {
                req = req.header(*name, *value);
            }
            async move { Reply::from_reqwest(req.send().await.unwrap()).await }
        };
        for headers in [
            &[("accept-language", "ko-KR,ko;q=0.9,en;q=0.5")][..],
            &[("cookie", "selectedLanguage=ko"), ("accept-language", "ja")][..],
        ] {
            let reply = failed_login(headers).await;
            reply.assert(StatusCode::UNAUTHORIZED);
            assert_eq!(reply.body["message"], korean["errors"]["loginFailed"], "{headers:?}");
        }
        // The fixture's Japanese has no api.json of its own: the default language's messages.
        let japanese = failed_login(&[("accept-language", "ja")]).await;
        assert_eq!(
            japanese.body["message"],
            "Login failed, please check username and password"
        );
        // The answers the API's guard makes (an unknown path) are in Korean too.
        let unknown = client
            .get(format!("{base}/api/nothing-here"))
            .header("accept-language", "ko")
            .send()
            .await
            .unwrap();
        let unknown = Reply::from_reqwest(unknown).await;
        unknown.assert(StatusCode::NOT_FOUND);
        assert_eq!(unknown.body["message"], korean["errors"]["notFound"]);
    }
}

/// A site built before the API took its languages from `_site.json` has no messages there: the
/// app does not start (and says to build the site again) rather than answer with message keys.
#[tokio::test]
async fn a_site_without_the_apis_messages_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let site = site(dir.path());
    let path = site.dist_dir.join(site_contract::SITE_FACTS_FILE);
    let mut facts: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    for language in facts["languages"].as_array_mut().unwrap() {
        language.as_object_mut().unwrap().remove("api_messages");
    }
    std::fs::write(&path, facts.to_string()).unwrap();
    let settings = api::settings::Settings::for_data_dir(&dir.path().join("data"), 8080);
    let error = build_app(settings, site).await.err().expect("refused");
    assert!(
        format!("{error:#}").contains("build it again (`make build`)"),
        "{error:#}"
    );
}
