//! What every handler shares.

use crate::mail::Mailer;
use crate::rate_limit::RateLimiter;
use crate::routes::feed::FeedCache;
use crate::settings::Settings;
use poem::Request;
use sea_orm::DatabaseConnection;

pub struct AppState {
    pub db: DatabaseConnection,
    pub settings: Settings,
    pub mailer: Mailer,
    pub limiter: RateLimiter,
    pub feed: FeedCache,
    pub http: reqwest::Client,
}

impl AppState {
    pub fn now(&self) -> i64 {
        self.settings.clock.now()
    }

    pub fn secure_cookies(&self) -> bool {
        self.settings.secure_cookies()
    }
}

/// The client's address, the key of per-client limits.
pub fn client_key(req: &Request) -> String {
    req.remote_addr()
        .as_socket_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}
