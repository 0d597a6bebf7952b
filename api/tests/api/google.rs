//! Google sign-in against a local fake provider (authorize URL, token and userinfo endpoints).

use crate::helpers::{client_from, servers, tally, Backend, TestApp};
use base64::Engine;
use poem::http::StatusCode;
use poem::web::{Data, Form};
use poem::{get, handler, post, EndpointExt, Request, Route};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

const CLIENT_ID: &str = "test-client.apps.example";
const CLIENT_SECRET: &str = "test-secret";
const PASSWORD: &str = "a member password";

#[derive(Default)]
struct Provider {
    /// The PKCE challenge and the code of the authorization in progress.
    challenge: Option<String>,
    code: Option<String>,
    profile: Value,
    token_requests: usize,
}

type Shared = Arc<Mutex<Provider>>;

#[handler]
fn token_endpoint(req: &Request, Form(form): Form<HashMap<String, String>>, provider: Data<&Shared>) -> poem::Response {
    let mut p = provider.lock().unwrap();
    p.token_requests += 1;
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    let client_ok = req.headers().get("authorization").and_then(|v| v.to_str().ok()) == Some(basic.as_str())
        || (form.get("client_id").map(String::as_str) == Some(CLIENT_ID)
            && form.get("client_secret").map(String::as_str) == Some(CLIENT_SECRET));
    let verifier = form.get("code_verifier").cloned().unwrap_or_default();
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    let valid = client_ok
        && form.get("grant_type").map(String::as_str) == Some("authorization_code")
        && form.contains_key("code")
        && form.get("code") == p.code.as_ref()
        && p.challenge.as_deref() == Some(challenge.as_str());
    // An authorization code works once.
    p.code = None;
    if !valid {
        return poem::Response::builder()
            .status(StatusCode::BAD_REQUEST)
            .content_type("application/json")
            .body(json!({"error": "invalid_grant"}).to_string());
    }
    poem::Response::builder()
        .content_type("application/json")
        .body(json!({"access_token": "access-123", "token_type": "Bearer", "expires_in": 3600}).to_string())
}

#[handler]
fn userinfo(req: &Request, provider: Data<&Shared>) -> poem::Response {
    if req.headers().get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer access-123") {
        return poem::Response::builder().status(StatusCode::UNAUTHORIZED).finish();
    }
    poem::Response::builder()
        .content_type("application/json")
        .body(provider.lock().unwrap().profile.to_string())
}

struct Google {
    app: TestApp,
    provider: Shared,
}

impl Google {
    async fn start(backend: Backend) -> Google {
        Google::start_with(backend, |_| {}).await
    }

    async fn start_with(backend: Backend, configure: impl FnOnce(&mut api::settings::Settings)) -> Google {
        let provider: Shared = Arc::default();
        let addr = servers::serve(
            Route::new()
                .at("/token", post(token_endpoint))
                .at("/userinfo", get(userinfo))
                .data(provider.clone()),
        )
        .await;
        let app = TestApp::with(backend, |s| {
            s.google = Some(api::settings::GoogleSettings {
                client_id: CLIENT_ID.into(),
                client_secret: CLIENT_SECRET.into(),
                auth_url: format!("http://{addr}/authorize"),
                token_url: format!("http://{addr}/token"),
                userinfo_url: format!("http://{addr}/userinfo"),
            });
            configure(s);
        })
        .await;
        Google { app, provider }
    }

    /// What the browser does: start, "consent" at the provider, come back. Returns the
    /// callback's redirect target and cookie.
    async fn sign_in(&self, profile: Value, cookie: Option<&str>) -> (String, Option<String>) {
        let back = self.sign_in_reply(profile, cookie).await;
        (back.header("location").unwrap(), back.session_cookie())
    }

    /// Starts a sign-in; returns the `state` and the nonce cookie pair the browser keeps.
    async fn start_sign_in(&self, profile: Value, headers: &[(&str, &str)]) -> (String, String) {
        let start = self.app.get("/api/auth/google", headers).await;
        start.assert(StatusCode::FOUND);
        let location = url::Url::parse(&start.header("location").unwrap()).unwrap();
        let params: HashMap<String, String> = location.query_pairs().into_owned().collect();
        assert!(location
            .as_str()
            .starts_with(&self.app.state.settings.google.as_ref().unwrap().auth_url));
        assert_eq!(params["client_id"], CLIENT_ID);
        assert_eq!(params["response_type"], "code");
        assert_eq!(params["code_challenge_method"], "S256");
        let public_url = &self.app.state.settings.public_url;
        assert_eq!(params["redirect_uri"], format!("{public_url}api/auth/google/callback"));
        assert!(params["scope"].contains("email"));
        assert!(params["state"].len() >= 32);
        let nonce = start.set_cookie().expect("a nonce cookie");
        for part in ["HttpOnly", "SameSite=Lax", "Path=/;", "Max-Age=600"] {
            assert!(nonce.contains(part), "{nonce}");
        }
        {
            let mut p = self.provider.lock().unwrap();
            p.challenge = Some(params["code_challenge"].clone());
            p.code = Some("auth-code-1".into());
            p.profile = profile;
        }
        (params["state"].clone(), nonce.split(';').next().unwrap().to_string())
    }

    async fn sign_in_reply(&self, profile: Value, cookie: Option<&str>) -> crate::helpers::Reply {
        let headers: Vec<(&str, &str)> = cookie.map(|c| vec![("cookie", c)]).unwrap_or_default();
        let (state, nonce) = self.start_sign_in(profile, &headers).await;
        let cookies = match cookie {
            Some(c) => format!("{c}; {nonce}"),
            None => nonce,
        };
        let back = self
            .app
            .get(
                &format!("/api/auth/google/callback?code=auth-code-1&state={state}"),
                &[("cookie", &cookies)],
            )
            .await;
        back.assert(StatusCode::FOUND);
        back
    }

    /// A sign-in of a new account: the `token` of `/invite?token=` and the `google_pending`
    /// cookie pair the browser got with it.
    async fn invitation_step(&self, profile: Value) -> (String, String) {
        let back = self.sign_in_reply(profile, None).await;
        let location = back.header("location").unwrap();
        assert!(back.session_cookie().is_none(), "not a member yet");
        let set = back.set_cookie().expect("the invitation step's cookie");
        for part in ["HttpOnly", "SameSite=Lax", "Path=/;", "Max-Age=900"] {
            assert!(set.contains(part), "{set}");
        }
        let pair = set.split(';').next().unwrap().to_string();
        assert!(
            pair.starts_with(&format!("{}google_pending=", self.cookie_prefix())),
            "{set}"
        );
        (invite_token(&location), pair)
    }

    /// `__Host-` over https, where browsers keep such cookies from sibling subdomains' reach.
    fn cookie_prefix(&self) -> &'static str {
        if self.app.state.secure_cookies() {
            "__Host-"
        } else {
            ""
        }
    }

    async fn verify_invite(&self, token: &str, cookie: &str, invite: &str) -> crate::helpers::Reply {
        self.app
            .post_with(
                "/api/auth/verify-invite",
                json!({"token": token, "inviteCode": invite}),
                &[("cookie", cookie)],
            )
            .await
    }

    fn google_sub_of(&self, username: &str) -> impl std::future::Future<Output = Option<String>> + '_ {
        let username = username.to_string();
        async move {
            api::members::by_username(&self.app.state.db, &username)
                .await
                .unwrap()
                .unwrap()
                .google_sub
        }
    }
}

fn profile(sub: &str, email: &str, verified: bool, name: &str) -> Value {
    json!({"sub": sub, "email": email, "email_verified": verified, "name": name})
}

fn invite_token(location: &str) -> String {
    let url = url::Url::parse(&format!("http://x{location}")).unwrap();
    assert!(url.path().ends_with("/invite"), "{location}");
    url.query_pairs()
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.into_owned())
        .expect("token")
}

on_both_databases! {
    async fn without_configuration_it_sends_visitors_back_to_login(backend: Backend) {
        let app = TestApp::new(backend).await;
        let reply = app.get("/api/auth/google", &[]).await;
        reply.assert(StatusCode::FOUND);
        assert_eq!(reply.header("location").as_deref(), Some("/login?error=google_unavailable"));
        let chinese = app.get("/api/auth/google", &[("cookie", "selectedLanguage=zh")]).await;
        assert_eq!(chinese.header("location").as_deref(), Some("/zh/login?error=google_unavailable"));
        let japanese = app.get("/api/auth/google/callback?code=x&state=y", &[("accept-language", "ja")]).await;
        assert_eq!(japanese.header("location").as_deref(), Some("/ja/login?error=google_unavailable"));
    }

    async fn a_new_account_becomes_a_member_with_an_invitation(backend: Backend) {
        let g = Google::start(backend).await;
        let (token, pending) = g.invitation_step(profile("sub-1", "new.person@gmail.com", true, "New Person")).await;

        let wrong = g.verify_invite(&token, &pending, "NOPE-NOPE-NOPE").await;
        wrong.assert(StatusCode::BAD_REQUEST);
        assert!(wrong.field("error").contains("invitation"));
        let bad_token = g.verify_invite("forged", &pending, "NOPE-NOPE-NOPE").await;
        bad_token.assert(StatusCode::BAD_REQUEST);
        assert!(!bad_token.field("error").is_empty());

        let invite = g.app.invite(1, Some(3)).await;
        // The URL's token alone (read from an access log, say) is not the step: it needs the
        // browser's cookie too, and a wrong one spends nothing.
        for cookie in ["", "google_pending=forged"] {
            let stolen = g.verify_invite(&token, cookie, &invite).await;
            stolen.assert(StatusCode::BAD_REQUEST);
            assert_eq!(stolen.field("error"), "Your Google login has expired. Please log in with Google again.");
        }
        let reply = g.verify_invite(&token, &pending, &invite).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body, json!({"loggedIn": true, "username": "New_Person"}));
        let cookie = reply.session_cookie().unwrap();
        assert!(reply.set_cookie().unwrap().contains("HttpOnly"));
        assert_eq!(g.app.logged_in_as(&cookie).await.as_deref(), Some("New_Person"));
        assert_eq!(api::invites::list(&g.app.state.db).await.unwrap()[0].uses, 1);

        // The token was single use.
        let other = g.app.invite(1, None).await;
        g.verify_invite(&token, &pending, &other).await.assert(StatusCode::BAD_REQUEST);

        // Next time Google knows them: straight to the member page, with a new session.
        let (location, second) = g.sign_in(profile("sub-1", "new.person@gmail.com", true, "New Person"), Some("selectedLanguage=ja")).await;
        assert_eq!(location, "/ja/MemberPage");
        let second = second.expect("a session cookie");
        assert_ne!(second, cookie);
        assert_eq!(g.app.logged_in_as(&second).await.as_deref(), Some("New_Person"));
        assert_eq!(g.provider.lock().unwrap().token_requests, 2);
    }

    async fn usernames_from_google_are_made_unique(backend: Backend) {
        let g = Google::start(backend).await;
        g.app.register("Ann_Lee", "ann@example.com", PASSWORD).await;
        let (token, pending) = g.invitation_step(profile("sub-2", "ann.lee@gmail.com", false, "Ann Lee")).await;
        let invite = g.app.invite(1, None).await;
        let reply = g.verify_invite(&token, &pending, &invite).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.field("username"), "Ann_Lee-2");
    }

    async fn a_gmail_address_of_a_member_links_at_once_and_the_member_hears_of_it(backend: Backend) {
        let g = Google::start(backend).await;
        g.app.register("dora", "dora@gmail.com", PASSWORD).await;
        // An unverified address proves nothing: it goes to the invitation step.
        g.invitation_step(profile("sub-3", "dora@gmail.com", false, "Dora")).await;
        assert_eq!(g.google_sub_of("dora").await, None);
        let (location, cookie) = g.sign_in(profile("sub-3", "DORA@gmail.com", true, "Dora"), Some("selectedLanguage=zh")).await;
        assert_eq!(location, "/zh/MemberPage");
        assert_eq!(g.app.logged_in_as(&cookie.unwrap()).await.as_deref(), Some("dora"));
        assert_eq!(g.google_sub_of("dora").await.as_deref(), Some("sub-3"));
        let mails = g.app.wait_for_mails("dora@gmail.com", 2).await;
        assert_eq!(mails[1].subject, "您在 127.0.0.1 的帳號已連結 Google 帳號");
    }

    async fn a_workspace_account_links_at_once_for_its_own_domain(backend: Backend) {
        let g = Google::start(backend).await;
        g.app.register("emma", "emma@corp.example", PASSWORD).await;
        let mut workspace = profile("sub-6", "emma@corp.example", true, "Emma");
        workspace["hd"] = json!("corp.example");
        let (location, _) = g.sign_in(workspace, None).await;
        assert_eq!(location, "/MemberPage");
        assert_eq!(g.google_sub_of("emma").await.as_deref(), Some("sub-6"));
    }

    async fn elsewhere_the_member_links_by_logging_in_with_the_password_once(backend: Backend) {
        let g = Google::start(backend).await;
        g.app.register("finn", "finn@example.com", PASSWORD).await;
        // Anyone can open a Google account on an example.com address: no session, no link.
        let mut other_domain = profile("sub-7", "finn@example.com", true, "Finn");
        other_domain["hd"] = json!("elsewhere.example");
        let back = g.sign_in_reply(other_domain, Some("selectedLanguage=ja")).await;
        assert_eq!(back.header("location").as_deref(), Some("/ja/login?error=google_link_password"));
        assert!(back.session_cookie().is_none());
        let link = back.set_cookie().expect("the pending link's cookie");
        for part in ["HttpOnly", "SameSite=Lax", "Path=/;"] {
            assert!(link.contains(part), "{link}");
        }
        let link = link.split(';').next().unwrap().to_string();
        assert!(link.starts_with("google_link="));
        assert_eq!(g.google_sub_of("finn").await, None);
        // The link token is not an invitation step.
        let token = link.trim_start_matches("google_link=");
        g.verify_invite(token, &link, &g.app.invite(1, None).await).await.assert(StatusCode::BAD_REQUEST);
        assert_eq!(g.app.get(&format!("/api/auth/google/pending?token={token}"), &[("cookie", &link)]).await.body, json!({}));
        // A wrong password links nothing; another member's login links nothing.
        g.app.post_with("/api/denglu", json!({"username": "finn", "password": "not it at all"}), &[("cookie", &link)])
            .await
            .assert(StatusCode::UNAUTHORIZED);
        g.app.register("gail", "gail@example.com", PASSWORD).await;
        g.app.post_with("/api/denglu", json!({"username": "gail", "password": PASSWORD}), &[("cookie", &link)])
            .await
            .assert(StatusCode::OK);
        assert_eq!(g.google_sub_of("finn").await, None);
        assert_eq!(g.google_sub_of("gail").await, None);
        // Finn's own password login completes it, and Finn is told.
        g.app.post_with("/api/denglu", json!({"username": "finn", "password": PASSWORD}), &[("cookie", &link)])
            .await
            .assert(StatusCode::OK);
        assert_eq!(g.google_sub_of("finn").await.as_deref(), Some("sub-7"));
        let mails = g.app.wait_for_mails("finn@example.com", 2).await;
        assert_eq!(mails[1].subject, "A Google account was linked to your account on 127.0.0.1");
        let (location, _) = g.sign_in(profile("sub-7", "finn@example.com", true, "Finn"), None).await;
        assert_eq!(location, "/MemberPage");
    }

    async fn a_password_reset_removes_google_links(backend: Backend) {
        let g = Google::start(backend).await;
        g.app.register("hana", "hana@gmail.com", PASSWORD).await;
        let (location, _) = g.sign_in(profile("sub-8", "hana@gmail.com", true, "Hana"), None).await;
        assert_eq!(location, "/MemberPage");
        g.app.clock.advance(61);
        g.app.post("/api/send-verify-code", json!({"username": "hana", "email": "hana@gmail.com", "preferredLanguage": "en"}))
            .await
            .assert(StatusCode::OK);
        let mails = g.app.wait_for_mails("hana@gmail.com", 3).await;
        let code = mails.iter().rev().find_map(|m| m.code()).unwrap();
        let token = g.app.post("/api/verify-code", json!({"username": "hana", "email": "hana@gmail.com", "code": code})).await.field("token");
        g.app
            .post_with("/api/reset-password", json!({"username": "hana", "newPassword": "a brand new password"}), &[("authorization", &format!("Bearer {token}"))])
            .await
            .assert(StatusCode::OK);
        assert_eq!(g.google_sub_of("hana").await, None);
    }

    async fn the_invitation_step_shows_the_google_address(backend: Backend) {
        let g = Google::start(backend).await;
        let (token, pending) = g.invitation_step(profile("sub-9", "ivo@gmail.com", true, "Ivo")).await;
        let browser = [("cookie", pending.as_str())];
        let reply = g.app.get(&format!("/api/auth/google/pending?token={token}"), &browser).await;
        reply.assert(StatusCode::OK);
        assert_eq!(reply.body, json!({"email": "ivo@gmail.com"}));
        assert_eq!(g.app.get("/api/auth/google/pending?token=made-up", &browser).await.body, json!({}));
        // The token from the URL, without the browser's cookie, names nobody.
        assert_eq!(g.app.get(&format!("/api/auth/google/pending?token={token}"), &[]).await.body, json!({}));
        g.app.clock.advance(16 * 60);
        assert_eq!(g.app.get(&format!("/api/auth/google/pending?token={token}"), &browser).await.body, json!({}));
        g.app.get("/api/auth/google/pending", &[]).await.assert(StatusCode::BAD_REQUEST);
    }

    async fn a_callback_in_another_browser_fails_and_links_nothing(backend: Backend) {
        let g = Google::start(backend).await;
        g.app.register("joan", "jo@gmail.com", PASSWORD).await;
        // The attacker starts a sign-in with their own Google account and hands the callback
        // URL to Jo's browser, which has no nonce cookie, or the one of its own sign-in.
        let (state, _attacker_nonce) = g.start_sign_in(profile("attacker-sub", "jo@gmail.com", true, "Jo"), &[]).await;
        let (_, jos_nonce) = g.start_sign_in(profile("attacker-sub", "jo@gmail.com", true, "Jo"), &[]).await;
        for cookie in [None, Some(jos_nonce.as_str()), Some("google_nonce=forged")] {
            let headers: Vec<(&str, &str)> = cookie.map(|c| vec![("cookie", c)]).unwrap_or_default();
            let reply = g.app.get(&format!("/api/auth/google/callback?code=auth-code-1&state={state}"), &headers).await;
            assert_eq!(reply.header("location").as_deref(), Some("/login?error=google_failed"), "{cookie:?}");
            assert!(reply.session_cookie().is_none());
        }
        assert_eq!(g.provider.lock().unwrap().token_requests, 0, "a foreign callback never reaches the provider");
        assert_eq!(g.google_sub_of("joan").await, None);
        // Each wrong nonce was compared against a live state: foreign callbacks use up nothing.
        use sea_orm::{EntityTrait, PaginatorTrait};
        assert_eq!(api::db::entities::oauth_state::Entity::find().count(&g.app.state.db).await.unwrap(), 2);
    }

    async fn a_bad_state_or_code_fails_safely(backend: Backend) {
        let g = Google::start(backend).await;
        let start = g.app.get("/api/auth/google", &[]).await;
        let location = url::Url::parse(&start.header("location").unwrap()).unwrap();
        let state: String = location.query_pairs().find(|(k, _)| k == "state").unwrap().1.into_owned();
        let challenge: String = location.query_pairs().find(|(k, _)| k == "code_challenge").unwrap().1.into_owned();
        let nonce = start.set_cookie().unwrap().split(';').next().unwrap().to_string();
        let browser = [("cookie", nonce.as_str())];
        g.provider.lock().unwrap().challenge = Some(challenge);
        g.provider.lock().unwrap().code = Some("good-code".into());
        g.provider.lock().unwrap().profile = profile("sub-4", "x@gmail.com", true, "X");
        for query in [
            "code=good-code&state=forged-state".to_string(),
            format!("state={state}&error=access_denied"),
            "code=good-code".to_string(),
        ] {
            let reply = g.app.get(&format!("/api/auth/google/callback?{query}"), &browser).await;
            reply.assert(StatusCode::FOUND);
            assert_eq!(reply.header("location").as_deref(), Some("/login?error=google_failed"), "{query}");
            assert!(reply.session_cookie().is_none());
        }
        // The provider refuses a code it did not issue.
        let reply = g.app.get(&format!("/api/auth/google/callback?code=other-code&state={state}"), &browser).await;
        assert_eq!(reply.header("location").as_deref(), Some("/login?error=google_failed"));
        assert_eq!(g.provider.lock().unwrap().token_requests, 1, "this browser's callback reached the provider");
        // The state was used up by that attempt, even with the right code now.
        let reply = g.app.get(&format!("/api/auth/google/callback?code=good-code&state={state}"), &browser).await;
        assert_eq!(reply.header("location").as_deref(), Some("/login?error=google_failed"));
    }

    async fn an_old_state_has_expired(backend: Backend) {
        let g = Google::start(backend).await;
        // The browser that started it comes back with its nonce and the provider's real code,
        // but too late: only the expiry stands in its way.
        let (state, nonce) = g.start_sign_in(profile("sub-8", "slow@gmail.com", true, "Slow"), &[]).await;
        g.app.clock.advance(11 * 60);
        let reply = g.app.get(&format!("/api/auth/google/callback?code=auth-code-1&state={state}"), &[("cookie", &nonce)]).await;
        assert_eq!(reply.header("location").as_deref(), Some("/login?error=google_failed"));
        assert_eq!(g.provider.lock().unwrap().token_requests, 0, "an expired state never reaches the provider");
    }

    async fn the_invitation_step_expires(backend: Backend) {
        let g = Google::start(backend).await;
        let (token, pending) = g.invitation_step(profile("sub-5", "late@gmail.com", true, "Late")).await;
        let invite = g.app.invite(1, None).await;
        g.app.clock.advance(16 * 60);
        let reply = g.verify_invite(&token, &pending, &invite).await;
        reply.assert(StatusCode::BAD_REQUEST);
        assert_eq!(reply.field("error"), "Your Google login has expired. Please log in with Google again.");
        assert_eq!(api::invites::list(&g.app.state.db).await.unwrap()[0].uses, 0);
    }

    async fn over_https_every_oauth_cookie_is_host_only(backend: Backend) {
        let g = Google::start_with(backend, |s| s.public_url = url::Url::parse("https://site.example").unwrap()).await;
        let start = g.app.get("/api/auth/google", &[]).await;
        let nonce = start.set_cookie().unwrap();
        assert!(nonce.starts_with("__Host-google_nonce=") && nonce.contains("; Path=/;") && nonce.contains("; Secure"), "{nonce}");
        assert!(!nonce.to_lowercase().contains("domain="), "{nonce}");
        // A nonce planted under the plain name (by a sibling subdomain, for the parent domain)
        // does not bind the sign-in to the victim's browser.
        let (state, own) = g.start_sign_in(profile("sub-10", "kim@gmail.com", true, "Kim"), &[]).await;
        let planted = own.replacen("__Host-google_nonce=", "google_nonce=", 1);
        let reply = g.app.get(&format!("/api/auth/google/callback?code=auth-code-1&state={state}"), &[("cookie", &planted)]).await;
        assert_eq!(reply.header("location").as_deref(), Some("/login?error=google_failed"));
        let (token, pending) = g.invitation_step(profile("sub-10", "kim@gmail.com", true, "Kim")).await;
        let browser = [("cookie", pending.as_str())];
        assert_eq!(g.app.get(&format!("/api/auth/google/pending?token={token}"), &browser).await.body, json!({"email": "kim@gmail.com"}));
        let plain = pending.replacen("__Host-", "", 1);
        assert_eq!(g.app.get(&format!("/api/auth/google/pending?token={token}"), &[("cookie", &plain)]).await.body, json!({}));
        let reply = g.verify_invite(&token, &pending, &g.app.invite(1, None).await).await;
        reply.assert(StatusCode::OK);
    }

    async fn one_client_starts_at_most_twenty_sign_ins(backend: Backend) {
        let g = Google::start(backend).await;
        for _ in 0..20 {
            let start = g.app.get("/api/auth/google", &[]).await;
            assert!(start.header("location").unwrap().starts_with(&g.app.state.settings.google.as_ref().unwrap().auth_url));
        }
        let refused = g.app.get("/api/auth/google", &[]).await;
        refused.assert(StatusCode::FOUND);
        assert_eq!(refused.header("location").as_deref(), Some("/login?error=google_failed"));
        assert!(refused.set_cookie().is_none());
        use sea_orm::{EntityTrait, PaginatorTrait};
        assert_eq!(api::db::entities::oauth_state::Entity::find().count(&g.app.state.db).await.unwrap(), 20);
    }

    async fn invitation_tries_count_per_ipv6_48_as_well_as_per_64(backend: Backend) {
        let app = TestApp::behind_loopback_proxy(backend).await;
        let remote = app.listen().await;
        let proxy = client_from("127.0.0.1");
        // Eight /64s of one /48 try thirty invitation codes each (every /64's own allowance), all
        // at once: the /48 lets a hundred through, as for mailed codes.
        let replies = remote
            .post_from_one_ipv6_48(&proxy, "/api/auth/verify-invite", |net, i| json!({"token": format!("guess{net}-{i}"), "inviteCode": "AAAA-BBBB-CCCC"}))
            .await;
        assert_eq!(tally(&replies), [(400, 100), (429, 140)].into());
        // Another /48 is someone else.
        let elsewhere = remote
            .post(&proxy, "/api/auth/verify-invite", json!({"token": "guess", "inviteCode": "AAAA-BBBB-CCCC"}), &[("x-forwarded-for", "2001:db8:2::1")])
            .await;
        elsewhere.assert(StatusCode::BAD_REQUEST);
    }
}
