//! Password reset: `/api/send-verify-code`, `/api/verify-code`, `/api/reset-password`.

use crate::helpers::{client_from, tally, Backend, TestApp};
use futures_util::future::join_all;
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

async fn reset(
    app: &TestApp,
    token: &str,
    username: &str,
    password: &str,
    cookie: Option<&str>,
) -> crate::helpers::Reply {
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
        // Eleven characters: enough under the earlier rule of 8, short of today's 12.
        let short = reset(&app, &token, "bea", "elevenchars", None).await;
        short.assert(StatusCode::BAD_REQUEST);
        assert!(short.field("message").contains("between 12 and 128"), "{}", short.field("message"));
        app.post("/api/denglu", json!({"username": "bea", "password": "elevenchars"}))
            .await
            .assert(StatusCode::UNAUTHORIZED);
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

    async fn another_client_cannot_spend_a_members_reset_mail(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("kim", "kim@example.com", OLD).await;
        let remote = app.listen().await;
        let ask = json!({"username": "kim", "email": "kim@example.com", "preferredLanguage": "en"});
        let attacker = client_from("127.0.0.2");
        let replies = join_all((0..6).map(|_| remote.post(&attacker, "/api/send-verify-code", ask.clone(), &[]))).await;
        assert_eq!(tally(&replies), [(200, 1), (429, 5)].into());
        app.wait_for_mails("kim@example.com", 2).await;
        // Kim, from her own address, still gets her code.
        let kim = client_from("127.0.0.3");
        remote.post(&kim, "/api/send-verify-code", ask.clone(), &[]).await.assert(StatusCode::OK);
        let mails = app.wait_for_mails("kim@example.com", 3).await;
        let code = mails.last().unwrap().code().unwrap();
        remote
            .post(&kim, "/api/verify-code", json!({"username": "kim", "email": "kim@example.com", "code": code}), &[])
            .await
            .assert(StatusCode::OK);
    }

    async fn one_address_gets_at_most_twenty_mails_an_hour(backend: Backend) {
        let app = TestApp::new(backend).await;
        let remote = app.listen().await;
        let crowd: Vec<reqwest::Client> = (10..35).map(|n| client_from(&format!("127.0.0.{n}"))).collect();
        let ask = json!({"email": "flood@example.com", "username": "flood", "preferredLanguage": "en"});
        let replies = join_all(crowd.iter().map(|c| remote.post(c, "/api/send-email", ask.clone(), &[]))).await;
        assert_eq!(tally(&replies), [(200, 20), (429, 5)].into());
        assert_eq!(app.mails_to("flood@example.com").len(), 20);
    }

    async fn simultaneous_guesses_spend_at_most_five_tries(backend: Backend) {
        use api::db::entities::email_code::RESET;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let app = TestApp::new(backend).await;
        let code = api::codes::issue(&app.state.db, &app.clock, &api::clock::OsEntropy, RESET, "lee@example.com", Some(1))
            .await
            .unwrap();
        // Thirty checks at once, each with the right code but refused by `belongs`: each one
        // that gets as far as comparing is counted.
        let compared = AtomicUsize::new(0);
        let now = app.state.now();
        let checks = join_all((0..30).map(|_| {
            api::codes::check(&app.state.db, now, RESET, "lee@example.com", &code, |_| {
                compared.fetch_add(1, Ordering::SeqCst);
                false
            })
        }))
        .await;
        assert!(checks.iter().all(|c| matches!(c, Ok(None))));
        assert_eq!(compared.load(Ordering::SeqCst), api::codes::MAX_TRIES as usize);
        let after = api::codes::check(&app.state.db, now, RESET, "lee@example.com", &code, |_| true).await.unwrap();
        assert!(after.is_none(), "five tries spent: the code is dead");
    }

    async fn simultaneous_wrong_codes_from_many_clients_spend_the_addresss_budget(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("max", "max@example.com", OLD).await;
        let code = reset_code(&app, "max", "max@example.com").await;
        let remote = app.listen().await;
        let clients: Vec<reqwest::Client> = (40..46).map(|n| client_from(&format!("127.0.0.{n}"))).collect();
        let wrong: Vec<String> = (0..30).map(|i| format!("{:06}", (code.parse::<u32>().unwrap() + 1 + i) % 1_000_000)).collect();
        let replies = join_all(wrong.iter().enumerate().map(|(i, guess)| {
            remote.post(&clients[i % clients.len()], "/api/verify-code", json!({"username": "max", "email": "max@example.com", "code": guess}), &[])
        }))
        .await;
        // Twenty guesses an hour for the address, however many clients share them.
        assert_eq!(tally(&replies), [(400, 20), (429, 10)].into());
        let late = remote
            .post(&clients[0], "/api/verify-code", json!({"username": "max", "email": "max@example.com", "code": code}), &[])
            .await;
        late.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!((1..=3600).contains(&late.retry_after()));
    }

    async fn new_codes_bring_no_new_guesses(backend: Backend) {
        // The probe of a guesser with twenty addresses behind a trusted proxy: each asks for a
        // new code and tries it five times, all at once. A new code used to bring five new tries
        // (95 of 100 guesses were checked); the address's budget holds it to twenty an hour.
        let app = TestApp::behind_loopback_proxy(backend).await;
        app.register("nell", "nell@example.com", OLD).await;
        // The sign-up mail's hour is over: the address's twenty mails an hour are the guesser's.
        app.clock.advance(3600);
        let remote = app.listen().await;
        let proxy = client_from("127.0.0.1");
        let addresses: Vec<String> = (1..=20).map(|n| format!("198.51.100.{n}")).collect();
        let guesser = |address: String| {
            let (remote, proxy) = (&remote, &proxy);
            async move {
                let via = [("x-forwarded-for", address.as_str())];
                let ask = remote.post(proxy, "/api/send-verify-code", json!({"username": "nell", "email": "nell@example.com"}), &via).await;
                ask.assert(StatusCode::OK);
                let mut replies = Vec::new();
                for guess in ["000000", "111111", "222222", "333333", "444444"] {
                    replies.push(remote.post(proxy, "/api/verify-code", json!({"username": "nell", "email": "nell@example.com", "code": guess}), &via).await);
                }
                replies
            }
        };
        let replies: Vec<crate::helpers::Reply> = join_all(addresses.into_iter().map(guesser)).await.into_iter().flatten().collect();
        let counts = tally(&replies);
        assert_eq!(counts.get(&429).copied(), Some(80), "{counts:?}");
        assert!(counts.get(&400).copied().unwrap_or(0) + counts.get(&200).copied().unwrap_or(0) == 20, "{counts:?}");
    }

    async fn a_reset_ends_every_other_token_and_code_of_the_member(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("lou", "lou@example.com", OLD).await;
        let first = token_for(&app, "lou", "lou@example.com").await;
        app.clock.advance(61);
        let second = token_for(&app, "lou", "lou@example.com").await;
        app.clock.advance(61);
        let code = reset_code(&app, "lou", "lou@example.com").await;
        reset(&app, &first, "lou", NEW, None).await.assert(StatusCode::OK);
        reset(&app, &second, "lou", "yet another password", None).await.assert(StatusCode::UNAUTHORIZED);
        app.post("/api/verify-code", json!({"username": "lou", "email": "lou@example.com", "code": code}))
            .await
            .assert(StatusCode::BAD_REQUEST);
        app.login("lou", NEW).await;
    }

    async fn a_crowd_cannot_block_a_members_own_reset_mail(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("olive", "olive@example.com", OLD).await;
        app.clock.advance(3600);
        let remote = app.listen().await;
        let home = client_from("127.0.7.50");
        let login = remote.post(&home, "/api/denglu", json!({"username": "olive", "password": OLD}), &[]).await;
        login.assert(StatusCode::OK);
        let device = login
            .headers
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string())
            .find(|v| v.starts_with("device="))
            .expect("a device cookie");
        // Twenty addresses ask for Olive's reset mail at once: the address's hourly ceiling.
        let crowd: Vec<reqwest::Client> = (1..=21).map(|n| client_from(&format!("127.0.7.{n}"))).collect();
        let ask = json!({"username": "olive", "email": "olive@example.com"});
        let replies = join_all(crowd.iter().map(|c| remote.post(c, "/api/send-verify-code", ask.clone(), &[]))).await;
        assert_eq!(tally(&replies), [(200, 20), (429, 1)].into());
        app.wait_for_mails("olive@example.com", 21).await;
        // Olive's own browser still gets her a code; a browser she never signed in from does not.
        remote.post(&home, "/api/send-verify-code", ask.clone(), &[("cookie", &device)]).await.assert(StatusCode::OK);
        let mails = app.wait_for_mails("olive@example.com", 22).await;
        let code = mails.last().unwrap().code().expect("a code");
        remote
            .post(&client_from("127.0.7.51"), "/api/send-verify-code", ask.clone(), &[])
            .await
            .assert(StatusCode::TOO_MANY_REQUESTS);
        remote
            .post(&home, "/api/verify-code", json!({"username": "olive", "email": "olive@example.com", "code": code}), &[])
            .await
            .assert(StatusCode::OK);
    }
}
