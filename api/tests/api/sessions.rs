//! `/api/denglu/sessions`: a member sees their sessions and ends one of them, never another
//! member's; "sign out everywhere" leaves none to list.

use crate::helpers::{Backend, Reply, TestApp};
use poem::http::StatusCode;
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery";
const FIREFOX_ON_WINDOWS: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0";
const CHROME_ON_ANDROID: &str =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";

/// Logs in from a browser that says `user_agent`; the `session=...` pair.
async fn login_from(app: &TestApp, username: &str, user_agent: &str) -> String {
    let reply = app
        .post_with(
            "/api/denglu",
            json!({"username": username, "password": PASSWORD}),
            &[("user-agent", user_agent)],
        )
        .await;
    reply.assert(StatusCode::OK);
    reply.session_cookie().expect("a session cookie")
}

/// The sessions the member signed in by `cookie` sees.
async fn list(app: &TestApp, cookie: &str) -> Vec<Value> {
    let reply = app.get("/api/denglu/sessions", &[("cookie", cookie)]).await;
    reply.assert(StatusCode::OK);
    reply.body["sessions"].as_array().expect("a list").clone()
}

async fn end(app: &TestApp, cookie: &str, id: &str, extra: &[(&str, &str)]) -> Reply {
    let mut req = app
        .client
        .delete(format!("/api/denglu/sessions/{id}"))
        .header("cookie", cookie);
    for (name, value) in extra {
        req = req.header(*name, *value);
    }
    Reply::read(req.send().await.0).await
}

fn id_of(session: &Value) -> String {
    session["id"].as_str().expect("an id").to_string()
}

/// The id of the one session in `sessions` that is not the current one.
fn other_id(sessions: &[Value]) -> String {
    let others: Vec<&Value> = sessions.iter().filter(|s| s["current"] == json!(false)).collect();
    assert_eq!(others.len(), 1, "{sessions:?}");
    id_of(others[0])
}

on_both_databases! {
    async fn two_logins_list_two_sessions_with_the_current_one_marked(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("nico", "nico@example.com", PASSWORD).await;
        let laptop = login_from(&app, "nico", FIREFOX_ON_WINDOWS).await;
        app.clock.advance(2 * 3600);
        let phone = login_from(&app, "nico", CHROME_ON_ANDROID).await;

        let seen_from_laptop = list(&app, &laptop).await;
        assert_eq!(seen_from_laptop.len(), 2, "{seen_from_laptop:?}");
        let current: Vec<&Value> = seen_from_laptop.iter().filter(|s| s["current"] == json!(true)).collect();
        assert_eq!(current.len(), 1);
        assert_eq!(current[0]["browser"], json!("Firefox"));
        assert_eq!(current[0]["os"], json!("Windows"));
        let other = seen_from_laptop.iter().find(|s| s["current"] == json!(false)).unwrap();
        assert_eq!(other["browser"], json!("Chrome"));
        assert_eq!(other["os"], json!("Android"));
        // The phone's login is the later one, and the most recently used comes first.
        assert_eq!(other, &seen_from_laptop[0]);
        assert_eq!(
            other["startedAt"].as_i64().unwrap() - current[0]["startedAt"].as_i64().unwrap(),
            2 * 3600
        );
        assert!(current[0]["lastUsedAt"].as_i64().unwrap() >= current[0]["startedAt"].as_i64().unwrap());

        // Seen from the phone, the other one is current.
        let seen_from_phone = list(&app, &phone).await;
        let phone_current = seen_from_phone.iter().find(|s| s["current"] == json!(true)).unwrap();
        assert_eq!(phone_current["browser"], json!("Chrome"));

        // Neither the cookie value nor the hash the database keys it by is shown.
        let text = serde_json::to_string(&seen_from_laptop).unwrap();
        for cookie in [&laptop, &phone] {
            let token = cookie.split_once('=').unwrap().1;
            assert!(!text.contains(token));
            assert!(!text.contains(&api::secrets::digest(token)));
        }
    }

    async fn another_members_session_is_refused_and_keeps_working(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("nico", "nico@example.com", PASSWORD).await;
        app.register("olga", "olga@example.com", PASSWORD).await;
        let nico = login_from(&app, "nico", FIREFOX_ON_WINDOWS).await;
        let olga = login_from(&app, "olga", CHROME_ON_ANDROID).await;
        let olgas = list(&app, &olga).await;
        assert_eq!(olgas.len(), 1);
        let olgas_id = id_of(&olgas[0]);

        let refused = end(&app, &nico, &olgas_id, &[]).await;
        refused.assert(StatusCode::NOT_FOUND);
        assert_eq!(refused.field("message"), "This session has already ended, or it is not yours.");
        let refused_zh = end(&app, &nico, &olgas_id, &[("accept-language", "zh-TW")]).await;
        refused_zh.assert(StatusCode::NOT_FOUND);
        assert_eq!(refused_zh.field("message"), "此登入工作階段已經結束，或不屬於您的帳號。");
        end(&app, &nico, "not-an-id", &[]).await.assert(StatusCode::NOT_FOUND);

        assert_eq!(app.logged_in_as(&olga).await.as_deref(), Some("olga"));
        assert_eq!(list(&app, &olga).await, olgas);
        assert_eq!(app.logged_in_as(&nico).await.as_deref(), Some("nico"));
    }

    async fn ending_one_session_ends_only_it(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("nico", "nico@example.com", PASSWORD).await;
        let laptop = login_from(&app, "nico", FIREFOX_ON_WINDOWS).await;
        let phone = login_from(&app, "nico", CHROME_ON_ANDROID).await;
        let phone_id = other_id(&list(&app, &laptop).await);
        let tablet = login_from(&app, "nico", CHROME_ON_ANDROID).await;

        let ended = end(&app, &laptop, &phone_id, &[]).await;
        ended.assert(StatusCode::NO_CONTENT);
        assert_eq!(ended.set_cookie(), None, "the laptop's own cookie stays");
        assert_eq!(app.logged_in_as(&phone).await, None);
        assert_eq!(app.logged_in_as(&laptop).await.as_deref(), Some("nico"));
        assert_eq!(app.logged_in_as(&tablet).await.as_deref(), Some("nico"));
        let left = list(&app, &laptop).await;
        assert_eq!(left.len(), 2);
        assert!(left.iter().all(|s| id_of(s) != phone_id));
        // Ended already: nothing to end.
        end(&app, &laptop, &phone_id, &[]).await.assert(StatusCode::NOT_FOUND);

        // From another site's page, nothing ends.
        let tablet_id = left.iter().find(|s| s["current"] == json!(false)).map(id_of).unwrap();
        end(&app, &laptop, &tablet_id, &[("origin", "https://evil.example")])
            .await
            .assert(StatusCode::FORBIDDEN);
        assert_eq!(app.logged_in_as(&tablet).await.as_deref(), Some("nico"));

        // Ending one's own session is a logout: the cookie is cleared too.
        let own_id = left.iter().find(|s| s["current"] == json!(true)).map(id_of).unwrap();
        let own = end(&app, &laptop, &own_id, &[]).await;
        own.assert(StatusCode::NO_CONTENT);
        assert!(own.set_cookie().unwrap().contains("Max-Age=0"));
        assert_eq!(app.logged_in_as(&laptop).await, None);
        assert_eq!(app.logged_in_as(&tablet).await.as_deref(), Some("nico"));
    }

    async fn signing_out_everywhere_leaves_no_session_to_list(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("nico", "nico@example.com", PASSWORD).await;
        let laptop = login_from(&app, "nico", FIREFOX_ON_WINDOWS).await;
        let phone = login_from(&app, "nico", CHROME_ON_ANDROID).await;
        let phone_id = other_id(&list(&app, &laptop).await);
        app.post_with("/api/denglu/logout-all", json!({}), &[("cookie", &laptop)])
            .await
            .assert(StatusCode::OK);
        for cookie in [&laptop, &phone] {
            let reply = app.get("/api/denglu/sessions", &[("cookie", cookie)]).await;
            reply.assert(StatusCode::UNAUTHORIZED);
            assert!(!reply.field("message").is_empty());
        }
        end(&app, &laptop, &phone_id, &[]).await.assert(StatusCode::UNAUTHORIZED);
        // Signing in again starts the one session there is.
        let again = login_from(&app, "nico", FIREFOX_ON_WINDOWS).await;
        let sessions = list(&app, &again).await;
        assert_eq!(sessions.len(), 1);
        assert_eq!(sessions[0]["current"], json!(true));
    }

    async fn a_session_unused_for_a_week_is_not_listed(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("nico", "nico@example.com", PASSWORD).await;
        let _idle = login_from(&app, "nico", CHROME_ON_ANDROID).await;
        app.clock.advance(6 * 24 * 3600);
        let laptop = login_from(&app, "nico", FIREFOX_ON_WINDOWS).await;
        assert_eq!(list(&app, &laptop).await.len(), 2);
        app.clock.advance(2 * 24 * 3600);
        let sessions = list(&app, &laptop).await;
        assert_eq!(sessions.len(), 1, "the phone's session ended after 7 idle days");
        assert_eq!(sessions[0]["current"], json!(true));
    }
}
