//! Security events are logged as structured lines (an `event` field and who), never with secrets.

mod common;
use common::process::ServeProcess;
use common::{client_from, tally, Reply};
use futures_util::future::join_all;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_and_refused_logins_are_logged_without_the_password() {
    let server = ServeProcess::start(&[("RUST_LOG", "info"), ("NO_COLOR", "1")]).await;
    let guesser = client_from("127.0.5.1");
    let url = format!("{}/api/denglu", server.base());
    let replies = join_all((0..11).map(|_| async {
        let resp = guesser
            .post(&url)
            .json(&json!({"username": "victim", "password": "hunter2-secret"}))
            .send()
            .await
            .unwrap();
        Reply::from_reqwest(resp).await
    }))
    .await;
    assert_eq!(tally(&replies), [(401, 10), (429, 1)].into());
    let log = server.wait_for_log("login_limited").await;
    let failed: Vec<&str> = log.lines().filter(|l| l.contains("event=\"login_failed\"")).collect();
    assert_eq!(failed.len(), 10, "{log}");
    for line in failed {
        assert!(
            line.contains("username=\"victim\"") && line.contains("client=\"127.0.5.1\""),
            "{line}"
        );
    }
    let limited = log.lines().find(|l| l.contains("event=\"login_limited\"")).unwrap();
    assert!(
        limited.contains("username=\"victim\"") && limited.contains("retry_after=900"),
        "{limited}"
    );
    assert!(!log.contains("hunter2"), "the password was logged:\n{log}");
}
