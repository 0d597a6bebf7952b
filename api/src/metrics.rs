//! `GET /metrics` in Prometheus's text format (docs/deploy.md, "What to watch"): requests and
//! their latency by route class and status, rate-limit refusals, the password-hashing queue,
//! database outages and mail failures. Served only to loopback and the ranges of METRICS_ALLOW,
//! the client being who TRUSTED_PROXIES say it is; for anyone else the path is an unknown page
//! and the site's own 404 answers.

use ipnet::IpNet;
use poem::endpoint::BoxEndpoint;
use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

pub const PATH: &str = "/metrics";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Answered {
    class: &'static str,
    code: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Class {
    class: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MailKind {
    kind: &'static str,
}

type Latency = Family<Class, Histogram, fn() -> Histogram>;

/// The process's metrics: one set, as Prometheus scrapes one process.
struct Metrics {
    registry: Registry,
    requests: Family<Answered, Counter>,
    latency: Latency,
    refusals: Family<Class, Counter>,
    hash_queue: Gauge,
    hash_wait: Histogram,
    hash_busy: Counter,
    database_unavailable: Counter,
    mail_failures: Family<MailKind, Counter>,
}

fn seconds_buckets() -> Histogram {
    // 1 ms to about 16 s.
    Histogram::new(exponential_buckets(0.001, 2.0, 15))
}

fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let mut registry = Registry::with_prefix("site");
        let m = Metrics {
            requests: Family::default(),
            latency: Latency::new_with_constructor(seconds_buckets),
            refusals: Family::default(),
            hash_queue: Gauge::default(),
            hash_wait: seconds_buckets(),
            hash_busy: Counter::default(),
            database_unavailable: Counter::default(),
            mail_failures: Family::default(),
            registry: Registry::default(),
        };
        registry.register(
            "http_requests",
            "Requests answered, by route class and status",
            m.requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer, by route class",
            m.latency.clone(),
        );
        registry.register(
            "rate_limit_refusals",
            "Requests refused by a rate limit (429)",
            m.refusals.clone(),
        );
        registry.register(
            "password_hash_queue",
            "Password checks waiting for or holding a hashing turn",
            m.hash_queue.clone(),
        );
        registry.register(
            "password_hash_wait_seconds",
            "Time a password check waited for its turn",
            m.hash_wait.clone(),
        );
        registry.register(
            "password_hash_busy",
            "Password checks given up after waiting too long (503)",
            m.hash_busy.clone(),
        );
        registry.register(
            "database_unavailable",
            "Requests answered 503 because the database could not be reached",
            m.database_unavailable.clone(),
        );
        registry.register(
            "mail_failures",
            "Emails that could not be sent, by kind",
            m.mail_failures.clone(),
        );
        Metrics { registry, ..m }
    })
}

/// The route classes requests are counted under: few and fixed, so the series stay few.
fn class_of(path: &str) -> &'static str {
    match path {
        "/api/denglu" => "login",
        "/api/send-email" | "/api/register" => "signup",
        "/api/send-verify-code" | "/api/verify-code" | "/api/reset-password" => "reset",
        PATH => "metrics",
        _ if path.starts_with("/api/auth/google") => "google",
        _ if path.starts_with("/api/health") => "health",
        _ if path.starts_with("/api/") => "api",
        _ if path.starts_with("/assets/") => "asset",
        _ => "page",
    }
}

/// Held while a password check waits for or holds a hashing turn.
pub struct Queued;

impl Queued {
    pub fn join() -> Queued {
        metrics().hash_queue.inc();
        Queued
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        metrics().hash_queue.dec();
    }
}

pub fn hash_waited(wait: Duration) {
    metrics().hash_wait.observe(wait.as_secs_f64());
}

pub fn hash_busy() {
    metrics().hash_busy.inc();
}

pub fn database_unavailable() {
    metrics().database_unavailable.inc();
}

pub fn mail_failed(kind: &'static str) {
    metrics().mail_failures.get_or_create(&MailKind { kind }).inc();
}

fn record(class: &'static str, code: u16, took: Duration) {
    let m = metrics();
    m.requests.get_or_create(&Answered { class, code }).inc();
    m.latency.get_or_create(&Class { class }).observe(took.as_secs_f64());
    if code == 429 {
        m.refusals.get_or_create(&Class { class }).inc();
    }
}

fn render() -> Response {
    let mut text = String::new();
    if let Err(err) = prometheus_client::encoding::text::encode(&mut text, &metrics().registry) {
        tracing::error!("encoding the metrics failed: {err}");
    }
    text.with_content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .with_header("cache-control", "no-store")
        .into_response()
}

/// Who may read the metrics.
pub struct Access {
    /// METRICS_ALLOW: ranges besides loopback.
    pub allowed: Vec<IpNet>,
    pub trusted_proxies: Vec<IpNet>,
}

impl Access {
    fn permits(&self, req: &Request) -> bool {
        let Some(peer) = req.remote_addr().as_socket_addr() else {
            return false;
        };
        let client = crate::client_ip::client_address(peer.ip(), req.headers(), &self.trusted_proxies).to_canonical();
        client.is_loopback() || self.allowed.iter().any(|net| net.contains(&client))
    }
}

/// `app` with every request counted, and `/metrics` answered for those `access` permits.
pub fn around(app: BoxEndpoint<'static, Response>, access: Access) -> BoxEndpoint<'static, Response> {
    let access = Arc::new(access);
    app.around(move |next, req| {
        let access = access.clone();
        async move {
            let class = class_of(req.uri().path());
            if class == "metrics" && access.permits(&req) {
                return Ok(render());
            }
            let started = Instant::now();
            let answered = next.call(req).await;
            let code = match &answered {
                Ok(response) => response.status(),
                Err(err) => err.status(),
            };
            record(class, code.as_u16(), started.elapsed());
            answered
        }
    })
    .boxed()
}
