//! Builds the app from its settings.

use crate::feed::FeedCache;
use crate::mail::Mailer;
use crate::rate_limit::RateLimiter;
use crate::state::AppState;
use poem::endpoint::BoxEndpoint;
use poem::{EndpointExt, Response};
use site_server::static_site::{site_endpoint, SiteOptions};
use std::sync::Arc;
use std::time::Duration;

pub use crate::settings::Settings;

/// Opens the database (running migrations) and the mailer: the state every handler shares.
pub async fn build_state(settings: Settings) -> anyhow::Result<Arc<AppState>> {
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
    }))
}

/// The API alone, as mounted under `/api`.
pub fn api_endpoint(state: Arc<AppState>) -> BoxEndpoint<'static, Response> {
    crate::routes::api(state).boxed()
}

pub async fn build_app(settings: Settings) -> anyhow::Result<BoxEndpoint<'static, Response>> {
    build_app_with_state(build_state(settings).await?)
}

/// The API under `/api` and the static site everywhere else, every request counted
/// (`metrics`).
pub fn build_app_with_state(state: Arc<AppState>) -> anyhow::Result<BoxEndpoint<'static, Response>> {
    let options = SiteOptions {
        dist_dir: state.settings.dist_dir.clone(),
        dev: state.settings.dev,
    };
    let secure = state.secure_cookies();
    let access = crate::metrics::Access {
        allowed: state.settings.metrics_allow.clone(),
        trusted_proxies: state.settings.trusted_proxies.clone(),
    };
    let hsts = state.settings.hsts();
    let site = site_endpoint(options, api_endpoint(state).map_to_response().boxed())?;
    let site = crate::metrics::around(site, access);
    if !secure {
        return Ok(site);
    }
    // Served over https (PUBLIC_URL): browsers should never try plain http again for a year.
    Ok(site
        .with(poem::middleware::SetHeader::new().overriding("strict-transport-security", hsts))
        .boxed())
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
