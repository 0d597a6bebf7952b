//! The password-hashing queue under a flood: a bystander keeps signing in. Its own test binary,
//! as the hashing threads are shared by every test of a process and this one measures the queue.

use crate::helpers::{client_from, tally, Backend, TestApp};
use futures_util::future::join_all;
use serde_json::json;

const PASSWORD: &str = "correct horse battery";

on_both_databases! {
    async fn a_bystander_keeps_signing_in_during_a_flood_from_one_48(backend: Backend) {
        // The real wait for a hashing turn (3 s), not the tests' patient one.
        let app = TestApp::with(backend, |s| {
            s.trusted_proxies = api::client_ip::parse_trusted_proxies("127.0.0.1").unwrap();
            s.hash_wait = api::passwords::HASH_WAIT;
        })
        .await;
        app.register("uma", "uma@example.com", PASSWORD).await;
        app.register("mallory", "mallory@example.com", PASSWORD).await;
        let remote = app.listen().await;
        let proxy = client_from("127.0.0.1");
        // Three hundred logins at once from ten /64s of one /48, with the attacker's own right
        // password (a success gives its counts back, so no failure limit stops them)...
        let flood = join_all((0..300).map(|i| {
            let (remote, proxy) = (&remote, &proxy);
            async move {
                let address = format!("2001:db8:9:{:x}::{:x}", i % 10, i + 1);
                let via = [("x-forwarded-for", address.as_str())];
                let body = json!({"username": "mallory", "password": PASSWORD});
                remote.post(proxy, "/api/denglu", body, &via).await
            }
        }));
        // ...while a member elsewhere signs in five times in a row.
        let bystander = async {
            let via = [("x-forwarded-for", "198.51.100.77")];
            let mut replies = Vec::new();
            for _ in 0..5 {
                replies.push(remote.post(&proxy, "/api/denglu", json!({"username": "uma", "password": PASSWORD}), &via).await);
            }
            replies
        };
        let (flood, mine) = futures_util::join!(flood, bystander);
        assert_eq!(tally(&mine), [(200, 5)].into(), "{:?}", mine.iter().map(|r| &r.text).collect::<Vec<_>>());
        let counts = tally(&flood);
        assert!(counts.keys().all(|s| [200, 429, 503].contains(s)), "{counts:?}");
    }
}
