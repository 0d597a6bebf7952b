//! `api serve` under a crowd: password checks queue for a turn at argon2 (one per core), so
//! memory stays bounded and every request gets an answer.

mod common;
use common::process::ServeProcess;
use common::{client_from, tally, Reply};
use futures_util::future::join_all;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_of_logins_is_answered_in_bounded_memory() {
    let server = ServeProcess::start(&[]).await;
    let base = server.base();
    // Fifty clients, ten logins each, every one for its own username: no limit stops them
    // before argon2, so all 500 want a password check at once.
    let clients: Vec<reqwest::Client> = (0..50).map(|i| client_from(&format!("127.0.1.{}", i + 1))).collect();
    let replies = join_all((0..500).map(|i| {
        let client = &clients[i % clients.len()];
        let url = format!("{base}/api/denglu");
        async move {
            let resp = client
                .post(url)
                .header("accept-language", "ja")
                .json(&json!({"username": format!("crowd{i}"), "password": "a wrong password"}))
                .send()
                .await
                .unwrap_or_else(|e| panic!("request {i} got no answer: {e}"));
            Reply::from_reqwest(resp).await
        }
    }))
    .await;
    let counts = tally(&replies);
    assert!(counts.keys().all(|s| [401, 429, 503].contains(s)), "{counts:?}");
    for busy in replies.iter().filter(|r| r.status == 503) {
        assert_eq!(busy.retry_after(), api::passwords::BUSY_RETRY_SECONDS);
        assert_eq!(
            busy.field("message"),
            "サーバーが混み合っています。数秒後にもう一度お試しください。"
        );
    }
    let peak_mib = server.status_kib("VmHWM") / 1024;
    eprintln!("500 logins at once: {counts:?}, peak memory {peak_mib} MiB");
    assert!(peak_mib < 200, "peak resident memory {peak_mib} MiB");
}
