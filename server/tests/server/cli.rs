//! The owner's command line: `api invite create|list|revoke` and `api members list`.

use crate::helpers::{Backend, TestApp};
use poem::http::StatusCode;
use serde_json::json;
use std::process::Command;

fn api_cli(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    crate::process::run_api(|api| {
        api.args(args)
            .env("DATA_DIR", app.dir.path().join("data"))
            .env("DATABASE_URL", &app.database_url)
    })
}

on_both_databases! {
    async fn invite_create_prints_the_code_last(backend: Backend) {
        let app = TestApp::new(backend).await;
        let (ok, out, err) = api_cli(&app, &["invite", "create", "--uses", "2", "--expires-days", "3"]);
        assert!(ok, "{err}");
        let code = out.lines().last().unwrap().trim().to_string();
        assert_eq!(code.len(), 14, "{out}");
        assert!(out.contains("2 uses"));
        // The code works twice, then no more.
        for (name, email) in [("first", "first@example.com"), ("second", "second@example.com")] {
            let email_code = app.signup_code(email, name).await;
            app.post("/api/register", json!({"username": name, "password": "password1234", "email": email,
                                             "invitationCode": code, "emailVerificationCode": email_code}))
                .await
                .assert(StatusCode::OK);
        }
        let email_code = app.signup_code("third@example.com", "third").await;
        app.post("/api/register", json!({"username": "third", "password": "password1234", "email": "third@example.com",
                                         "invitationCode": code, "emailVerificationCode": email_code}))
            .await
            .assert(StatusCode::BAD_REQUEST);

        let (ok, list, _) = api_cli(&app, &["invite", "list"]);
        assert!(ok);
        assert!(list.contains(&format!("{}-…", &code[..4])), "{list}");
        assert!(list.contains("2/2") && list.contains("used up"), "{list}");
        assert!(!list.contains(&code), "the full code is never shown again");

        let (ok, members, _) = api_cli(&app, &["members", "list"]);
        assert!(ok);
        assert!(members.contains("first") && members.contains("second@example.com"), "{members}");
        assert!(!members.contains("third"));
    }

    async fn invite_revoke_stops_a_code(backend: Backend) {
        let app = TestApp::new(backend).await;
        let (_, out, _) = api_cli(&app, &["invite", "create"]);
        let code = out.lines().last().unwrap().trim().to_string();
        let (ok, _, err) = api_cli(&app, &["invite", "revoke", &code.to_lowercase()]);
        assert!(ok, "{err}");
        let (_, list, _) = api_cli(&app, &["invite", "list"]);
        assert!(list.contains("revoked"), "{list}");
        let email_code = app.signup_code("rev@example.com", "rev").await;
        app.post("/api/register", json!({"username": "rev", "password": "password1234", "email": "rev@example.com",
                                         "invitationCode": code, "emailVerificationCode": email_code}))
            .await
            .assert(StatusCode::BAD_REQUEST);
        let (ok, _, err) = api_cli(&app, &["invite", "revoke", "ZZZZ-ZZZZ-ZZZZ"]);
        assert!(!ok);
        assert!(err.contains("no invitation"), "{err}");
    }
}

#[test]
fn serve_help_lists_every_environment_variable() {
    let (_, help, _) = crate::process::run_api(|api| api.args(["serve", "--help"]));
    for var in [
        "PORT",
        "LISTEN",
        "LOG_FORMAT",
        "DIST_DIR",
        "DATA_DIR",
        "DATABASE_URL",
        "PUBLIC_URL",
        "SMTP_URL",
        "MAIL_FROM",
        "BLOG_FEED_URL",
        "FEED_CACHE_SECONDS",
        "GOOGLE_CLIENT_ID",
        "GOOGLE_CLIENT_SECRET",
        "GOOGLE_AUTH_URL",
        "GOOGLE_TOKEN_URL",
        "GOOGLE_USERINFO_URL",
        "RATE_LIMIT_SCALE",
        "TRUSTED_PROXIES",
        "INVITE_KEY",
    ] {
        assert!(
            help.contains(&format!("env: {var}")),
            "{var} missing from serve --help:\n{help}"
        );
    }
}

/// deploy/api.env.example is what an operator copies: it names every setting `serve` reads.
#[test]
fn the_example_environment_file_names_every_setting() {
    let (_, help, _) = crate::process::run_api(|api| api.args(["serve", "--help"]));
    let example = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/api.env.example")).unwrap();
    let named: Vec<&str> = example
        .lines()
        .filter_map(|l| l.trim_start_matches('#').split_once('=').map(|(name, _)| name.trim()))
        .collect();
    let read: Vec<&str> = help
        .split("[env: ")
        .skip(1)
        .filter_map(|rest| rest.split(['=', ']']).next())
        .collect();
    assert!(read.len() >= 15, "{help}");
    for var in read {
        assert!(named.contains(&var), "{var} is missing from deploy/api.env.example");
    }
}

#[test]
fn a_bad_trusted_proxy_range_stops_the_server_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_api"))
        .args(["serve", "--port", "0", "--trusted-proxies", "10.0.0.0/8,10.0.0.0/33"])
        .env("DATA_DIR", dir.path())
        .env("DIST_DIR", dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("TRUSTED_PROXIES") && err.contains("10.0.0.0/33"), "{err}");
}

/// `api serve` on a built site with `smtp_url`, told to listen where another socket already
/// listens: (success, standard error). A start whose mail settings pass stops at the listener.
fn serve_with_smtp(dir: &std::path::Path, smtp_url: &str) -> (bool, String) {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_api"))
        .arg("serve")
        .env("LISTEN", taken.local_addr().unwrap().to_string())
        .env("DATA_DIR", dir.join("data"))
        .env("DIST_DIR", crate::process::minimal_dist(dir))
        .env_remove("DATABASE_URL")
        .env("SMTP_URL", smtp_url)
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn smtp_credentials_without_tls_stop_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, err) = serve_with_smtp(dir.path(), "smtp://mailer:hunter2@127.0.0.1:2525");
    assert!(!ok);
    assert!(err.contains("SMTP_URL") && err.contains("tls=required"), "{err}");
    assert!(!err.contains("hunter2"), "the password is never printed: {err}");
    // With TLS the mail settings pass, and the server goes on to its listener.
    for allowed in [
        "smtps://mailer:hunter2@127.0.0.1:2525",
        "smtp://mailer:hunter2@127.0.0.1:2525?tls=required",
    ] {
        let (_, err) = serve_with_smtp(dir.path(), allowed);
        assert!(
            !err.contains("no TLS") && err.contains("cannot listen on"),
            "{allowed}: {err}"
        );
    }
}

/// Codes in a mail sent in clear to another machine can be read on the way, credentials or not.
#[test]
fn plain_smtp_to_a_host_that_is_not_loopback_stops_the_server() {
    let dir = tempfile::tempdir().unwrap();
    for refused in [
        "smtp://mail.example.test:25",
        "smtp://192.0.2.7:2525",
        "smtp://[2001:db8::1]:25",
    ] {
        let (ok, err) = serve_with_smtp(dir.path(), refused);
        assert!(!ok, "{refused}");
        assert!(
            err.contains("SMTP_URL") && err.contains("not loopback"),
            "{refused}: {err}"
        );
    }
    // TLS, or a relay on this machine, and the server goes on to its listener.
    for allowed in [
        "smtp://mail.example.test:25?tls=required",
        "smtps://mail.example.test",
        "smtp://127.0.0.1:2525",
        "smtp://localhost:25",
        "smtp://[::1]:25",
    ] {
        let (_, err) = serve_with_smtp(dir.path(), allowed);
        assert!(
            !err.contains("not loopback") && err.contains("cannot listen on"),
            "{allowed}: {err}"
        );
    }
}
