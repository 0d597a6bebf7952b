//! Test harness: the real API route on a fresh database per test (SQLite, or PostgreSQL when
//! TEST_DATABASE_URL names a server), a clock the test moves, and the mail outbox.
#![allow(dead_code)]

pub mod servers;

use api::clock::ManualClock;
use api::settings::Settings;
use api::state::AppState;
use poem::endpoint::BoxEndpoint;
use poem::http::{HeaderMap, StatusCode};
use poem::test::TestClient;
use poem::Response;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// False (and a note) when no PostgreSQL is given; a failure when REQUIRE_POSTGRES=1, so CI
/// cannot skip the PostgreSQL half silently.
pub fn postgres_available() -> bool {
    if std::env::var("TEST_DATABASE_URL").is_ok_and(|v| !v.is_empty()) {
        return true;
    }
    if std::env::var("REQUIRE_POSTGRES").as_deref() == Ok("1") {
        panic!("REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set: run through scripts/with-postgres.sh");
    }
    eprintln!("TEST_DATABASE_URL is not set: PostgreSQL variant not run (scripts/with-postgres.sh runs it)");
    false
}

/// Runs each `async fn name(backend: Backend)` once on SQLite and once on PostgreSQL.
#[macro_export]
macro_rules! on_both_databases {
    ($(async fn $name:ident($backend:ident: Backend) $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;

                async fn run_test($backend: Backend) $body

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    run_test(Backend::Sqlite).await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if $crate::helpers::postgres_available() {
                        run_test(Backend::Postgres).await
                    }
                }
            }
        )*
    };
}

pub struct TestApp {
    pub client: TestClient<BoxEndpoint<'static, Response>>,
    pub clock: ManualClock,
    pub state: Arc<AppState>,
    pub dir: tempfile::TempDir,
    pub database_url: String,
}

/// The repository's languages with their API messages, read from its site-config.yaml and
/// `locales/` as `site build` reads them for `_site.json`: the API's languages without a built site.
pub fn repository_languages() -> &'static api::i18n::Languages {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    api::i18n::Languages::from_sources(&root).expect("the repository's site-config.yaml and locales/")
}

/// A fresh, empty database on the backend.
pub async fn fresh_database(backend: Backend, dir: &std::path::Path) -> String {
    match backend {
        Backend::Sqlite => format!("sqlite://{}?mode=rwc", dir.join("site.db").display()),
        Backend::Postgres => {
            use sea_orm::ConnectionTrait;
            let admin_url = std::env::var("TEST_DATABASE_URL").expect("TEST_DATABASE_URL");
            let admin = sea_orm::Database::connect(&admin_url)
                .await
                .expect("connect to TEST_DATABASE_URL");
            let name = format!("test_{}", uuid_like());
            admin
                .execute_unprepared(&format!("CREATE DATABASE {name}"))
                .await
                .expect("create test database");
            admin.close().await.ok();
            let mut url = url::Url::parse(&admin_url).expect("TEST_DATABASE_URL is a URL");
            url.set_path(&format!("/{name}"));
            url.to_string()
        }
    }
}

fn uuid_like() -> String {
    let mut bytes = [0u8; 8];
    api::clock::Entropy::fill(&api::clock::OsEntropy, &mut bytes);
    hex::encode(bytes)
}

impl TestApp {
    pub async fn new(backend: Backend) -> TestApp {
        TestApp::with(backend, |_| {}).await
    }

    /// An app that trusts a proxy at 127.0.0.1, so `x-forwarded-for` names the client: many
    /// client addresses from one test.
    pub async fn behind_loopback_proxy(backend: Backend) -> TestApp {
        TestApp::with(backend, |s| {
            s.trusted_proxies = api::client_ip::parse_trusted_proxies("127.0.0.1").unwrap();
        })
        .await
    }

    pub async fn with(backend: Backend, configure: impl FnOnce(&mut Settings)) -> TestApp {
        let dir = tempfile::tempdir().expect("temp dir");
        let database_url = fresh_database(backend, dir.path()).await;
        let clock = ManualClock::new(chrono::Utc::now().timestamp());
        let mut settings = Settings::for_data_dir(&dir.path().join("data"), 8080);
        settings.database_url = database_url.clone();
        settings.clock = Arc::new(clock.clone());
        // Tests run side by side on few cores: a password check may queue long for its turn.
        settings.hash_wait = Duration::from_secs(300);
        configure(&mut settings);
        let state = api::app::build_state(settings, repository_languages())
            .await
            .expect("app state");
        let endpoint = poem::Route::new().nest("/api", api::app::api_endpoint(state.clone()));
        let client = TestClient::new(poem::EndpointExt::boxed(poem::EndpointExt::map_to_response(endpoint)));
        TestApp {
            client,
            clock,
            state,
            dir,
            database_url,
        }
    }

    /// The API on a real loopback listener, so each request carries its TCP peer's address.
    pub async fn listen(&self) -> Remote {
        let endpoint = poem::Route::new().nest("/api", api::app::api_endpoint(self.state.clone()));
        let addr = servers::serve(endpoint).await;
        Remote {
            base: format!("http://{addr}"),
        }
    }

    pub fn outbox(&self) -> PathBuf {
        self.state.settings.outbox_dir()
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.post_with(path, body, &[]).await
    }

    pub async fn post_with(&self, path: &str, body: Value, headers: &[(&str, &str)]) -> Reply {
        let mut req = self.client.post(path).body_json(&body);
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        Reply::read(req.send().await.0).await
    }

    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut req = self.client.get(path);
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        Reply::read(req.send().await.0).await
    }

    pub async fn invite(&self, uses: u32, days: Option<u32>) -> String {
        api::invites::create(
            &self.state.db,
            &self.clock,
            &api::clock::OsEntropy,
            &self.state.invite_key,
            uses,
            days,
        )
        .await
        .expect("invite")
    }

    /// Every message in the outbox to `to`, oldest first (outbox names sort in sending order).
    pub fn mails_to(&self, to: &str) -> Vec<Mail> {
        let Ok(entries) = std::fs::read_dir(self.outbox()) else {
            return Vec::new();
        };
        let mut mails: Vec<(PathBuf, Mail)> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
            .filter_map(|e| Some((e.path(), Mail::parse(&std::fs::read(e.path()).ok()?))))
            .filter(|(_, m)| m.to.eq_ignore_ascii_case(to))
            .collect();
        mails.sort_by(|(a, _), (b, _)| a.cmp(b));
        mails.into_iter().map(|(_, m)| m).collect()
    }

    /// Waits (mail may be sent after the answer) until `to` has `count` messages.
    pub async fn wait_for_mails(&self, to: &str, count: usize) -> Vec<Mail> {
        for _ in 0..100 {
            let mails = self.mails_to(to);
            if mails.len() >= count {
                return mails;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("expected {count} mails to {to}, found {}", self.mails_to(to).len());
    }

    /// Asks for a sign-up code and returns it from the mail.
    pub async fn signup_code(&self, email: &str, username: &str) -> String {
        let before = self.mails_to(email).len();
        let reply = self
            .post(
                "/api/send-email",
                json!({"email": email, "username": username, "preferredLanguage": "en"}),
            )
            .await;
        reply.assert(StatusCode::OK);
        let mails = self.wait_for_mails(email, before + 1).await;
        mails.last().unwrap().code().expect("a code in the mail")
    }

    /// A member made through the real sign-up flow.
    pub async fn register(&self, username: &str, email: &str, password: &str) {
        let invite = self.invite(1, Some(7)).await;
        self.register_with(username, email, password, &invite).await;
    }

    /// Signs up with a given invitation code.
    pub async fn register_with_invite(&self, username: &str, email: &str, invite: &str) {
        self.register_with(username, email, "password1234", invite).await;
    }

    async fn register_with(&self, username: &str, email: &str, password: &str, invite: &str) {
        let code = self.signup_code(email, username).await;
        let reply = self
            .post(
                "/api/register",
                json!({"username": username, "password": password, "email": email,
                       "invitationCode": invite, "emailVerificationCode": code}),
            )
            .await;
        reply.assert(StatusCode::OK);
        // The next sign-up code to this client must not hit the one-a-minute limit.
        self.clock.advance(61);
    }

    /// Logs in and returns the `session=...` cookie pair.
    pub async fn login(&self, username: &str, password: &str) -> String {
        let reply = self
            .post("/api/denglu", json!({"username": username, "password": password}))
            .await;
        reply.assert(StatusCode::OK);
        reply.session_cookie().expect("a session cookie")
    }

    pub async fn logged_in_as(&self, cookie: &str) -> Option<String> {
        let reply = self.get("/api/denglu", &[("cookie", cookie)]).await;
        reply.assert(StatusCode::OK);
        if reply.body["loggedIn"] == json!(true) {
            Some(reply.body["username"].as_str().expect("username").to_string())
        } else {
            assert!(reply.body.get("username").is_none());
            None
        }
    }
}

/// The API over TCP (`TestApp::listen`).
pub struct Remote {
    pub base: String,
}

/// A client whose connections come from `source`: on Linux every 127.x.y.z is a loopback
/// address, so tests can be many clients at once.
pub fn client_from(source: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(Some(source.parse().expect("an IP address")))
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
}

impl Remote {
    pub async fn post(&self, client: &reqwest::Client, path: &str, body: Value, headers: &[(&str, &str)]) -> Reply {
        Self::send(client.post(format!("{}{path}", self.base)).json(&body), headers).await
    }

    pub async fn get(&self, client: &reqwest::Client, path: &str, headers: &[(&str, &str)]) -> Reply {
        Self::send(client.get(format!("{}{path}", self.base)), headers).await
    }

    /// Eight /64s of the IPv6 /48 `2001:db8:1::/48`, each sending thirty POSTs to `path` (every
    /// /64's own allowance) through the trusted proxy `proxy`, all at once; `body(net, i)` is the
    /// i-th body of the net-th /64. The replies, in no particular order.
    pub async fn post_from_one_ipv6_48(
        &self,
        proxy: &reqwest::Client,
        path: &str,
        body: impl Fn(usize, usize) -> Value,
    ) -> Vec<Reply> {
        let body = &body;
        futures_util::future::join_all((0..8).map(|net| async move {
            let mut replies = Vec::new();
            for i in 0..30 {
                let address = format!("2001:db8:1:{net:x}::{:x}", i + 1);
                let via = [("x-forwarded-for", address.as_str())];
                replies.push(self.post(proxy, path, body(net, i), &via).await);
            }
            replies
        }))
        .await
        .into_iter()
        .flatten()
        .collect()
    }

    async fn send(mut req: reqwest::RequestBuilder, headers: &[(&str, &str)]) -> Reply {
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        Reply::from_reqwest(req.send().await.expect("an answer")).await
    }
}

/// How many of `replies` had each status.
pub fn tally(replies: &[Reply]) -> std::collections::BTreeMap<u16, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for reply in replies {
        *counts.entry(reply.status.as_u16()).or_default() += 1;
    }
    counts
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
    pub body: Value,
}

impl Reply {
    pub async fn read(resp: Response) -> Reply {
        let status = resp.status();
        let headers = resp.headers().clone();
        Reply::new(status, headers, resp.into_body().into_string().await.expect("body"))
    }

    fn new(status: StatusCode, headers: HeaderMap, text: String) -> Reply {
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            text,
            body,
        }
    }

    pub async fn from_reqwest(resp: reqwest::Response) -> Reply {
        let status = StatusCode::from_u16(resp.status().as_u16()).expect("a status");
        let mut headers = HeaderMap::new();
        for (name, value) in resp.headers() {
            headers.append(
                name.as_str().parse::<poem::http::HeaderName>().unwrap(),
                value.as_bytes().try_into().unwrap(),
            );
        }
        Reply::new(status, headers, resp.text().await.expect("body"))
    }

    pub fn assert(&self, status: StatusCode) -> &Self {
        assert_eq!(self.status, status, "body: {}", self.text);
        self
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).map(|v| v.to_str().unwrap().to_string())
    }

    pub fn set_cookie(&self) -> Option<String> {
        self.header("set-cookie")
    }

    pub fn session_cookie(&self) -> Option<String> {
        let set = self.set_cookie()?;
        let pair = set.split(';').next()?.trim().to_string();
        (pair.starts_with("session=") || pair.starts_with("__Host-session=")).then_some(pair)
    }

    /// The text of the JSON field the client reads.
    pub fn field(&self, name: &str) -> String {
        self.body[name]
            .as_str()
            .unwrap_or_else(|| panic!("no string field {name} in {}", self.text))
            .to_string()
    }

    pub fn retry_after(&self) -> u64 {
        self.header("retry-after")
            .expect("Retry-After")
            .parse()
            .expect("seconds")
    }
}

pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

impl Mail {
    pub fn parse(raw: &[u8]) -> Mail {
        let message = mail_parser::MessageParser::default().parse(raw).expect("a mail");
        Mail {
            to: message
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_string(),
            subject: message.subject().unwrap_or_default().to_string(),
            text: message.body_text(0).map(|t| t.to_string()).unwrap_or_default(),
            html: message.body_html(0).map(|t| t.to_string()).unwrap_or_default(),
        }
    }

    /// The six-digit code on a line of its own.
    pub fn code(&self) -> Option<String> {
        self.text
            .lines()
            .map(str::trim)
            .find(|l| l.len() == 6 && l.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_string)
    }
}
