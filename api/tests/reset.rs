//! Password reset: `/api/send-verify-code`, `/api/verify-code`, `/api/reset-password`.

mod common;
use common::{Backend, TestApp};
use poem::http::StatusCode;
use serde_json::json;

const OLD: &str = "the old password";
const NEW: &str = "the new password";

/// Asks for a reset code and returns it from the mail.
async fn reset_code(app: &TestApp, username: &str, email: &str) -> String {
    let before = app.mails_to(email).len();
    app.post(
        "/api/send-verify-code",
        json!({"username": username, "email": email, "preferredLanguage": "en"}),
    )
    .await
    .assert(StatusCode::OK);
    let mails = app.wait_for_mails(email, before + 1).await;
    let mail = mails.last().unwrap();
    assert_eq!(mail.subject, "Your password reset code for 127.0.0.1");
    mail.code().expect("a code")
}

async fn token_for(app: &TestApp, username: &str, email: &str) -> String {
    let code = reset_code(app, username, email).await;
    let reply = app
        .post(
            "/api/verify-code",
            json!({"username": username, "email": email, "code": code}),
        )
        .await;
    reply.assert(StatusCode::OK);
    assert!(!reply.field("message").is_empty());
    reply.field("token")
}

async fn reset(app: &TestApp, token: &str, username: &str, password: &str, cookie: Option<&str>) -> common::Reply {
    let auth = format!("Bearer {token}");
    let mut headers = vec![("authorization", auth.as_str())];
    if let Some(cookie) = cookie {
        headers.push(("cookie", cookie));
    }
    app.post_with(
        "/api/reset-password",
        json!({"username": username, "newPassword": password}),
        &headers,
    )
    .await
}

on_both_databases! {
    async fn the_whole_reset_flow(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("uma", "uma@example.com", OLD).await;
        let laptop = app.login("uma", OLD).await;
        let phone = app.login("uma", OLD).await;
        let token = token_for(&app, "UMA", "Uma@Example.com").await;
        let reply = reset(&app, &token, "uma", NEW, Some(&phone)).await;
        reply.assert(StatusCode::OK);
        assert!(!reply.field("message").is_empty());
        // Other sessions end; the one that made the change stays.
        assert_eq!(app.logged_in_as(&laptop).await, None);
        assert_eq!(app.logged_in_as(&phone).await.as_deref(), Some("uma"));
        app.post("/api/denglu", json!({"username": "uma", "password": OLD})).await.assert(StatusCode::UNAUTHORIZED);
        app.login("uma", NEW).await;
        // The member hears about it.
        let mails = app.wait_for_mails("uma@example.com", 3).await;
        let notice = mails
            .iter()
            .find(|m| m.subject == "Your password on 127.0.0.1 was changed")
            .expect("a password-changed notice");
        // It says what to do if it was not the member, and how to reach the owner.
        assert!(notice.text.contains("reset your password at once"), "{}", notice.text);
        assert!(notice.text.contains("tell the site owner"), "{}", notice.text);
        // The token is single use.
        let again = reset(&app, &token, "uma", "another password", None).await;
        again.assert(StatusCode::UNAUTHORIZED);
        assert!(!again.field("message").is_empty());
    }

    async fn without_a_session_every_session_ends(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("vic", "vic@example.com", OLD).await;
        let session = app.login("vic", OLD).await;
        let token = token_for(&app, "vic", "vic@example.com").await;
        reset(&app, &token, "vic", NEW, None).await.assert(StatusCode::OK);
        assert_eq!(app.logged_in_as(&session).await, None);
    }

    async fn the_answer_does_not_reveal_accounts(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("wes", "wes@example.com", OLD).await;
        let known = app.post("/api/send-verify-code", json!({"username": "wes", "email": "wes@example.com"})).await;
        let unknown_user = app.post("/api/send-verify-code", json!({"username": "nobody", "email": "nobody@example.com"})).await;
        let wrong_pair = app.post("/api/send-verify-code", json!({"username": "wes", "email": "someone@example.com"})).await;
        for reply in [&known, &unknown_user, &wrong_pair] {
            reply.assert(StatusCode::OK);
            assert_eq!(reply.body, known.body);
        }
        app.wait_for_mails("wes@example.com", 2).await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert!(app.mails_to("nobody@example.com").is_empty());
        assert!(app.mails_to("someone@example.com").is_empty());
        // Verifying for an unknown account looks like a wrong code.
        let unknown = app.post("/api/verify-code", json!({"username": "nobody", "email": "nobody@example.com", "code": "123456"})).await;
        unknown.assert(StatusCode::BAD_REQUEST);
        let wrong = app.post("/api/verify-code", json!({"username": "wes", "email": "wes@example.com", "code": "123456"})).await;
        // (A one-in-a-million chance that 123456 is the real code.)
        if wrong.status == StatusCode::BAD_REQUEST {
            assert_eq!(unknown.body, wrong.body);
        }
        // The limit is counted for strangers too, so a 429 tells nothing either.
        let limited = app.post("/api/send-verify-code", json!({"username": "nobody", "email": "nobody@example.com"})).await;
        limited.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!(limited.retry_after() >= 1);
    }

    async fn five_wrong_codes_kill_the_reset_code(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("xia", "xia@example.com", OLD).await;
        let code = reset_code(&app, "xia", "xia@example.com").await;
        let wrong = if code == "999999" { "888888" } else { "999999" };
        for _ in 0..5 {
            let reply = app.post("/api/verify-code", json!({"username": "xia", "email": "xia@example.com", "code": wrong})).await;
            reply.assert(StatusCode::BAD_REQUEST);
            assert!(reply.field("message").contains("code"));
        }
        app.post("/api/verify-code", json!({"username": "xia", "email": "xia@example.com", "code": code}))
            .await
            .assert(StatusCode::BAD_REQUEST);
    }

    async fn a_code_only_works_with_its_username(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("yan", "yan@example.com", OLD).await;
        app.register("zed", "zed@example.com", OLD).await;
        let code = reset_code(&app, "yan", "yan@example.com").await;
        app.post("/api/verify-code", json!({"username": "zed", "email": "yan@example.com", "code": code}))
            .await
            .assert(StatusCode::BAD_REQUEST);
        app.post("/api/verify-code", json!({"username": "yan", "email": "yan@example.com", "code": code}))
            .await
            .assert(StatusCode::OK);
    }

    async fn reset_codes_and_tokens_expire(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("abe", "abe@example.com", OLD).await;
        let code = reset_code(&app, "abe", "abe@example.com").await;
        app.clock.advance(601);
        app.post("/api/verify-code", json!({"username": "abe", "email": "abe@example.com", "code": code}))
            .await
            .assert(StatusCode::BAD_REQUEST);
        app.clock.advance(61);
        let token = token_for(&app, "abe", "abe@example.com").await;
        app.clock.advance(15 * 60 + 1);
        reset(&app, &token, "abe", NEW, None).await.assert(StatusCode::UNAUTHORIZED);
        app.clock.advance(61);
        let token = token_for(&app, "abe", "abe@example.com").await;
        app.clock.advance(14 * 60);
        reset(&app, &token, "abe", NEW, None).await.assert(StatusCode::OK);
    }

    async fn reset_needs_the_right_token_username_and_password(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("bea", "bea@example.com", OLD).await;
        let token = token_for(&app, "bea", "bea@example.com").await;
        let no_auth = app.post("/api/reset-password", json!({"username": "bea", "newPassword": NEW})).await;
        no_auth.assert(StatusCode::UNAUTHORIZED);
        assert!(!no_auth.field("message").is_empty());
        reset(&app, "made-up-token", "bea", NEW, None).await.assert(StatusCode::UNAUTHORIZED);
        reset(&app, &token, "someone_else", NEW, None).await.assert(StatusCode::UNAUTHORIZED);
        let short = reset(&app, &token, "bea", "short", None).await;
        short.assert(StatusCode::BAD_REQUEST);
        assert!(short.field("message").contains("8 and 128"));
        // None of those used the token up.
        reset(&app, &token, "bea", NEW, None).await.assert(StatusCode::OK);
        app.login("bea", NEW).await;
    }

    async fn reset_mail_follows_the_preferred_language(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("cai", "cai@example.com", OLD).await;
        app.post("/api/send-verify-code", json!({"username": "cai", "email": "cai@example.com", "preferredLanguage": "zh"}))
            .await
            .assert(StatusCode::OK);
        let mails = app.wait_for_mails("cai@example.com", 2).await;
        assert_eq!(mails.last().unwrap().subject, "【127.0.0.1】您的密碼重設驗證碼");
        let reply = app
            .post_with("/api/send-verify-code", json!({"username": "cai", "email": "bad"}), &[("accept-language", "ja")])
            .await;
        reply.assert(StatusCode::BAD_REQUEST);
        assert_eq!(reply.field("message"), "有効なメールアドレスを入力してください。");
    }
}
