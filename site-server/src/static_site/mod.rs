//! Serves the prerendered site in `dist/` (and mounts the API under `/api`).
//!
//! `dist/` is read into memory once (and again after each rebuild in dev mode), with every
//! response header precomputed, so a request costs a hash lookup and a few `Bytes` clones.

mod dev_reload;
mod encoding;
mod files;
mod headers;
mod routes;
mod serve;

use dev_reload::DevReload;
use files::Site;
use poem::endpoint::BoxEndpoint;
use poem::{Endpoint, EndpointExt, Request, Response, Route};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

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
    let site = Site::load(&options.dist_dir)?;
    if site.facts.dev && !options.dev {
        // Its pages load /__dev/reload.js, which only `serve --dev` answers.
        tracing::warn!("dist/ is a dev build (site build --dev) but the server runs without --dev");
    }
    let (site, dev) = if options.dev {
        let cell = Arc::new(SiteCell(RwLock::new(Arc::new(site))));
        let dev = DevReload::start(&options.dist_dir, cell.clone())?;
        (SiteSource::Live(cell), Some(dev))
    } else {
        (SiteSource::Fixed(Arc::new(site)), None)
    };
    let api = Route::new().nest("/api", api).boxed();
    Ok(App { site, api, dev }.boxed())
}

/// The current load of `dist/`, replaced whole by the dev reloader.
pub(crate) struct SiteCell(RwLock<Arc<Site>>);

impl SiteCell {
    fn get(&self) -> Arc<Site> {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    fn set(&self, site: Site) {
        *self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(site);
    }
}

enum SiteSource {
    /// Production: loaded once, read without a lock.
    Fixed(Arc<Site>),
    Live(Arc<SiteCell>),
}

struct App {
    site: SiteSource,
    api: BoxEndpoint<'static, Response>,
    dev: Option<DevReload>,
}

impl Endpoint for App {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let live;
        let site: &Site = match &self.site {
            SiteSource::Fixed(site) => site,
            SiteSource::Live(cell) => {
                live = cell.get();
                &live
            }
        };
        let path = req.uri().path();
        if path == "/api" || path.starts_with("/api/") {
            let mut response = self.api.get_response(req).await;
            site.security.apply(response.headers_mut());
            return Ok(response);
        }
        if let Some(dev) = &self.dev {
            let response = match path {
                "/__dev/reload.js" => Some(dev.script()),
                "/__dev/events" => Some(dev.event_stream(&site.build_id)),
                _ => None,
            };
            if let Some(mut response) = response {
                site.security.apply(response.headers_mut());
                return Ok(response);
            }
        }
        Ok(serve::respond(site, &req))
    }
}
