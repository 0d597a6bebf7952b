//! Every check of a build, in one place: `site build`, `site check` and each rebuild of
//! `site watch` run these and no others, so none can be made in one and forgotten in another.

use super::state::{Change, State};
use super::BuildOptions;
use crate::diagnostics::{fail_on, Diagnostic};
use crate::model::pages::Pages;
use crate::model::site::{Rerendered, Site};
use crate::output::assets::Manifest;
use crate::render::islands::IslandItem;
use anyhow::{bail, Result};
use std::collections::HashSet;
use std::path::Path;

/// The checks of the sources, before any page is rendered with its template: links and preview
/// images (`Site::check`, which also makes the warnings), front matter `island:`, `template:` and
/// `aliases:`, and the routes and labels the config names (`frames`, `top_bar`, `footer`).
pub(crate) fn sources(state: &mut State, options: &BuildOptions, change: &Change) -> Result<()> {
    let rerendered = change.routes.as_ref().map(|routes| Rerendered {
        routes: &routes.rerendered,
        targets_kept: routes.targets_kept,
    });
    (state.site).check(&options.root, change.tag_warnings.clone(), rerendered)?;
    if state.ui.is_none() {
        state.site.warnings.push(format!(
            "{} has no UI bundle: pages have no styles or scripts (build the UI with `npm --prefix ui run build`)",
            options.out.display()
        ));
    }
    card_glyphs(&mut state.site);
    page_islands(&state.site.pages, state.ui.as_ref())?;
    config_routes(&state.site)?;
    page_templates(&state.tera, &state.site.pages)?;
    let aliases = crate::model::aliases::of(&state.site)?;
    state.aliases_changed = aliases != state.aliases;
    state.aliases = aliases;
    Ok(())
}

/// Warns of each card whose text its font cannot draw in full (`Cards::coverage_warning`).
fn card_glyphs(site: &mut Site) {
    let Some(cards) = &site.cards else {
        return;
    };
    let warnings: Vec<String> = (site.pages.built())
        .filter_map(|page| cards.coverage_warning(page, &cards.of(&site.config, &site.locales, page)?))
        .collect();
    site.warnings.extend(warnings);
}

/// Fails on a front matter `island:` the UI bundle does not have, naming file and line. Without a
/// UI bundle, `template_islands` fails on any island at all.
fn page_islands(pages: &Pages, manifest: Option<&Manifest>) -> Result<()> {
    let Some(manifest) = manifest else {
        return Ok(());
    };
    let errors = pages.all().filter(|page| !page.fallback).filter_map(|page| {
        let name = &page.source.front.island.as_ref()?.name;
        (!manifest.islands.contains_key(name)).then(|| {
            page.source.problem_at_key(
                "island",
                format!(
                    "unknown island `{name}` (the UI bundle has {}; islands are the files ui/src/islands/<Name>.tsx)",
                    manifest.islands.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )
        })
    });
    fail_on(errors)
}

/// A `frames` entry and a link of `top_bar` or `footer` (site-config.yaml) must name a page: a
/// misspelt route would leave the page it meant in the full frame, or a link going nowhere, without
/// a word. A link's label must be a text of the default language's locale.
fn config_routes(site: &Site) -> Result<()> {
    let routes: HashSet<&str> = site.pages.built_routes().into_iter().collect();
    let config = &site.config;
    let problem = |message: String| Diagnostic::in_file(Path::new("site-config.yaml"), message);
    let frames = (config.frames.keys())
        .filter(|route| !routes.contains(route.as_str()))
        .map(|route| problem(format!("frames: `{route}` is not the route of a page")));
    let links = [
        ("top_bar", "topbar", &config.top_bar),
        ("footer", "footer", &config.footer),
    ]
    .into_iter()
    .flat_map(|(part, prefix, links)| links.iter().map(move |link| (part, prefix, link)));
    let mut errors: Vec<Diagnostic> = frames.collect();
    for (part, prefix, link) in links {
        if !routes.contains(link.link.as_str()) {
            errors.push(problem(format!("{part}: `{}` is not the route of a page", link.link)));
        }
        let key = format!("{prefix}.{}", link.key);
        if site
            .locales
            .get(&config.default_language, "translation", &key)
            .is_none()
        {
            errors.push(problem(format!(
                "{part}: `{}` has no label: locales/{}/translation.json has no `{key}`",
                link.key, config.default_language
            )));
        }
    }
    fail_on(errors)
}

/// Fails on a front matter `template:` that names no template, naming file and line.
fn page_templates(tera: &tera::Tera, pages: &Pages) -> Result<()> {
    // Partials are pieces of the page templates, not templates a page can name.
    let mut known: Vec<&str> = tera
        .get_template_names()
        .filter(|name| !name.starts_with("partials/"))
        .collect();
    known.sort();
    let errors = pages.all().filter(|page| !page.fallback).filter_map(|page| {
        let name = page.source.front.template.as_ref()?;
        (!known.contains(&name.as_str())).then(|| {
            page.source.problem_at_key(
                "template",
                format!("unknown template `{name}` (there are: {})", known.join(", ")),
            )
        })
    });
    fail_on(errors)
}

/// The check of the rendered pages: the islands their templates place must be in the UI bundle,
/// and there must be a UI bundle when any page has an island.
pub(crate) fn template_islands(items: &[IslandItem], manifest: Option<&Manifest>, out: &Path) -> Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    let Some(manifest) = manifest else {
        bail!(
            "the pages use islands but {} has no UI bundle: run `npm --prefix ui run build` first (`make build` does)",
            out.display()
        );
    };
    let mut missing: Vec<&str> = (items.iter())
        .map(|i| i.island.as_str())
        .filter(|name| !manifest.islands.contains_key(*name))
        .collect();
    if !missing.is_empty() {
        missing.sort();
        missing.dedup();
        bail!(
            "the UI bundle has no island named {} (islands are the files ui/src/islands/<Name>.tsx)",
            missing.join(", ")
        );
    }
    Ok(())
}
