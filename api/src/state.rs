//! What every handler shares.

use crate::client_ip;
use crate::feed::FeedCache;
use crate::i18n::Languages;
use crate::mail::Mailer;
use crate::rate_limit::RateLimiter;
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
    pub invite_key: crate::invites::InviteKey,
    /// The site's languages and the API's messages in each (`Languages::from_facts`).
    pub languages: &'static Languages,
}

impl AppState {
    pub fn now(&self) -> i64 {
        self.settings.clock.now()
    }

    pub fn secure_cookies(&self) -> bool {
        self.settings.secure_cookies()
    }
}

/// The key of per-client limits: the client's address (see `client_ip`), or "unknown" when the
/// request came over no TCP connection (in-process tests).
pub fn client_key(state: &AppState, req: &Request) -> String {
    req.remote_addr()
        .as_socket_addr()
        .map(|peer| client_ip::client_address(peer.ip(), req.headers(), &state.settings.trusted_proxies))
        .map(client_ip::client_key)
        .unwrap_or_else(|| "unknown".into())
}
