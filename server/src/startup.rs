//! The composition of `api serve`: the membership API (the `api` crate) under `/api`, the static
//! site (the `site-server` crate) everywhere else, every request counted (`api::metrics`), and
//! HSTS over https. The API answers in the served site's languages, read from its `_site.json`.

use api::i18n::Languages;
use api::settings::Settings;
use api::state::AppState;
use poem::endpoint::BoxEndpoint;
use poem::{EndpointExt, Response};
use site_contract::SiteFacts;
use site_server::static_site::{site_endpoint, SiteOptions};
use std::sync::Arc;

/// Opens the API's state from `settings` and composes it with the site `options` describe.
pub async fn build_app(settings: Settings, options: SiteOptions) -> anyhow::Result<BoxEndpoint<'static, Response>> {
    let state = api::app::build_state(settings, site_languages(&options)?).await?;
    build_app_with_state(state, options)
}

/// The languages of the site `options` describe, each with the API's messages (the generator
/// puts them in `_site.json` from `locales/<code>/api.json`). Read once, at start-up: the API
/// keeps them while `--dev` reloads the pages, so an edited `api.json` needs a restart.
pub fn site_languages(options: &SiteOptions) -> anyhow::Result<&'static Languages> {
    Languages::from_facts(&SiteFacts::load(&options.dist_dir)?)
}

/// The API under `/api` and the static site everywhere else, every request counted.
pub fn build_app_with_state(
    state: Arc<AppState>,
    options: SiteOptions,
) -> anyhow::Result<BoxEndpoint<'static, Response>> {
    let secure = state.secure_cookies();
    let access = api::metrics::Access {
        allowed: state.settings.metrics_allow.clone(),
        trusted_proxies: state.settings.trusted_proxies.clone(),
    };
    let hsts = state.settings.hsts();
    let site = site_endpoint(options, api::app::api_endpoint(state).map_to_response().boxed())?;
    let site = api::metrics::around(site, access);
    if !secure {
        return Ok(site);
    }
    // Served over https (PUBLIC_URL): browsers should never try plain http again for a year.
    Ok(site
        .with(poem::middleware::SetHeader::new().overriding("strict-transport-security", hsts))
        .boxed())
}
