//! Who the client is for per-client limits: the TCP peer, or behind TRUSTED_PROXIES the
//! right-most forwarded address that is not a proxy. Requests go over real TCP connections.

use crate::helpers::{client_from, tally, Backend, Remote, TestApp};
use futures_util::future::join_all;
use poem::http::StatusCode;
use serde_json::json;

/// `count` failed logins at once, each for its own username, the i-th forwarded for
/// `forwarded_for(i)`; all must be checked (401).
async fn failed_logins(
    remote: &Remote,
    client: &reqwest::Client,
    count: usize,
    tag: &str,
    forwarded_for: impl Fn(usize) -> String,
) {
    let replies = join_all((0..count).map(|i| {
        let from = forwarded_for(i);
        async move {
            let body = json!({"username": format!("{tag}{i}"), "password": "wrong password"});
            remote
                .post(client, "/api/denglu", body, &[("x-forwarded-for", &from)])
                .await
        }
    }))
    .await;
    assert_eq!(tally(&replies), [(401, count)].into(), "every one of them was checked");
}

async fn login_status(remote: &Remote, client: &reqwest::Client, headers: &[(&str, &str)]) -> StatusCode {
    remote
        .post(
            client,
            "/api/denglu",
            json!({"username": "someone_new", "password": "wrong password"}),
            headers,
        )
        .await
        .status
}

async fn behind_proxy(backend: Backend) -> (TestApp, Remote) {
    let app = TestApp::with(backend, |s| {
        s.trusted_proxies = api::client_ip::parse_trusted_proxies("127.0.0.1/32").unwrap();
    })
    .await;
    let remote = app.listen().await;
    (app, remote)
}

on_both_databases! {
    async fn clients_behind_a_trusted_proxy_are_limited_one_by_one(backend: Backend) {
        let (_app, remote) = behind_proxy(backend).await;
        let proxy = client_from("127.0.0.1");
        failed_logins(&remote, &proxy, 30, "a", |_| "198.51.100.1".into()).await;
        assert_eq!(login_status(&remote, &proxy, &[("x-forwarded-for", "198.51.100.1")]).await, StatusCode::TOO_MANY_REQUESTS);
        // A forged entry left of what the proxy appended changes nothing.
        let forged = [("x-forwarded-for", "203.0.113.50, 198.51.100.1")];
        assert_eq!(login_status(&remote, &proxy, &forged).await, StatusCode::TOO_MANY_REQUESTS);
        // The next visitor through the same proxy is not locked out by the first one.
        assert_eq!(login_status(&remote, &proxy, &[("x-forwarded-for", "198.51.100.2")]).await, StatusCode::UNAUTHORIZED);
        assert_eq!(login_status(&remote, &proxy, &[("x-forwarded-for", "203.0.113.50, 198.51.100.3")]).await, StatusCode::UNAUTHORIZED);
    }

    async fn an_untrusted_peer_cannot_pick_its_address(backend: Backend) {
        let (_app, remote) = behind_proxy(backend).await;
        let direct = client_from("127.0.0.2");
        failed_logins(&remote, &direct, 30, "b", |i| format!("198.51.100.{i}")).await;
        assert_eq!(login_status(&remote, &direct, &[("x-forwarded-for", "198.51.100.99")]).await, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(login_status(&remote, &direct, &[]).await, StatusCode::TOO_MANY_REQUESTS);
        // Another peer is another client.
        assert_eq!(login_status(&remote, &client_from("127.0.0.3"), &[]).await, StatusCode::UNAUTHORIZED);
    }

    async fn ipv6_clients_count_per_64(backend: Backend) {
        let (_app, remote) = behind_proxy(backend).await;
        let proxy = client_from("127.0.0.1");
        failed_logins(&remote, &proxy, 30, "c", |i| format!("2001:db8:1:2:{i:x}::1")).await;
        let same_64 = [("x-forwarded-for", "2001:db8:1:2:ffff:ffff:ffff:ffff")];
        assert_eq!(login_status(&remote, &proxy, &same_64).await, StatusCode::TOO_MANY_REQUESTS);
        let next_64 = [("x-forwarded-for", "2001:db8:1:3::1")];
        assert_eq!(login_status(&remote, &proxy, &next_64).await, StatusCode::UNAUTHORIZED);
    }
}
