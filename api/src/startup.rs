//! Builds the app from its settings.

use crate::static_site::{site_endpoint, SiteOptions};
use poem::endpoint::BoxEndpoint;
use poem::{EndpointExt, Response, Route};
use std::path::PathBuf;

pub struct Settings {
    pub dist_dir: PathBuf,
    pub dev: bool,
}

pub async fn build_app(settings: Settings) -> anyhow::Result<BoxEndpoint<'static, Response>> {
    let api = Route::new().map_to_response().boxed();
    site_endpoint(SiteOptions { dist_dir: settings.dist_dir, dev: settings.dev }, api)
}
