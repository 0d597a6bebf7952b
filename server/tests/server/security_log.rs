//! Security events are logged as structured lines (an `event` field and who), never with secrets.

use crate::helpers::{client_from, tally, Reply};
use crate::process::ServeProcess;
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
    // The window of 900 s started with the first failure; the refusal may come a second or two
    // later (the client's logins queue for its places at the password hasher).
    let retry_after: u64 = limited
        .split("retry_after=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a retry_after: {limited}"));
    assert!(
        limited.contains("username=\"victim\"") && (880..=900).contains(&retry_after),
        "{limited}"
    );
    assert!(!log.contains("hunter2"), "the password was logged:\n{log}");
}

/// A database step that fails is logged with the step's name, so the operator knows where to look;
/// the client gets the translated 500 and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_database_step_is_logged_by_name() {
    use sea_orm::ConnectionTrait;
    let server = ServeProcess::start(&[("NO_COLOR", "1")]).await;
    let file = server.dir.path().join("data").join("site.db");
    let db = sea_orm::Database::connect(format!("sqlite://{}?mode=rw", file.display()))
        .await
        .unwrap();
    let url = format!("{}/api/send-email", server.base());
    let send = |source: &'static str| {
        let url = url.clone();
        async move {
            let resp = client_from(source)
                .post(&url)
                .json(&json!({"email": "someone@example.com", "username": "someone"}))
                .send()
                .await
                .unwrap();
            Reply::from_reqwest(resp).await
        }
    };

    // The limits pass and the mail's code cannot be stored.
    db.execute_unprepared("DROP TABLE email_codes").await.unwrap();
    let reply = send("127.0.5.2").await;
    assert_eq!(reply.status.as_u16(), 500, "{}", reply.text);
    assert_eq!(
        reply.field("message"),
        "Something went wrong on our side. Please try again later."
    );
    let log = server.wait_for_log("making the sign-up code").await;
    assert!(
        log.lines()
            .any(|l| l.contains("internal error: making the sign-up code: ") && l.contains("email_codes")),
        "{log}"
    );

    // Now the first step, counting the request against its limits, fails.
    db.execute_unprepared("DROP TABLE rate_limits").await.unwrap();
    let reply = send("127.0.5.3").await;
    assert_eq!(reply.status.as_u16(), 500, "{}", reply.text);
    let log = server.wait_for_log("counting the mail against its limits").await;
    assert!(
        log.lines()
            .any(|l| l.contains("internal error: counting the mail against its limits: ") && l.contains("rate_limits")),
        "{log}"
    );
}

/// Refusals other than logins leave an `event=` line too: a foreign Origin, a wrong code, a mail
/// limit, and a logout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_security_decisions_are_logged() {
    let server = ServeProcess::start(&[("RUST_LOG", "info"), ("NO_COLOR", "1")]).await;
    let client = client_from("127.0.5.2");
    let post = |path: &str, body: serde_json::Value, origin: Option<&str>| {
        let mut req = client.post(format!("{}{path}", server.base())).json(&body);
        if let Some(origin) = origin {
            req = req.header("origin", origin);
        }
        async move { req.send().await.unwrap().status().as_u16() }
    };
    let ask = json!({"username": "nobody", "email": "nobody@example.com"});
    assert_eq!(
        post("/api/send-verify-code", ask.clone(), Some("https://evil.example")).await,
        403
    );
    assert_eq!(post("/api/send-verify-code", ask.clone(), None).await, 200);
    assert_eq!(post("/api/send-verify-code", ask, None).await, 429);
    let guess = json!({"username": "nobody", "email": "nobody@example.com", "code": "123456"});
    assert_eq!(post("/api/verify-code", guess, None).await, 400);
    let logout = client
        .get(format!("{}/api/denglu?logout=true", server.base()))
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status().as_u16(), 200);
    let log = server.wait_for_log("event=\"logout\"").await;
    for event in ["origin_refused", "request_limited", "code_rejected", "logout"] {
        assert!(log.contains(&format!("event=\"{event}\"")), "no {event}:\n{log}");
    }
}
