//! `/api/denglu`: status, login, logout, sessions, cookies and login limits.

use crate::helpers::{client_from, tally, Backend, Remote, TestApp};
use futures_util::future::join_all;
use poem::http::StatusCode;
use serde_json::json;

const PASSWORD: &str = "correct horse battery";

on_both_databases! {
    async fn a_member_with_a_password_shorter_than_todays_rule_still_signs_in(backend: Backend) {
        use sea_orm::{ActiveModelTrait, EntityTrait, Set};
        let app = TestApp::new(backend).await;
        app.register("legacy", "legacy@example.com", PASSWORD).await;
        // Chosen when 8 characters were enough: its hash is all the server has of it.
        let members = api::db::entities::member::Entity::find().all(&app.state.db).await.unwrap();
        let mut member: api::db::entities::member::ActiveModel = members[0].clone().into();
        let hash = api::passwords::hash("eight888".into(), std::time::Duration::from_secs(300)).await.unwrap();
        member.password_hash = Set(Some(hash));
        member.update(&app.state.db).await.unwrap();
        let cookie = app.login("legacy", "eight888").await;
        assert_eq!(app.logged_in_as(&cookie).await.as_deref(), Some("legacy"));
    }

    async fn status_when_logged_out(backend: Backend) {
        let app = TestApp::new(backend).await;
        let reply = app.get("/api/denglu", &[]).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body, json!({"loggedIn": false}));
        assert_eq!(reply.header("cache-control").as_deref(), Some("no-store"));
        // A cookie that names no session is simply logged out.
        assert_eq!(app.logged_in_as("session=forged").await, None);
    }

    async fn login_sets_a_strict_cookie(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("Alice", "alice@example.com", PASSWORD).await;
        let reply = app.post("/api/denglu", json!({"username": "Alice", "password": PASSWORD})).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body, json!({"loggedIn": true, "username": "Alice"}));
        let cookie = reply.set_cookie().unwrap();
        for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(cookie.contains(part), "{cookie}");
        }
        assert!(!cookie.contains("Secure"), "plain http must not set Secure: {cookie}");
        let session = reply.session_cookie().unwrap();
        assert!(session.len() > "session=".len() + 40, "a long random id: {session}");
        assert_eq!(app.logged_in_as(&session).await.as_deref(), Some("Alice"));
        // Usernames ignore case.
        app.login("alice", PASSWORD).await;
    }

    async fn cookie_is_secure_over_https(backend: Backend) {
        let app = TestApp::with(backend, |s| s.public_url = url::Url::parse("https://site.example").unwrap()).await;
        app.register("bob_1", "bob@example.com", PASSWORD).await;
        let reply = app.post("/api/denglu", json!({"username": "bob_1", "password": PASSWORD})).await;
        reply.assert(StatusCode::OK);
        let set = reply.set_cookie().unwrap();
        assert!(set.contains("; Secure"), "{set}");
        // A __Host- cookie only this host can set, over https, for the whole site.
        assert!(set.starts_with("__Host-session=") && set.contains("Path=/;"), "{set}");
        let session = reply.session_cookie().unwrap();
        assert_eq!(app.logged_in_as(&session).await.as_deref(), Some("bob_1"));
        // A plain `session` cookie (planted by a neighbouring subdomain, say) means nothing here.
        let planted = session.replacen("__Host-session=", "session=", 1);
        assert_eq!(app.logged_in_as(&planted).await, None);
        let logout = app.get("/api/denglu?logout=true", &[("cookie", &reply.session_cookie().unwrap())]).await;
        assert!(logout.set_cookie().unwrap().contains("; Secure"));
    }

    async fn failures_do_not_say_which_part_was_wrong(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("carol", "carol@example.com", PASSWORD).await;
        let wrong_password = app.post("/api/denglu", json!({"username": "carol", "password": "not the password"})).await;
        let unknown_user = app.post("/api/denglu", json!({"username": "nobody", "password": "not the password"})).await;
        wrong_password.assert(StatusCode::UNAUTHORIZED);
        unknown_user.assert(StatusCode::UNAUTHORIZED);
        assert_eq!(wrong_password.body, unknown_user.body);
        assert_eq!(wrong_password.field("message"), "Login failed, please check username and password");
        assert!(wrong_password.set_cookie().is_none());
        let chinese = app
            .post_with("/api/denglu", json!({"username": "carol", "password": "nope nope"}), &[("accept-language", "zh-TW,zh;q=0.9")])
            .await;
        assert_eq!(chinese.field("message"), "登入失敗，請檢查使用者名稱和密碼");
        let japanese = app
            .post_with("/api/denglu", json!({"username": "carol", "password": "nope nope"}), &[("cookie", "selectedLanguage=ja")])
            .await;
        assert!(japanese.field("message").contains("ログイン"));
    }

    async fn every_login_gets_a_new_session(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("dave", "dave@example.com", PASSWORD).await;
        let first = app.login("dave", PASSWORD).await;
        let reply = app.post_with("/api/denglu", json!({"username": "dave", "password": PASSWORD}), &[("cookie", &first)]).await;
        reply.assert(StatusCode::OK);
        let second = reply.session_cookie().unwrap();
        assert_ne!(first, second);
        assert_eq!(app.logged_in_as(&first).await, None, "the old session ends on login");
        assert_eq!(app.logged_in_as(&second).await.as_deref(), Some("dave"));
        // Other devices' sessions are not touched by a login elsewhere.
        let third = app.login("dave", PASSWORD).await;
        assert_eq!(app.logged_in_as(&second).await.as_deref(), Some("dave"));
        assert_eq!(app.logged_in_as(&third).await.as_deref(), Some("dave"));
    }

    async fn logout_ends_the_session_on_the_server(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("erin", "erin@example.com", PASSWORD).await;
        let cookie = app.login("erin", PASSWORD).await;
        let reply = app.get("/api/denglu?logout=true", &[("cookie", &cookie)]).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body, json!({"loggedIn": false}));
        let cleared = reply.set_cookie().unwrap();
        assert!(cleared.starts_with("session=;") && cleared.contains("Max-Age=0"), "{cleared}");
        assert_eq!(app.logged_in_as(&cookie).await, None, "replaying the old cookie does not log in");
        // Logging out without a session is fine too.
        app.get("/api/denglu?logout=true", &[]).await.assert(StatusCode::OK);
        app.get("/api/denglu?logout=maybe", &[]).await.assert(StatusCode::BAD_REQUEST);
    }

    async fn sessions_expire(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("frank", "frank@example.com", PASSWORD).await;
        let cookie = app.login("frank", PASSWORD).await;
        // In use every few days, a session still ends 30 days after login.
        for days in [6, 6, 6, 6, 5] {
            app.clock.advance(days * 24 * 3600);
            assert_eq!(app.logged_in_as(&cookie).await.as_deref(), Some("frank"));
        }
        app.clock.advance(2 * 24 * 3600);
        assert_eq!(app.logged_in_as(&cookie).await, None);
    }

    async fn expired_records_are_swept(backend: Backend) {
        use sea_orm::{EntityTrait, PaginatorTrait};
        let app = TestApp::new(backend).await;
        app.register("sweep", "sweep@example.com", PASSWORD).await;
        let live = app.login("sweep", PASSWORD).await;
        app.clock.advance(29 * 24 * 3600);
        let newer = app.login("sweep", PASSWORD).await;
        app.clock.advance(2 * 24 * 3600);
        api::db::sweep_expired(&app.state.db, app.state.now()).await.unwrap();
        let sessions = api::db::entities::session::Entity::find().count(&app.state.db).await.unwrap();
        assert_eq!(sessions, 1, "only the session that has not expired is left");
        assert_eq!(app.logged_in_as(&live).await, None);
        assert_eq!(app.logged_in_as(&newer).await.as_deref(), Some("sweep"));
        let codes = api::db::entities::email_code::Entity::find().count(&app.state.db).await.unwrap();
        assert_eq!(codes, 0);
        let counters = api::db::entities::rate_limit::Entity::find().count(&app.state.db).await.unwrap();
        assert_eq!(counters, 0);
    }

    async fn failed_logins_are_limited_per_username(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("grace", "grace@example.com", PASSWORD).await;
        for _ in 0..10 {
            app.post("/api/denglu", json!({"username": "grace", "password": "guess guess"})).await.assert(StatusCode::UNAUTHORIZED);
        }
        // Even the right password is refused while the limit holds.
        let limited = app.post("/api/denglu", json!({"username": "GRACE", "password": PASSWORD})).await;
        limited.assert(StatusCode::TOO_MANY_REQUESTS);
        let wait = limited.retry_after();
        assert!((1..=900).contains(&wait), "{wait}");
        assert!(limited.field("message").contains(&wait.to_string()));
        // Another username from the same client is not blocked by grace's limit.
        app.post("/api/denglu", json!({"username": "someone", "password": "guess guess"})).await.assert(StatusCode::UNAUTHORIZED);
        app.clock.advance(wait as i64);
        app.login("grace", PASSWORD).await;
    }

    async fn failed_logins_are_limited_per_client(backend: Backend) {
        let app = TestApp::new(backend).await;
        for i in 0..30 {
            app.post("/api/denglu", json!({"username": format!("user{i}"), "password": "guess guess"}))
                .await
                .assert(StatusCode::UNAUTHORIZED);
        }
        let limited = app.post("/api/denglu", json!({"username": "fresh_name", "password": "guess guess"})).await;
        limited.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!(limited.retry_after() >= 1);
    }

    async fn malformed_logins_are_client_errors(backend: Backend) {
        let app = TestApp::new(backend).await;
        let missing = app.post("/api/denglu", json!({"username": "x"})).await;
        missing.assert(StatusCode::BAD_REQUEST);
        assert!(!missing.field("message").is_empty());
        let bad_json = app.client.post("/api/denglu").content_type("application/json").body("{not json").send().await;
        let bad_json = crate::helpers::Reply::read(bad_json.0).await;
        bad_json.assert(StatusCode::BAD_REQUEST);
        assert!(!bad_json.field("message").is_empty());
        let form = app.client.post("/api/denglu").content_type("application/x-www-form-urlencoded").body("username=a&password=b").send().await;
        let form = crate::helpers::Reply::read(form.0).await;
        form.assert(StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(form.field("message").contains("JSON"));
        // Empty fields are a failed login, not a crash.
        app.post("/api/denglu", json!({"username": "", "password": ""})).await.assert(StatusCode::UNAUTHORIZED);
        let huge = "x".repeat(7_000);
        app.post("/api/denglu", json!({"username": huge, "password": huge})).await.assert(StatusCode::UNAUTHORIZED);
    }

    async fn simultaneous_guesses_get_no_more_than_the_limit(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("henry", "henry@example.com", PASSWORD).await;
        let remote = app.listen().await;
        // A hundred wrong passwords at once from one client: ten are checked.
        let guesser = client_from("127.0.0.2");
        let replies = join_all((0..100).map(|_| wrong_login(&remote, &guesser, "henry"))).await;
        assert_eq!(tally(&replies), [(401, 10), (429, 90)].into());
        // Twelve more clients, ten guesses each, all at once: the account's ceiling of a hundred
        // failures an hour lets only ninety more through.
        let crowd: Vec<reqwest::Client> = (10..22).map(|n| client_from(&format!("127.0.0.{n}"))).collect();
        let replies = join_all(crowd.iter().flat_map(|c| (0..10).map(move |_| c)).map(|c| wrong_login(&remote, c, "henry"))).await;
        assert_eq!(tally(&replies), [(401, 90), (429, 30)].into());
        let refused = replies.iter().find(|r| r.status == StatusCode::TOO_MANY_REQUESTS).unwrap();
        assert!((1..=3600).contains(&refused.retry_after()));
    }

    async fn another_clients_guesses_do_not_lock_a_member_out(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("ivy", "ivy@example.com", PASSWORD).await;
        let remote = app.listen().await;
        let attacker = client_from("127.0.0.2");
        let replies = join_all((0..12).map(|_| wrong_login(&remote, &attacker, "ivy"))).await;
        assert_eq!(tally(&replies), [(401, 10), (429, 2)].into());
        // Ivy, from her own address, still gets in with her password; the attacker does not.
        let ivy = client_from("127.0.0.3");
        let mine = remote.post(&ivy, "/api/denglu", json!({"username": "ivy", "password": PASSWORD}), &[]).await;
        mine.assert(StatusCode::OK);
        assert!(mine.session_cookie().is_some());
        let theirs = remote.post(&attacker, "/api/denglu", json!({"username": "ivy", "password": PASSWORD}), &[]).await;
        theirs.assert(StatusCode::TOO_MANY_REQUESTS);
    }

    async fn a_success_gives_back_its_attempt(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("jack", "jack@example.com", PASSWORD).await;
        // Nine failures, then the right password: the slate is clean again for this client.
        for _ in 0..9 {
            app.post("/api/denglu", json!({"username": "jack", "password": "guess guess"})).await.assert(StatusCode::UNAUTHORIZED);
        }
        app.login("jack", PASSWORD).await;
        for _ in 0..10 {
            app.post("/api/denglu", json!({"username": "jack", "password": "guess guess"})).await.assert(StatusCode::UNAUTHORIZED);
        }
        app.post("/api/denglu", json!({"username": "jack", "password": "guess guess"})).await.assert(StatusCode::TOO_MANY_REQUESTS);
    }

    async fn simultaneous_right_and_wrong_logins_never_refuse_the_right_ones(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("quinn", "quinn@example.com", PASSWORD).await;
        let remote = app.listen().await;
        // A family sharing the account: eight browsers behind one address signing in at once,
        // again and again, while four other addresses send wrong passwords for it. Every right
        // password is let in: a success clearing its counter never reads as a spent allowance
        // for a login counting beside it.
        let family = client_from("127.0.4.1");
        let rights = join_all((0..8).map(|_| async {
            let mut replies = Vec::new();
            for _ in 0..10 {
                replies.push(remote.post(&family, "/api/denglu", json!({"username": "quinn", "password": PASSWORD}), &[]).await);
            }
            replies
        }));
        let guessers: Vec<reqwest::Client> = (2..6).map(|n| client_from(&format!("127.0.4.{n}"))).collect();
        let wrongs = join_all(guessers.iter().flat_map(|c| (0..8).map(move |_| c)).map(|c| wrong_login(&remote, c, "quinn")));
        let (rights, wrongs) = futures_util::join!(rights, wrongs);
        let rights: Vec<crate::helpers::Reply> = rights.into_iter().flatten().collect();
        assert_eq!(tally(&rights), [(200, 80)].into());
        assert_eq!(tally(&wrongs), [(401, 32)].into());
    }

    async fn a_crowd_cannot_lock_out_a_browser_that_signed_in_before(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("rosa", "rosa@example.com", PASSWORD).await;
        let remote = app.listen().await;
        let home = client_from("127.0.5.50");
        let signed_in = remote.post(&home, "/api/denglu", json!({"username": "rosa", "password": PASSWORD}), &[]).await;
        signed_in.assert(StatusCode::OK);
        let device = device_cookie(&signed_in);
        // Eleven addresses, ten wrong passwords each, all at once: the account's ceiling.
        let crowd: Vec<reqwest::Client> = (1..=11).map(|n| client_from(&format!("127.0.6.{n}"))).collect();
        let replies = join_all(crowd.iter().flat_map(|c| (0..10).map(move |_| c)).map(|c| wrong_login(&remote, c, "rosa"))).await;
        assert_eq!(tally(&replies), [(401, 100), (429, 10)].into());
        // Rosa's browser, which signed in before, still gets in with her password.
        let mine = remote.post(&home, "/api/denglu", json!({"username": "rosa", "password": PASSWORD}), &[("cookie", &device)]).await;
        mine.assert(StatusCode::OK);
        // A browser the account never signed in from is held by the ceiling, and so is a forged
        // or another account's device cookie.
        app.register("saul", "saul@example.com", PASSWORD).await;
        let sauls = device_cookie(&remote.post(&home, "/api/denglu", json!({"username": "saul", "password": PASSWORD}), &[]).await);
        let value = device.split_once('=').unwrap().1;
        let nonce = value.split_once('.').unwrap().0;
        let forged = format!("device={nonce}.{}", "0".repeat(64));
        let stranger = client_from("127.0.5.51");
        for cookie in ["", forged.as_str(), sauls.as_str()] {
            let other = remote.post(&stranger, "/api/denglu", json!({"username": "rosa", "password": PASSWORD}), &[("cookie", cookie)]).await;
            other.assert(StatusCode::TOO_MANY_REQUESTS);
        }
    }

    async fn a_known_browser_has_its_own_failure_allowance(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("tess", "tess@example.com", PASSWORD).await;
        let remote = app.listen().await;
        let browser = client_from("127.0.5.60");
        let device = device_cookie(&remote.post(&browser, "/api/denglu", json!({"username": "tess", "password": PASSWORD}), &[]).await);
        // A stolen device cookie is no way around the limits: ten failures and it is held too.
        let with_device = [("cookie", device.as_str())];
        let replies = join_all((0..12).map(|_| {
            remote.post(&browser, "/api/denglu", json!({"username": "tess", "password": "not the password"}), &with_device)
        }))
        .await;
        assert_eq!(tally(&replies), [(401, 10), (429, 2)].into());
    }

    async fn failures_count_per_ipv6_48_as_well_as_per_64(backend: Backend) {
        let app = TestApp::behind_loopback_proxy(backend).await;
        let remote = app.listen().await;
        let proxy = client_from("127.0.0.1");
        // Eight /64s of one /48, thirty failures each (every /64's own allowance), all at once:
        // the /48 lets a hundred through.
        let replies = remote
            .post_from_one_ipv6_48(&proxy, "/api/denglu", |net, i| json!({"username": format!("nobody{net}-{i}"), "password": "not the password"}))
            .await;
        assert_eq!(tally(&replies), [(401, 100), (429, 140)].into());
        // Another /48 is someone else.
        let elsewhere = remote
            .post(&proxy, "/api/denglu", json!({"username": "nobody", "password": "not the password"}), &[("x-forwarded-for", "2001:db8:2::1")])
            .await;
        elsewhere.assert(StatusCode::UNAUTHORIZED);
    }

    async fn a_refused_attempt_writes_nothing(backend: Backend) {
        let app = TestApp::new(backend).await;
        for _ in 0..10 {
            app.post("/api/denglu", json!({"username": "vic", "password": "guess guess"})).await.assert(StatusCode::UNAUTHORIZED);
        }
        // Someone else's write holds the counters (SQLite's one writer, PostgreSQL's row locks)...
        use sea_orm::{ConnectionTrait, TransactionTrait};
        let txn = app.state.db.begin().await.unwrap();
        txn.execute_unprepared("UPDATE rate_limits SET hits = hits WHERE key LIKE 'login:%'").await.unwrap();
        // ...and a refused attempt is answered without waiting for it: it only reads.
        let refused = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            app.post("/api/denglu", json!({"username": "vic", "password": "guess guess"})),
        )
        .await;
        txn.rollback().await.unwrap();
        let refused = refused.expect("a refused attempt does not wait for a writer");
        refused.assert(StatusCode::TOO_MANY_REQUESTS);
    }

    async fn a_member_has_at_most_twenty_sessions(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("wade", "wade@example.com", PASSWORD).await;
        let mut sessions = Vec::new();
        for _ in 0..22 {
            sessions.push(app.login("wade", PASSWORD).await);
            app.clock.advance(1);
        }
        // Signing in beyond twenty ends the oldest.
        assert_eq!(app.logged_in_as(&sessions[0]).await, None);
        assert_eq!(app.logged_in_as(&sessions[1]).await, None);
        for session in &sessions[2..] {
            assert_eq!(app.logged_in_as(session).await.as_deref(), Some("wade"));
        }
    }

    async fn logout_by_get_only_for_the_sites_own_fetch(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("lena", "lena@example.com", PASSWORD).await;
        let cookie = app.login("lena", PASSWORD).await;
        let refused: [&[(&str, &str)]; 3] = [
            // A link on another site, followed.
            &[("sec-fetch-site", "cross-site"), ("sec-fetch-dest", "document")],
            // An image on another page of this site (a feed thumbnail pointing here).
            &[("sec-fetch-site", "same-origin"), ("sec-fetch-dest", "image")],
            &[("sec-fetch-site", "same-site"), ("sec-fetch-dest", "empty")],
        ];
        for headers in refused {
            let mut headers = headers.to_vec();
            headers.push(("cookie", &cookie));
            let reply = app.get("/api/denglu?logout=true", &headers).await;
            reply.assert(StatusCode::OK);
            assert_eq!(reply.body, json!({"loggedIn": true, "username": "lena"}), "{headers:?}");
            assert!(reply.set_cookie().is_none());
            assert_eq!(app.logged_in_as(&cookie).await.as_deref(), Some("lena"));
        }
        let reply = app
            .get("/api/denglu?logout=true", &[("sec-fetch-site", "same-origin"), ("sec-fetch-dest", "empty"), ("cookie", &cookie)])
            .await;
        assert_eq!(reply.body, json!({"loggedIn": false}));
        assert_eq!(app.logged_in_as(&cookie).await, None);
    }

    async fn unused_sessions_end_after_seven_days(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("mona", "mona@example.com", PASSWORD).await;
        let idle = app.login("mona", PASSWORD).await;
        let busy = app.login("mona", PASSWORD).await;
        app.clock.advance(6 * 24 * 3600);
        assert_eq!(app.logged_in_as(&busy).await.as_deref(), Some("mona"));
        app.clock.advance(2 * 24 * 3600);
        assert_eq!(app.logged_in_as(&idle).await, None, "eight days unused");
        assert_eq!(app.logged_in_as(&busy).await.as_deref(), Some("mona"), "used two days ago");
        // The hourly sweep clears idle sessions too.
        app.clock.advance(8 * 24 * 3600);
        api::db::sweep_expired(&app.state.db, app.state.now()).await.unwrap();
        use sea_orm::{EntityTrait, PaginatorTrait};
        assert_eq!(api::db::entities::session::Entity::find().count(&app.state.db).await.unwrap(), 0);
    }

    async fn signing_out_everywhere_ends_every_session(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("nico", "nico@example.com", PASSWORD).await;
        app.register("olga", "olga@example.com", PASSWORD).await;
        let laptop = app.login("nico", PASSWORD).await;
        let phone = app.login("nico", PASSWORD).await;
        let other_member = app.login("olga", PASSWORD).await;
        let reply = app.post_with("/api/denglu/logout-all", json!({}), &[("cookie", &phone)]).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body, json!({"loggedIn": false}));
        assert!(reply.set_cookie().unwrap().contains("Max-Age=0"));
        assert_eq!(app.logged_in_as(&phone).await, None);
        assert_eq!(app.logged_in_as(&laptop).await, None);
        assert_eq!(app.logged_in_as(&other_member).await.as_deref(), Some("olga"));
        let nobody = app.post("/api/denglu/logout-all", json!({})).await;
        nobody.assert(StatusCode::UNAUTHORIZED);
        assert!(!nobody.field("message").is_empty());
        app.post_with("/api/denglu/logout-all", json!({}), &[("cookie", &other_member), ("origin", "https://evil.example")])
            .await
            .assert(StatusCode::FORBIDDEN);
        assert_eq!(app.logged_in_as(&other_member).await.as_deref(), Some("olga"));
    }
}

/// The `device=...` pair among a login answer's cookies.
fn device_cookie(reply: &crate::helpers::Reply) -> String {
    reply
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .find(|v| v.starts_with("device="))
        .unwrap_or_else(|| panic!("a device cookie: {:?}", reply.headers))
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

async fn wrong_login(remote: &Remote, client: &reqwest::Client, username: &str) -> crate::helpers::Reply {
    remote
        .post(
            client,
            "/api/denglu",
            json!({"username": username, "password": "not the password"}),
            &[],
        )
        .await
}

/// With no turn at argon2 free in time, a login is answered 503 with `Retry-After`, and the
/// attempt does not count against the member.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_that_wait_too_long_for_argon2_get_503() {
    let app = TestApp::with(Backend::Sqlite, |s| s.hash_wait = std::time::Duration::from_millis(1)).await;
    let remote = app.listen().await;
    let clients: Vec<reqwest::Client> = (1..=4).map(|n| client_from(&format!("127.0.3.{n}"))).collect();
    let replies = join_all((0..40).map(|i| {
        remote.post(
            &clients[i % 4],
            "/api/denglu",
            json!({"username": format!("kate{i}"), "password": "not the password"}),
            &[("accept-language", "zh-TW")],
        )
    }))
    .await;
    let counts = tally(&replies);
    assert!(counts.keys().all(|s| [401, 503].contains(s)), "{counts:?}");
    let busy: Vec<_> = replies
        .iter()
        .filter(|r| r.status == StatusCode::SERVICE_UNAVAILABLE)
        .collect();
    assert!(
        !busy.is_empty(),
        "two hashing threads cannot take forty logins within a millisecond: {counts:?}"
    );
    for reply in busy {
        assert_eq!(reply.retry_after(), api::passwords::BUSY_RETRY_SECONDS);
        assert_eq!(reply.field("message"), "伺服器目前忙碌中，請過幾秒後再試。");
    }
    // Only the checked passwords count as failures.
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let counted: i32 = api::db::entities::rate_limit::Entity::find()
        .filter(api::db::entities::rate_limit::Column::Key.starts_with("login:client:"))
        .all(&app.state.db)
        .await
        .unwrap()
        .iter()
        .map(|row| row.hits)
        .sum();
    assert_eq!(counted as usize, counts.get(&401).copied().unwrap_or(0));
}
