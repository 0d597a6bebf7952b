//! Everything the server is told from outside (environment and flags), in one value.

use crate::clock::{Clock, Entropy, OsEntropy, SystemClock};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use url::Url;

#[derive(Clone)]
pub struct GoogleSettings {
    pub client_id: String,
    pub client_secret: String,
    pub auth_url: String,
    pub token_url: String,
    pub userinfo_url: String,
}

pub const GOOGLE_AUTH_URL: &str = "https://accounts.google.com/o/oauth2/v2/auth";
pub const GOOGLE_TOKEN_URL: &str = "https://oauth2.googleapis.com/token";
pub const GOOGLE_USERINFO_URL: &str = "https://openidconnect.googleapis.com/v1/userinfo";

#[derive(Clone)]
pub struct Settings {
    pub data_dir: PathBuf,
    pub database_url: String,
    /// Where visitors reach the site; its origin is the one POSTs may come from, and https
    /// here makes cookies Secure.
    pub public_url: Url,
    pub smtp_url: Option<String>,
    pub mail_from: String,
    /// None: /api/feed answers with an empty list.
    pub blog_feed_url: Option<String>,
    pub feed_cache_seconds: u64,
    pub google: Option<GoogleSettings>,
    /// INVITE_KEY: the key invitation codes are stored under (else one made in DATA_DIR).
    pub invite_key: Option<String>,
    /// Reverse proxies whose `X-Forwarded-For` names the client (TRUSTED_PROXIES).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Who may read /metrics besides loopback (METRICS_ALLOW).
    pub metrics_allow: Vec<ipnet::IpNet>,
    /// Multiplies every rate limit's allowance (tests and schemathesis raise it).
    pub rate_limit_scale: f64,
    /// How long a request waits for a turn at argon2 before it gets 503 (tests raise it).
    pub hash_wait: std::time::Duration,
    /// HSTS_INCLUDE_SUBDOMAINS: `Strict-Transport-Security` covers subdomains too, so a sibling
    /// reached over plain http cannot set cookies for the parent domain (on by default).
    pub hsts_include_subdomains: bool,
    pub clock: Arc<dyn Clock>,
    pub entropy: Arc<dyn Entropy>,
}

impl Settings {
    /// Defaults for a data directory: SQLite inside it, mail into its outbox, no Google, no feed.
    pub fn for_data_dir(data_dir: &Path, port: u16) -> Self {
        Settings {
            data_dir: data_dir.to_path_buf(),
            database_url: default_database_url(data_dir),
            public_url: Url::parse(&format!("http://127.0.0.1:{port}")).expect("valid URL"),
            smtp_url: None,
            mail_from: "Site <no-reply@localhost>".into(),
            blog_feed_url: None,
            feed_cache_seconds: 600,
            google: None,
            invite_key: None,
            trusted_proxies: Vec::new(),
            metrics_allow: Vec::new(),
            rate_limit_scale: 1.0,
            hash_wait: crate::passwords::HASH_WAIT,
            hsts_include_subdomains: true,
            clock: Arc::new(SystemClock),
            entropy: Arc::new(OsEntropy),
        }
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    pub fn secure_cookies(&self) -> bool {
        self.public_url.scheme() == "https"
    }

    /// The `Strict-Transport-Security` value over https: a year, with subdomains unless turned off.
    pub fn hsts(&self) -> &'static str {
        if self.hsts_include_subdomains {
            "max-age=31536000; includeSubDomains"
        } else {
            "max-age=31536000"
        }
    }
}

pub fn default_database_url(data_dir: &Path) -> String {
    format!("sqlite://{}?mode=rwc", data_dir.join("site.db").display())
}

/// The `feed_url` of site-config.yaml, if the file is there and reads as site-contract's schema;
/// a file that does not is logged, since /api/feed then has no default feed.
pub fn feed_url_from_site_config(path: &Path) -> Option<String> {
    match site_contract::SiteConfig::load(path) {
        Ok(config) => Some(config.feed_url),
        Err(err) if path.exists() => {
            tracing::warn!("/api/feed has no default feed: {err:#}");
            None
        }
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::feed_url_from_site_config;

    #[test]
    fn the_default_feed_is_site_config_yamls_feed_url() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("site-config.yaml");
        let text = include_str!("../../site-config.yaml");
        let line = text.lines().find(|l| l.starts_with("feed_url:")).expect("a feed_url");
        std::fs::write(&path, text.replace(line, "feed_url: https://blog.example/feed")).unwrap();
        assert_eq!(
            feed_url_from_site_config(&path).as_deref(),
            Some("https://blog.example/feed")
        );
        // A file that is not site-config.yaml's schema names no feed, as a missing one.
        std::fs::write(&path, format!("{text}\nfeed_ur1: x\n")).unwrap();
        assert_eq!(feed_url_from_site_config(&path), None);
        assert_eq!(feed_url_from_site_config(&dir.path().join("missing.yaml")), None);
    }
}
