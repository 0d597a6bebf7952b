//! `/api/health`, and what the API answers while its database cannot be reached.

use crate::helpers::servers::Relay;
use crate::helpers::{postgres_available, Backend, TestApp};
use poem::http::StatusCode;

on_both_databases! {
    async fn health_answers_while_the_database_does(backend: Backend) {
        let app = TestApp::new(backend).await;
        let ready = app.get("/api/health", &[]).await;
        ready.assert(StatusCode::OK);
        assert_eq!(ready.body, serde_json::json!({"status": "ok"}));
        assert_eq!(ready.header("cache-control").as_deref(), Some("no-store"));
        app.get("/api/health/live", &[]).await.assert(StatusCode::OK);
    }
}

/// PostgreSQL behind a relay the test cuts: the API answers 503 with a translated message and
/// Retry-After, not 500, and serves again once the database is back, without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_answers_503_and_recovers() {
    if !postgres_available() {
        return;
    }
    let direct = crate::helpers::fresh_database(Backend::Postgres, std::env::temp_dir().as_path()).await;
    let mut url = url::Url::parse(&direct).unwrap();
    let target = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap_or(5432));
    let mut relay = Relay::start(target.parse().unwrap()).await;
    url.set_port(Some(relay.addr.port())).unwrap();
    let relayed = url.to_string();
    let app = TestApp::with(Backend::Postgres, |s| s.database_url = relayed).await;
    app.register("outlast", "outlast@example.com", "password1234").await;
    let cookie = app.login("outlast", "password1234").await;

    relay.cut().await;
    let status = app
        .get("/api/denglu", &[("cookie", &cookie), ("accept-language", "zh-TW")])
        .await;
    status.assert(StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(status.field("message"), "服務暫時無法使用，請在幾秒後再試一次。");
    assert!(status.retry_after() > 0);
    let login = app
        .post(
            "/api/denglu",
            serde_json::json!({"username": "outlast", "password": "password1234"}),
        )
        .await;
    login.assert(StatusCode::SERVICE_UNAVAILABLE);
    assert!(login.field("message").contains("try again"), "{}", login.text);
    let register = app
        .post(
            "/api/send-email",
            serde_json::json!({"email": "late@example.com", "username": "late"}),
        )
        .await;
    register.assert(StatusCode::SERVICE_UNAVAILABLE);
    let health = app.get("/api/health", &[]).await;
    health.assert(StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(health.field("status"), "unavailable");
    // Only the status: the database's host, user or error stays in the operator's log.
    assert_eq!(
        health.body,
        serde_json::json!({"status": "unavailable"}),
        "{}",
        health.text
    );
    assert!(health.retry_after() > 0);
    app.get("/api/health/live", &[]).await.assert(StatusCode::OK);

    relay.restore().await;
    app.get("/api/health", &[]).await.assert(StatusCode::OK);
    assert_eq!(
        app.logged_in_as(&cookie).await.as_deref(),
        Some("outlast"),
        "the session outlived the outage"
    );
    app.login("outlast", "password1234").await;
}
