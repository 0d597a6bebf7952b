//! The plan's pages rendered with their templates, in parallel: each page's HTML with its
//! islands still empty slots, which the templates record as they place them.

use super::jobs::{Job, Plan};
use super::state::State;
use crate::output::assets::Manifest;
use crate::render::templates;
use crate::render::views::{PageView, ViewContext};
use anyhow::{anyhow, Result};
use rayon::prelude::*;
use std::path::PathBuf;

/// What a page job renders: its file below `dist/`, its template and what the template sees.
struct PageRender {
    file: PathBuf,
    template: String,
    view: PageView,
}

/// The HTML of each page job of `plan`, in the plan's order, with its file below `dist/`.
pub(crate) fn pages(state: &State, plan: &Plan, search_index_url: &str, dev: bool) -> Result<Vec<(PathBuf, String)>> {
    let site = &state.site;
    let views = ViewContext {
        config: &site.config,
        locales: &site.locales,
        pages: &site.pages,
        portrait: site.portrait.as_deref(),
        cards: site.cards.as_ref(),
        search_index_url,
    };
    let manifest = state.ui.as_ref();
    let head_script = manifest
        .filter(|m| !m.head_script.is_empty())
        .map(|m| format!("<script>{}</script>", m.head_script))
        .unwrap_or_default();
    let styles = manifest.map(Manifest::style_tags).transpose()?.unwrap_or_default();
    state.island_calls.clear();
    let renders: Vec<PageRender> = plan
        .jobs
        .iter()
        .filter_map(|job| page_render(state, &views, job))
        .collect();
    renders
        .into_par_iter()
        .map(|PageRender { file, template, view }| {
            // Templates read the view as `page` only.
            let mut context = tera::Context::new();
            context.insert("page", &view);
            context.insert("lang", &view.lang);
            context.insert("site", &site.config);
            context.insert("head_script", &head_script);
            context.insert("styles", &styles);
            context.insert("dev", &dev);
            let html = state.tera.render(&template, &context).map_err(|e| {
                anyhow!(
                    "Failed to render {} with {template}: {}",
                    view.url,
                    templates::describe(&e)
                )
            })?;
            Ok((file, html))
        })
        .collect()
}

/// What `job` renders, if it is a page.
fn page_render(state: &State, views: &ViewContext, job: &Job) -> Option<PageRender> {
    match job {
        Job::Page { route, lang } => {
            let page = state.site.pages.get(route, lang)?;
            let view = views.page(page);
            let template = (page.source.front.template.as_deref())
                .unwrap_or(page.kind.default_template())
                .to_string();
            Some(PageRender {
                file: site_contract::page_file(&view.url),
                template,
                view,
            })
        }
        Job::NotFound { collection, key, lang } => {
            let view = views.not_found(collection, key, lang);
            Some(PageRender {
                file: site_contract::not_found_file(&view.url),
                template: "not_found.html".into(),
                view,
            })
        }
        _ => None,
    }
}
