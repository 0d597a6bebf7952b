//! Rules every endpoint shares: Origin, body size, content type, JSON errors, language, the
//! OpenAPI document and the docs page.

use crate::helpers::{Backend, Reply, TestApp};
use poem::http::StatusCode;
use serde_json::{json, Value};

on_both_databases! {
    async fn two_instances_share_sessions_codes_and_limits(backend: Backend) {
        // Nothing lives only in one instance's memory: a second app on the same database sees it all.
        let first = TestApp::new(backend).await;
        let url = first.database_url.clone();
        let outbox = first.outbox();
        let second = TestApp::with(backend, |s| {
            s.database_url = url;
            s.data_dir = outbox.parent().unwrap().to_path_buf();
        })
        .await;
        first.register("shared", "shared@example.com", "shared password").await;
        let cookie = first.login("shared", "shared password").await;
        assert_eq!(second.logged_in_as(&cookie).await.as_deref(), Some("shared"));
        second.get("/api/denglu?logout=true", &[("cookie", &cookie)]).await.assert(StatusCode::OK);
        assert_eq!(first.logged_in_as(&cookie).await, None);
        // A code sent by one instance is checked by the other, and so is the send limit.
        first.post("/api/send-email", json!({"email": "both@example.com", "username": "both"})).await.assert(StatusCode::OK);
        second.post("/api/send-email", json!({"email": "both@example.com", "username": "both"})).await.assert(StatusCode::TOO_MANY_REQUESTS);
        let code = first.wait_for_mails("both@example.com", 1).await[0].code().unwrap();
        let invite = first.invite(1, None).await;
        second
            .post("/api/register", json!({"username": "both", "password": "password1234", "email": "both@example.com",
                                          "invitationCode": invite, "emailVerificationCode": code}))
            .await
            .assert(StatusCode::OK);
    }

    async fn code_and_invitation_guesses_are_limited_per_client(backend: Backend) {
        let app = TestApp::new(backend).await;
        for i in 0..10 {
            app.post("/api/verify-code", json!({"username": "guess", "email": "g@example.com", "code": format!("{i:06}")}))
                .await
                .assert(StatusCode::BAD_REQUEST);
            app.post("/api/auth/verify-invite", json!({"token": "t", "inviteCode": format!("CODE-{i}")}))
                .await
                .assert(StatusCode::BAD_REQUEST);
            app.post("/api/register", json!({"username": "guess", "password": "password1234", "email": "g@example.com",
                                             "invitationCode": "X", "emailVerificationCode": format!("{i:06}")}))
                .await
                .assert(StatusCode::BAD_REQUEST);
        }
        let limited = app.post("/api/verify-code", json!({"username": "guess", "email": "g@example.com", "code": "123456"})).await;
        limited.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!(!limited.field("message").is_empty());
        let wait = limited.retry_after();
        assert!((1..=900).contains(&wait));
        let invite = app.post("/api/auth/verify-invite", json!({"token": "t", "inviteCode": "CODE"})).await;
        invite.assert(StatusCode::TOO_MANY_REQUESTS);
        assert!(!invite.field("error").is_empty());
        app.clock.advance(wait as i64);
        app.post("/api/verify-code", json!({"username": "guess", "email": "g@example.com", "code": "123456"}))
            .await
            .assert(StatusCode::BAD_REQUEST);
    }

    async fn foreign_origins_are_refused(backend: Backend) {
        let app = TestApp::new(backend).await;
        let body = json!({"username": "someone", "password": "whatever1"});
        let evil = app.post_with("/api/denglu", body.clone(), &[("origin", "https://evil.example")]).await;
        evil.assert(StatusCode::FORBIDDEN);
        assert_eq!(evil.field("message"), "Requests from another site are not accepted.");
        let register = app.post_with("/api/register", json!({}), &[("origin", "http://evil.example")]).await;
        register.assert(StatusCode::FORBIDDEN);
        assert!(!register.field("error").is_empty());
        let invite = app.post_with("/api/auth/verify-invite", json!({}), &[("origin", "null")]).await;
        invite.assert(StatusCode::FORBIDDEN);
        assert!(!invite.field("error").is_empty());
        // PUBLIC_URL's origin and the Host the request came to are ours.
        app.post_with("/api/denglu", body.clone(), &[("origin", "http://127.0.0.1:8080")]).await.assert(StatusCode::UNAUTHORIZED);
        app.post_with("/api/denglu", body.clone(), &[("origin", "http://localhost:3000"), ("host", "localhost:3000")])
            .await
            .assert(StatusCode::UNAUTHORIZED);
        app.post_with("/api/denglu", body, &[("origin", "http://localhost:3000"), ("host", "localhost:4000")])
            .await
            .assert(StatusCode::FORBIDDEN);
    }

    async fn oversized_bodies_get_413(backend: Backend) {
        let app = TestApp::new(backend).await;
        let big = json!({"username": "x".repeat(20_000), "password": "y"});
        for path in ["/api/denglu", "/api/send-email", "/api/register"] {
            let reply = app.post(path, big.clone()).await;
            reply.assert(StatusCode::PAYLOAD_TOO_LARGE);
            let field = if path == "/api/register" { "error" } else { "message" };
            assert_eq!(reply.field(field), "The request body is too large.");
        }
        // A body without Content-Length is measured as it is read.
        let stream = futures_util::stream::iter((0..40).map(|_| Ok::<_, std::io::Error>(bytes::Bytes::from(vec![b' '; 1024]))));
        let chunked = app
            .client
            .post("/api/denglu")
            .content_type("application/json")
            .body(poem::Body::from_bytes_stream(stream))
            .send()
            .await;
        Reply::read(chunked.0).await.assert(StatusCode::PAYLOAD_TOO_LARGE);
    }

    async fn errors_are_json_and_never_5xx_for_client_mistakes(backend: Backend) {
        let app = TestApp::new(backend).await;
        let cases: Vec<(&str, &str, &str, StatusCode)> = vec![
            ("/api/denglu", "application/json", "", StatusCode::BAD_REQUEST),
            ("/api/denglu", "application/json", "null", StatusCode::BAD_REQUEST),
            ("/api/denglu", "application/json", "{\"username\": 5, \"password\": []}", StatusCode::BAD_REQUEST),
            ("/api/verify-code", "application/json", "\u{0}\u{1}", StatusCode::BAD_REQUEST),
            ("/api/send-verify-code", "text/plain", "{}", StatusCode::UNSUPPORTED_MEDIA_TYPE),
            ("/api/verify-code", "application/xml", "<x/>", StatusCode::UNSUPPORTED_MEDIA_TYPE),
        ];
        for (path, content_type, body, status) in cases {
            let resp = app.client.post(path).content_type(content_type).body(body.to_string()).send().await;
            let reply = Reply::read(resp.0).await;
            assert_eq!(reply.status, status, "{path} {content_type} {body:?}: {}", reply.text);
            assert!(reply.header("content-type").unwrap().starts_with("application/json"));
            assert!(reply.body.get("message").and_then(Value::as_str).is_some_and(|m| !m.is_empty()), "{}", reply.text);
        }
        let missing_type = Reply::read(app.client.post("/api/denglu").body("{}").send().await.0).await;
        assert!(missing_type.status.is_client_error());
        let unknown = app.get("/api/no-such-thing", &[]).await;
        unknown.assert(StatusCode::NOT_FOUND);
        assert_eq!(unknown.field("message"), "Not found.");
        let wrong_method = Reply::read(app.client.put("/api/denglu").send().await.0).await;
        assert!(wrong_method.status.is_client_error());
        assert!(wrong_method.body.get("message").is_some());
    }

    async fn the_language_follows_body_then_cookie_then_header(backend: Backend) {
        let app = TestApp::new(backend).await;
        let bad = |lang: Option<&str>| match lang {
            Some(l) => json!({"email": "broken", "username": "abc", "preferredLanguage": l}),
            None => json!({"email": "broken", "username": "abc"}),
        };
        let english = "Please enter a valid email address.";
        let chinese = "請輸入有效的電子郵件地址。";
        let japanese = "有効なメールアドレスを入力してください。";
        type Case<'a> = (Option<&'a str>, Vec<(&'a str, &'a str)>, &'a str);
        let cases: Vec<Case> = vec![
            (None, vec![], english),
            (None, vec![("accept-language", "ja-JP,ja;q=0.9")], japanese),
            (None, vec![("accept-language", "ja"), ("cookie", "selectedLanguage=zh")], chinese),
            (Some("ja"), vec![("cookie", "selectedLanguage=zh")], japanese),
            (Some("en"), vec![("accept-language", "zh-TW")], english),
            (Some("xx"), vec![("accept-language", "zh-TW")], chinese),
        ];
        for (lang, headers, expected) in cases {
            let reply = app.post_with("/api/send-email", bad(lang), &headers).await;
            reply.assert(StatusCode::BAD_REQUEST);
            assert_eq!(reply.field("message"), expected, "{lang:?} {headers:?}");
        }
    }

    async fn the_openapi_document_describes_every_operation(backend: Backend) {
        let app = TestApp::new(backend).await;
        let reply = app.get("/api/openapi.json", &[]).await;
        reply.assert(StatusCode::OK);
        let doc = &reply.body;
        assert_eq!(doc["servers"][0]["url"], "/api");
        let paths = doc["paths"].as_object().unwrap();
        let mut operations = Vec::new();
        for (path, item) in paths {
            for (method, op) in item.as_object().unwrap() {
                operations.push(format!("{} {path}", method.to_uppercase()));
                let responses = op["responses"].as_object().unwrap();
                if ["/auth/google", "/auth/google/callback", "/feed"].contains(&path.as_str()) {
                    // These answer every request with their one documented status.
                    assert_eq!(responses.len(), 1, "{method} {path}");
                    continue;
                }
                if path.starts_with("/health") {
                    // Liveness always answers; readiness answers 503 while the database does not.
                    let expected: &[&str] = if path == "/health" { &["200", "503"] } else { &["200"] };
                    assert_eq!(responses.keys().collect::<Vec<_>>(), expected, "{method} {path}");
                    continue;
                }
                let unavailable = responses["503"]["headers"].as_object().unwrap();
                assert!(unavailable.keys().any(|h| h.eq_ignore_ascii_case("retry-after")), "{method} {path}");
                for status in ["400", "429"] {
                    assert!(responses.contains_key(status), "{method} {path} lacks {status}");
                }
                let headers = responses["429"]["headers"].as_object().unwrap();
                assert!(headers.keys().any(|h| h.eq_ignore_ascii_case("retry-after")), "{method} {path}");
                if method == "post" || method == "delete" {
                    for status in ["403", "413", "415"] {
                        assert!(responses.contains_key(status), "{method} {path} lacks {status}");
                    }
                }
            }
        }
        operations.sort();
        assert_eq!(
            operations,
            [
                "DELETE /denglu/sessions/{id}",
                "GET /auth/google",
                "GET /auth/google/callback",
                "GET /auth/google/pending",
                "GET /denglu",
                "GET /denglu/sessions",
                "GET /feed",
                "GET /health",
                "GET /health/live",
                "POST /auth/verify-invite",
                "POST /denglu",
                "POST /denglu/logout-all",
                "POST /register",
                "POST /reset-password",
                "POST /send-email",
                "POST /send-verify-code",
                "POST /verify-code",
            ]
        );
        assert!(doc["components"]["securitySchemes"].as_object().is_some_and(|s| !s.is_empty()));
    }

    async fn the_docs_page_has_a_csp_for_its_scripts(backend: Backend) {
        let app = TestApp::new(backend).await;
        let reply = app.get("/api/docs", &[]).await;
        reply.assert(StatusCode::OK);
        assert!(reply.header("content-type").unwrap().starts_with("text/html"));
        let csp = reply.header("content-security-policy").expect("a CSP");
        let hashes = api::routes::docs::inline_script_hashes(&reply.text);
        assert!(hashes.len() >= 2, "Swagger UI's bundle and its start script");
        for hash in &hashes {
            assert!(csp.contains(hash.as_str()), "{hash} missing from {csp}");
        }
        let script_src = csp.split(';').map(str::trim).find(|d| d.starts_with("script-src")).expect("script-src");
        assert!(!script_src.contains("unsafe"), "{script_src}");
        assert!(csp.contains("frame-ancestors 'none'"));
    }
}

#[tokio::test]
async fn sqlite_runs_in_wal_mode() {
    use sea_orm::{ConnectionTrait, Statement};
    let app = TestApp::new(Backend::Sqlite).await;
    let row = app
        .state
        .db
        .query_one(Statement::from_string(
            sea_orm::DbBackend::Sqlite,
            "PRAGMA journal_mode",
        ))
        .await
        .unwrap()
        .unwrap();
    let mode: String = row.try_get_by_index(0).unwrap();
    assert_eq!(mode, "wal");
}
