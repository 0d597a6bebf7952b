//! The membership API as one piece: its shared state opened from the settings, its endpoint (as
//! mounted under `/api`) and the hourly sweep of expired records. The `server` crate mounts it
//! beside the static site; the tests mount it alone.

use crate::feed::FeedCache;
use crate::i18n::Languages;
use crate::mail::Mailer;
use crate::rate_limit::RateLimiter;
use crate::settings::Settings;
use crate::state::AppState;
use poem::endpoint::BoxEndpoint;
use poem::{EndpointExt, Response};
use std::sync::Arc;
use std::time::Duration;

/// Opens the database (running migrations) and the mailer: the state every handler shares,
/// answering in `languages` (the served site's, `Languages::from_facts`).
pub async fn build_state(settings: Settings, languages: &'static Languages) -> anyhow::Result<Arc<AppState>> {
    std::fs::create_dir_all(&settings.data_dir)?;
    let db = crate::db::connect(&settings.database_url).await?;
    let site = settings.public_url.host_str().unwrap_or("localhost").to_string();
    let mailer = Mailer::new(
        settings.smtp_url.as_deref(),
        settings.outbox_dir(),
        &settings.mail_from,
        &site,
    )?;
    tracing::info!("data: {}", crate::db::redact(&settings.database_url));
    tracing::info!("mail: {}", mailer.describe());
    let limiter = RateLimiter::new(db.clone(), settings.clock.clone(), settings.rate_limit_scale);
    let http = reqwest::Client::builder()
        // Following redirects from the token endpoint would open the door to SSRF.
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(15))
        .build()?;
    let invite_key = crate::invites::InviteKey::load(&settings.data_dir, settings.invite_key.as_deref())?;
    Ok(Arc::new(AppState {
        invite_key,
        db,
        settings,
        mailer,
        limiter,
        feed: FeedCache::default(),
        http,
        languages,
    }))
}

/// The API alone, as mounted under `/api`.
pub fn api_endpoint(state: Arc<AppState>) -> BoxEndpoint<'static, Response> {
    crate::routes::api(state).boxed()
}

/// Clears expired records once an hour, for as long as the server runs.
pub fn sweep_hourly(state: Arc<AppState>) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(Duration::from_secs(3600));
        loop {
            ticks.tick().await;
            if let Err(err) = crate::db::sweep_expired(&state.db, state.now()).await {
                tracing::warn!("clearing expired records failed: {err}");
            }
        }
    });
}
