//! `GET /metrics`: Prometheus's text format for loopback and METRICS_ALLOW only, the client being
//! who a trusted proxy says it is; requests counted by route class and status, refusals, the
//! hashing queue, mail failures (docs/deploy.md, "What to watch").
//!
//! The metrics belong to the process, so the two databases run one after the other in one test:
//! side by side, each would see the other's requests in the counts it compares.

#[path = "../../api/tests/api/helpers/mod.rs"]
mod helpers;
#[path = "server/process.rs"]
mod process;

use crate::helpers::{Backend, TestApp};
use serde_json::json;

struct Served {
    app: TestApp,
    base: String,
    _dist: tempfile::TempDir,
}

/// The whole app (site and API) on a loopback port, behind a trusted proxy at 127.0.0.1.
async fn serve(backend: Backend, metrics_allow: &str) -> Served {
    let dist = tempfile::tempdir().unwrap();
    let dist_dir = crate::process::minimal_dist(dist.path());
    let app = TestApp::with(backend, |s| {
        s.trusted_proxies = api::client_ip::parse_trusted_proxies("127.0.0.1/32").unwrap();
        s.metrics_allow = api::client_ip::parse_trusted_proxies(metrics_allow).unwrap();
        // Nothing listens there: every email fails.
        s.smtp_url = Some("smtp://127.0.0.1:9".into());
    })
    .await;
    let endpoint = server::startup::build_app_with_state(
        app.state.clone(),
        site_server::static_site::SiteOptions { dist_dir, dev: false },
    )
    .unwrap();
    let addr = crate::helpers::servers::serve(endpoint).await;
    Served {
        app,
        base: format!("http://{addr}"),
        _dist: dist,
    }
}

async fn scrape(served: &Served, forwarded_for: Option<&str>) -> (u16, String, String) {
    let mut req = reqwest::Client::new().get(format!("{}/metrics", served.base));
    if let Some(client) = forwarded_for {
        req = req.header("x-forwarded-for", client);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let content_type = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string());
    (status, content_type.unwrap_or_default(), resp.text().await.unwrap())
}

/// The value of the series named exactly `series` (name and labels), 0 when absent.
fn value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| {
            line.strip_prefix(series)?
                .strip_prefix(' ')?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(0.0)
}

async fn failed_login(served: &Served) -> u16 {
    let origin = served.app.state.settings.public_url.origin().ascii_serialization();
    reqwest::Client::new()
        .post(format!("{}/api/denglu", served.base))
        .header("origin", origin)
        .json(&json!({"username": "nobody_here", "password": "not the password"}))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn scrape_loopback_only_and_count_refusals(backend: Backend) {
    let served = serve(backend, "").await;
    let (status, content_type, before) = scrape(&served, None).await;
    assert_eq!(status, 200, "{before}");
    assert!(
        content_type.starts_with("application/openmetrics-text"),
        "{content_type}"
    );
    assert!(before.contains("# TYPE site_password_hash_queue gauge"), "{before}");
    assert!(before.trim_end().ends_with("# EOF"), "{before}");

    // Through the trusted proxy, for a client elsewhere: the site's 404 page, no metrics.
    let (status, _, text) = scrape(&served, Some("203.0.113.9")).await;
    let unknown_page = reqwest::get(format!("{}/no-such-page", served.base)).await.unwrap();
    assert_eq!(status, unknown_page.status().as_u16());
    assert_eq!(text, unknown_page.text().await.unwrap());
    assert!(!text.contains("site_http_requests_total"), "{text}");
    // ...and for a client on the proxy's host, the metrics.
    assert_eq!(scrape(&served, Some("127.0.0.1")).await.0, 200);

    // Refused logins are counted under their class, 401 until the limit, then 429.
    let mut statuses = Vec::new();
    loop {
        let status = failed_login(&served).await;
        statuses.push(status);
        if status == 429 || statuses.len() > 100 {
            break;
        }
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    let (_, _, after) = scrape(&served, None).await;
    let unauthorized = statuses.iter().filter(|s| **s == 401).count() as f64;
    let series = r#"site_http_requests_total{class="login",code="401"}"#;
    assert_eq!(value(&after, series) - value(&before, series), unauthorized, "{after}");
    let refused = r#"site_rate_limit_refusals_total{class="login"}"#;
    assert_eq!(value(&after, refused) - value(&before, refused), 1.0, "{after}");
    // Each refused login that was checked waited for a hashing turn.
    let waits = "site_password_hash_wait_seconds_count";
    assert!(value(&after, waits) - value(&before, waits) >= unauthorized, "{after}");
    // The refused scrape is counted as any request is; an allowed one is not a request to count.
    let scrapes = |text: &str| -> f64 {
        text.lines()
            .filter(|l| l.starts_with(r#"site_http_requests_total{class="metrics","#))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    };
    assert_eq!(scrapes(&after) - scrapes(&before), 1.0, "{after}");

    // A sign-up code whose mail cannot go out is counted as a mail failure.
    let mail = r#"site_mail_failures_total{kind="registerCode"}"#;
    let origin = served.app.state.settings.public_url.origin().ascii_serialization();
    reqwest::Client::new()
        .post(format!("{}/api/send-email", served.base))
        .header("origin", origin)
        .json(&json!({"email": "someone@example.com", "username": "someone", "preferredLanguage": "en"}))
        .send()
        .await
        .unwrap();
    let mut failed = 0.0;
    for _ in 0..200 {
        failed = value(&scrape(&served, None).await.2, mail) - value(&before, mail);
        if failed > 0.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(failed, 1.0, "{}", scrape(&served, None).await.2);
}

async fn metrics_allow_opens_the_endpoint_to_a_range(backend: Backend) {
    let served = serve(backend, "203.0.113.0/24").await;
    assert!(scrape(&served, Some("203.0.113.9"))
        .await
        .2
        .contains("site_http_requests_total"));
    assert!(!scrape(&served, Some("198.51.100.7"))
        .await
        .2
        .contains("site_http_requests_total"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_on_both_databases() {
    let mut backends = vec![Backend::Sqlite];
    if crate::helpers::postgres_available() {
        backends.push(Backend::Postgres);
    }
    for backend in backends {
        scrape_loopback_only_and_count_refusals(backend).await;
        metrics_allow_opens_the_endpoint_to_a_range(backend).await;
    }
}
