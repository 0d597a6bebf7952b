//! Sign-up: `/api/send-email` and `/api/register`, with invitations, codes and their limits.

use crate::helpers::{Backend, TestApp};
use poem::http::StatusCode;
use serde_json::{json, Value};

const PASSWORD: &str = "a fine password";

fn form(username: &str, email: &str, invite: &str, code: &str) -> Value {
    json!({"username": username, "password": PASSWORD, "email": email,
           "invitationCode": invite, "emailVerificationCode": code})
}

on_both_databases! {
    async fn the_code_arrives_in_the_chosen_language(backend: Backend) {
        let app = TestApp::new(backend).await;
        for (lang, address, subject) in [
            ("en", "en@example.com", "Your sign-up verification code for 127.0.0.1"),
            ("zh", "zh@example.com", "【127.0.0.1】您的註冊驗證碼"),
            ("ja", "ja@example.com", "【127.0.0.1】会員登録の確認コード"),
        ] {
            let reply = app.post("/api/send-email", json!({"email": address, "username": "newbie", "preferredLanguage": lang})).await;
            reply.assert(StatusCode::OK);
            assert!(!reply.field("message").is_empty());
            let mails = app.wait_for_mails(address, 1).await;
            let mail = &mails[0];
            assert_eq!(mail.subject, subject);
            let code = mail.code().expect("code in the text part");
            assert_eq!(code.len(), 6);
            assert!(mail.html.contains(&code), "the HTML part carries the code too");
            assert!(mail.text.contains("newbie"));
        }
        // Nothing but hashes in the database.
        use sea_orm::EntityTrait;
        let stored = api::db::entities::email_code::Entity::find().all(&app.state.db).await.unwrap();
        assert_eq!(stored.len(), 3);
        for row in stored {
            assert_eq!(row.code_hash.len(), 64);
        }
    }

    async fn a_valid_invitation_and_code_make_a_member(backend: Backend) {
        let app = TestApp::new(backend).await;
        let invite = app.invite(2, Some(7)).await;
        let code = app.signup_code("hana@example.com", "hana").await;
        let reply = app.post("/api/register", form("hana", "Hana@Example.com", &invite.to_lowercase(), &code)).await;
        reply.assert(StatusCode::OK);
        assert!(!reply.field("message").is_empty());
        let cookie = app.login("hana", PASSWORD).await;
        assert_eq!(app.logged_in_as(&cookie).await.as_deref(), Some("hana"));
        let invites = api::invites::list(&app.state.db).await.unwrap();
        assert_eq!(invites[0].uses, 1);
        // The code is single use.
        let again = app.post("/api/register", form("hana2", "hana@example.com", &invite, &code)).await;
        again.assert(StatusCode::BAD_REQUEST);
        assert!(again.field("error").contains("code"));
    }

    async fn five_wrong_codes_kill_the_code(backend: Backend) {
        let app = TestApp::new(backend).await;
        let invite = app.invite(1, None).await;
        let code = app.signup_code("ivan@example.com", "ivan").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            let reply = app.post("/api/register", form("ivan", "ivan@example.com", &invite, wrong)).await;
            reply.assert(StatusCode::BAD_REQUEST);
            assert_eq!(reply.field("error"), "The verification code is wrong or has expired. Please request a new one.");
        }
        app.post("/api/register", form("ivan", "ivan@example.com", &invite, &code)).await.assert(StatusCode::BAD_REQUEST);
        // A new code works, and the invitation was never used.
        app.clock.advance(61);
        let fresh = app.signup_code("ivan@example.com", "ivan").await;
        app.post("/api/register", form("ivan", "ivan@example.com", &invite, &fresh)).await.assert(StatusCode::OK);
    }

    async fn codes_expire_after_ten_minutes(backend: Backend) {
        let app = TestApp::new(backend).await;
        let invite = app.invite(1, None).await;
        let code = app.signup_code("jo@example.com", "jo_jo").await;
        app.clock.advance(601);
        app.post("/api/register", form("jo_jo", "jo@example.com", &invite, &code)).await.assert(StatusCode::BAD_REQUEST);
        let code = app.signup_code("jo@example.com", "jo_jo").await;
        app.clock.advance(599);
        app.post("/api/register", form("jo_jo", "jo@example.com", &invite, &code)).await.assert(StatusCode::OK);
    }

    async fn a_new_code_replaces_the_old_one(backend: Backend) {
        let app = TestApp::new(backend).await;
        let invite = app.invite(1, None).await;
        let old = app.signup_code("kim@example.com", "kim").await;
        app.clock.advance(61);
        let new = app.signup_code("kim@example.com", "kim").await;
        if old != new {
            app.post("/api/register", form("kim", "kim@example.com", &invite, &old)).await.assert(StatusCode::BAD_REQUEST);
        }
        app.post("/api/register", form("kim", "kim@example.com", &invite, &new)).await.assert(StatusCode::OK);
    }

    async fn a_code_is_bound_to_its_address(backend: Backend) {
        let app = TestApp::new(backend).await;
        let invite = app.invite(1, None).await;
        let code = app.signup_code("lee@example.com", "lee").await;
        app.post("/api/register", form("lee", "other@example.com", &invite, &code)).await.assert(StatusCode::BAD_REQUEST);
    }

    async fn sends_are_limited_per_address(backend: Backend) {
        let app = TestApp::new(backend).await;
        let send = || app.post("/api/send-email", json!({"email": "max@example.com", "username": "max"}));
        send().await.assert(StatusCode::OK);
        let limited = send().await;
        limited.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!((1..=60).contains(&limited.retry_after()));
        assert!(!limited.field("message").is_empty());
        for _ in 0..4 {
            app.clock.advance(61);
            send().await.assert(StatusCode::OK);
        }
        app.clock.advance(61);
        let hourly = send().await;
        hourly.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!(hourly.retry_after() > 60, "the hourly limit waits longer: {}", hourly.retry_after());
        assert_eq!(app.mails_to("max@example.com").len(), 5);
        app.clock.advance(hourly.retry_after() as i64);
        send().await.assert(StatusCode::OK);
    }

    async fn sends_are_limited_per_client(backend: Backend) {
        let app = TestApp::new(backend).await;
        for i in 0..20 {
            app.post("/api/send-email", json!({"email": format!("n{i}@example.com"), "username": "nat"})).await.assert(StatusCode::OK);
        }
        let limited = app.post("/api/send-email", json!({"email": "n99@example.com", "username": "nat"})).await;
        limited.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!(limited.retry_after() >= 1);
    }

    async fn invitations_must_be_valid(backend: Backend) {
        let app = TestApp::new(backend).await;
        let expiring = app.invite(1, Some(1)).await;
        app.clock.advance(86_400);
        let code = app.signup_code("olga@example.com", "olga").await;
        let unknown = app.post("/api/register", form("olga", "olga@example.com", "AAAA-BBBB-CCCC", &code)).await;
        unknown.assert(StatusCode::BAD_REQUEST);
        assert!(unknown.field("error").contains("invitation"));
        let empty = app.post("/api/register", form("olga", "olga@example.com", "", &code)).await;
        empty.assert(StatusCode::BAD_REQUEST);

        let expired = app.post("/api/register", form("olga", "olga@example.com", &expiring, &code)).await;
        expired.assert(StatusCode::BAD_REQUEST);
        assert!(expired.field("error").contains("invitation"));

        let revoked = app.invite(1, None).await;
        assert!(api::invites::revoke(&app.state.db, &app.state.invite_key, &revoked).await.unwrap());
        app.post("/api/register", form("olga", "olga@example.com", &revoked, &code)).await.assert(StatusCode::BAD_REQUEST);

        // None of those failures used the code.
        let good = app.invite(1, None).await;
        app.post("/api/register", form("olga", "olga@example.com", &good, &code)).await.assert(StatusCode::OK);
        // A one-use invitation is used up.
        app.clock.advance(61);
        let code = app.signup_code("pia@example.com", "pia").await;
        let used = app.post("/api/register", form("pia", "pia@example.com", &good, &code)).await;
        used.assert(StatusCode::BAD_REQUEST);
        assert!(used.field("error").contains("invitation"));
    }

    async fn a_failing_registration_consumes_nothing(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("Quinn", "quinn@example.com", PASSWORD).await;
        let invite = app.invite(1, None).await;
        let code = app.signup_code("quinn2@example.com", "quinn").await;
        // Taken regardless of case.
        let taken = app.post("/api/register", form("QUINN", "quinn2@example.com", &invite, &code)).await;
        taken.assert(StatusCode::BAD_REQUEST);
        assert_eq!(taken.field("error"), "This username is already taken. Please choose another one.");
        let invites = api::invites::list(&app.state.db).await.unwrap();
        assert!(invites.iter().all(|i| i.uses <= 1));
        assert_eq!(invites.last().unwrap().uses, 0, "the invitation use rolled back");
        // Same invitation, same code, another name: accepted.
        app.post("/api/register", form("quinn_two", "quinn2@example.com", &invite, &code)).await.assert(StatusCode::OK);
    }

    async fn racing_sign_ups_cannot_share_the_last_use(backend: Backend) {
        let app = TestApp::new(backend).await;
        let invite = app.invite(1, None).await;
        let mut forms = Vec::new();
        for i in 0..6 {
            let email = format!("race{i}@example.com");
            let code = app.signup_code(&email, "racer").await;
            forms.push(form(&format!("racer{i}"), &email, &invite, &code));
        }
        let replies = futures_util::future::join_all(forms.into_iter().map(|f| app.post("/api/register", f))).await;
        let statuses: Vec<StatusCode> = replies.iter().map(|r| r.status).collect();
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{statuses:?}");
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::BAD_REQUEST).count(), 5, "{statuses:?}");
        assert_eq!(api::members::list(&app.state.db).await.unwrap().len(), 1);
        assert_eq!(api::invites::list(&app.state.db).await.unwrap()[0].uses, 1);
    }

    async fn field_rules_are_checked_on_the_server(backend: Backend) {
        let app = TestApp::new(backend).await;
        let invite = app.invite(5, None).await;
        let code = app.signup_code("rules@example.com", "rules").await;
        // Eleven characters: enough under the earlier rule of 8, short of today's 12.
        let short = json!({"username": "rules", "password": "elevenchars", "email": "rules@example.com",
                            "invitationCode": invite, "emailVerificationCode": code});
        for (lang, rule) in [("en", "between 12 and 128"), ("zh", "介於 12 到 128"), ("ja", "12〜128 文字")] {
            let reply = app.post_with("/api/register", short.clone(), &[("accept-language", lang)]).await;
            reply.assert(StatusCode::BAD_REQUEST);
            assert!(reply.field("error").contains(rule), "{lang}: {}", reply.field("error"));
        }
        app.post("/api/denglu", json!({"username": "rules", "password": "elevenchars"}))
            .await
            .assert(StatusCode::UNAUTHORIZED);
        let long = json!({"username": "rules", "password": "x".repeat(129), "email": "rules@example.com",
                           "invitationCode": invite, "emailVerificationCode": code});
        app.post("/api/register", long).await.assert(StatusCode::BAD_REQUEST);
        for name in ["ab", "has space", "x".repeat(33).as_str(), "emoji😀"] {
            let reply = app.post("/api/register", form(name, "rules@example.com", &invite, &code)).await;
            reply.assert(StatusCode::BAD_REQUEST);
            assert!(reply.field("error").contains("3 to 32"), "{name}");
        }
        let bad_email = app.post("/api/register", form("rules", "not-an-email", &invite, &code)).await;
        bad_email.assert(StatusCode::BAD_REQUEST);
        assert_eq!(bad_email.field("error"), "Please enter a valid email address.");
        let chinese = app
            .post_with("/api/register", form("ab", "rules@example.com", &invite, &code), &[("cookie", "selectedLanguage=zh")])
            .await;
        assert!(chinese.field("error").contains("使用者名稱"));
        // The code survived all of that (rule failures are not tries).
        let ok = json!({"username": "rules", "password": "x".repeat(128), "email": "rules@example.com",
                         "invitationCode": invite, "emailVerificationCode": code});
        app.post("/api/register", ok).await.assert(StatusCode::OK);
        app.login("rules", &"x".repeat(128)).await;
    }

    async fn send_email_checks_its_fields(backend: Backend) {
        let app = TestApp::new(backend).await;
        let bad = app.post("/api/send-email", json!({"email": "no at sign", "username": "sam", "preferredLanguage": "ja"})).await;
        bad.assert(StatusCode::BAD_REQUEST);
        assert_eq!(bad.field("message"), "有効なメールアドレスを入力してください。");
        app.post("/api/send-email", json!({"email": "sam@example.com", "username": "s"})).await.assert(StatusCode::BAD_REQUEST);
        app.post("/api/send-email", json!({"username": "sam"})).await.assert(StatusCode::BAD_REQUEST);
        assert!(app.mails_to("sam@example.com").is_empty());
    }

    async fn a_members_address_gets_a_notice_and_the_same_answer(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("tom", "tom@example.com", PASSWORD).await;
        let member = app.post("/api/send-email", json!({"email": "TOM@example.com", "username": "tommy"})).await;
        let stranger = app.post("/api/send-email", json!({"email": "tim@example.com", "username": "tommy"})).await;
        member.assert(StatusCode::OK);
        stranger.assert(StatusCode::OK);
        assert_eq!(member.body, stranger.body);
        let mails = app.wait_for_mails("tom@example.com", 2).await;
        let notice = mails.last().unwrap();
        assert_eq!(notice.subject, "Sign-up attempt with your email address on 127.0.0.1");
        // It names the account the address belongs to, and how to reach the owner.
        assert!(notice.text.contains("username tom."), "{}", notice.text);
        assert!(notice.text.contains("log in as tom;"), "{}", notice.text);
        assert!(notice.text.contains("To reach the site owner"), "{}", notice.text);
        assert_eq!(notice.code(), None, "no code for an address that is already a member's");
        // And a second account on the same address is refused even with a code from before.
        app.clock.advance(61);
        let invite = app.invite(1, None).await;
        let code = app.signup_code("tim@example.com", "tim").await;
        app.post("/api/register", form("tim", "tim@example.com", &invite, &code)).await.assert(StatusCode::OK);
        let again = app.post("/api/register", form("tim2", "tim@example.com", &invite, &code)).await;
        again.assert(StatusCode::BAD_REQUEST);
    }

    async fn register_errors_use_the_error_field(backend: Backend) {
        let app = TestApp::new(backend).await;
        let bad_json = crate::helpers::Reply::read(app.client.post("/api/register").content_type("application/json").body("[1,2").send().await.0).await;
        bad_json.assert(StatusCode::BAD_REQUEST);
        assert!(!bad_json.field("error").is_empty());
        assert!(bad_json.body.get("message").is_none());
        let missing = app.post("/api/register", json!({"username": "u_u"})).await;
        missing.assert(StatusCode::BAD_REQUEST);
        assert!(!missing.field("error").is_empty());
        let text = crate::helpers::Reply::read(app.client.post("/api/register").content_type("text/plain").body("hi").send().await.0).await;
        text.assert(StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(!text.field("error").is_empty());
    }

    async fn invitation_codes_are_stored_under_the_servers_key(backend: Backend) {
        let app = TestApp::new(backend).await;
        let code = app.invite(1, None).await;
        let stored = api::invites::list(&app.state.db).await.unwrap()[0].code_hash.clone();
        assert_ne!(stored, api::secrets::digest(&code), "not a bare SHA-256 anyone could search");
        let key_file = app.state.settings.data_dir.join(api::invites::KEY_FILE);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&key_file).unwrap().permissions().mode() & 0o777, 0o600);
        }
        // A server with another key on the same database cannot use the code.
        let url = app.database_url.clone();
        let other = TestApp::with(backend, |s| {
            s.database_url = url;
            s.invite_key = Some("another key of at least thirty-two chars".into());
        })
        .await;
        let email_code = other.signup_code("pia@example.com", "pia").await;
        let refused = other
            .post("/api/register", json!({"username": "pia", "password": "password1234", "email": "pia@example.com",
                                           "invitationCode": code, "emailVerificationCode": email_code}))
            .await;
        refused.assert(StatusCode::BAD_REQUEST);
        assert_eq!(refused.field("error"), "The invitation code is not valid, has expired or has no uses left.");
        app.clock.advance(61);
        app.register_with_invite("pia", "pia@example.com", &code).await;
        // A code made before codes were keyed (its bare SHA-256) still works.
        use sea_orm::{EntityTrait, Set};
        api::db::entities::invite::Entity::insert(api::db::entities::invite::ActiveModel {
            code_hash: Set(api::secrets::digest("OLDC-ODE2-3456")),
            code_hint: Set("OLDC".into()),
            max_uses: Set(1),
            uses: Set(0),
            expires_at: Set(None),
            revoked: Set(false),
            created_at: Set(0),
            ..Default::default()
        })
        .exec(&app.state.db)
        .await
        .unwrap();
        app.register_with_invite("quinn", "quinn@example.com", "oldc-ode2-3456").await;
        assert!(api::invites::InviteKey::load(app.dir.path(), Some("too short")).is_err());
    }
}
