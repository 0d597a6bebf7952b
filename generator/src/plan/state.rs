//! What a build knows and has made, kept by `site watch` between builds: the site model, the
//! UI bundle's manifest, the templates, the islands' HTML, the search index, and the files of
//! `dist/`. A whole build makes it anew; a rebuild after a Markdown edit reloads the files that
//! changed and says which routes that affects (`Change`).

use super::BuildOptions;
use crate::model::pages::Pages;
use crate::model::site::Site;
use crate::model::tags;
use crate::output::assets::Manifest;
use crate::output::feed::Lineup;
use crate::output::search::entries::IndexEntry;
use crate::output::search::LanguageIndex;
use crate::output::styles::IslandStylesheets;
use crate::render::islands::{IslandCalls, IslandText};
use crate::render::templates;
use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(crate) struct State {
    pub site: Site,
    /// `dist/assets/manifest.json` of the UI build, None when the UI is not built.
    pub ui: Option<Manifest>,
    pub tera: tera::Tera,
    /// The islands the templates place, recorded as they render.
    pub island_calls: Arc<IslandCalls>,
    /// The UI text blocks of the pages (locales change only with a whole build).
    pub island_text: IslandText,
    /// Each distinct island's HTML by identity.
    pub island_html: HashMap<String, String>,
    /// The search index as the last build wrote it (None before the first).
    pub search: Option<SearchKept>,
    /// What each language's feed shows (`feed::lineups`), by language, in a `--dev` build.
    pub feed_lineups: Vec<Lineup>,
    /// The islands' stylesheet each page names.
    pub island_stylesheets: IslandStylesheets,
    /// Every file of `dist/` the builds wrote, relative to it.
    pub files: HashSet<PathBuf>,
    /// The pages' old URLs, as the last check found them (`model::aliases`).
    pub aliases: Vec<site_contract::Alias>,
    /// The last check found other aliases than the one before (`_site.json` is written again).
    pub aliases_changed: bool,
}

/// The search index a build wrote.
pub(crate) struct SearchKept {
    /// Each page's entry, in the index's order.
    pub entries: Vec<IndexEntry>,
    /// Each language's files, their bytes taken (they are in `dist/`).
    pub languages: Vec<LanguageIndex>,
}

/// What changed in the sources since the state was made.
pub(crate) struct Change {
    pub tag_warnings: Vec<String>,
    /// None: everything (a whole build).
    pub routes: Option<ChangedRoutes>,
}

/// The routes a Markdown edit affects.
pub(crate) struct ChangedRoutes {
    /// The pages rendered again from Markdown: the files' routes and the tag pages that came or went.
    pub rerendered: BTreeSet<String>,
    /// No page came, went or changed its headings: only the links of `rerendered` need checking.
    pub targets_kept: bool,
    /// The routes whose pages may show something else now, which the plan renders again.
    pub dirty: BTreeSet<String>,
}

impl Change {
    /// The routes to render again, None for every route.
    pub fn dirty(&self) -> Option<&BTreeSet<String>> {
        self.routes.as_ref().map(|r| &r.dirty)
    }
}

impl State {
    /// Reads every source: the config, locales, content, the UI bundle's manifest, the templates.
    pub fn load(options: &BuildOptions) -> Result<(State, Change)> {
        let (site, tag_warnings) = Site::read(
            &options.root,
            options.publishing(),
            options.photo_cache.as_deref(),
            options.markdown_cache.as_deref(),
        )?;
        let ui = Manifest::load(&options.out)?;
        let island_calls = Arc::new(IslandCalls::default());
        let tera = templates::load(
            &options.templates,
            site.locales.clone(),
            island_calls.clone(),
            &site.config.default_language,
        )?;
        let island_text = IslandText::new(&site.locales)?;
        let state = State {
            site,
            ui,
            tera,
            island_calls,
            island_text,
            island_html: HashMap::new(),
            search: None,
            feed_lineups: Vec::new(),
            island_stylesheets: IslandStylesheets::default(),
            files: HashSet::new(),
            aliases: Vec::new(),
            aliases_changed: true,
        };
        let change = Change {
            tag_warnings,
            routes: None,
        };
        Ok((state, change))
    }

    /// Reads the Markdown files `changed` (paths below the site's root) again and renders their
    /// routes again; the routes whose pages show them are the change's dirty routes: those
    /// routes, the lists that show them (their parent section or collection), their neighbours
    /// and tag pages before and after, and, when a route became or stopped being a section, its
    /// children (whether a page is an article follows its parent's kind).
    pub fn reload(&mut self, root: &Path, changed: &[PathBuf]) -> Result<Change> {
        let site = &mut self.site;
        let routes = site.reread(root, changed)?;
        let before = Links::of(&site.pages, &routes, &site.languages);
        let reloaded = site.rerender(root, &routes)?;
        let after = Links::of(&site.pages, &routes, &site.languages);
        let targets_kept = reloaded.tags_kept && before.targets == after.targets;
        let mut dirty = routes.clone();
        for route in &routes {
            dirty.insert(parent(route).to_string());
            if before.kinds[route] != after.kinds[route] {
                let children = site.pages.routes().filter(|r| r != route && parent(r) == route);
                dirty.extend(children.map(String::from));
            }
        }
        dirty.extend(before.shown_on.into_iter().chain(after.shown_on));
        Ok(Change {
            tag_warnings: reloaded.tag_warnings,
            routes: Some(ChangedRoutes {
                rerendered: reloaded.rerendered,
                targets_kept,
                dirty,
            }),
        })
    }
}

/// `/notes` for `/notes/first`, `/` for `/notes` and for `/`.
fn parent(route: &str) -> &str {
    match route.rsplit_once('/') {
        Some(("", _)) | None => "/",
        Some((parent, _)) => parent,
    }
}

/// Whether a page is a page of its own, and its headings' ids.
type LinkTarget = (bool, Vec<String>);

/// What the pages of some routes show of themselves to other pages, read before and after a
/// change.
struct Links {
    /// The routes whose pages show them: previous and next pages in every language, the tag
    /// pages listing them (and the tag index when there are any).
    shown_on: BTreeSet<String>,
    kinds: BTreeMap<String, Option<crate::model::pages::ViewKind>>,
    /// What links can reach of them, in each language.
    targets: BTreeMap<String, Vec<Option<LinkTarget>>>,
}

impl Links {
    fn of(pages: &Pages, routes: &BTreeSet<String>, languages: &[String]) -> Links {
        let mut links = Links {
            shown_on: BTreeSet::new(),
            kinds: BTreeMap::new(),
            targets: BTreeMap::new(),
        };
        let mut tag_routes = BTreeSet::new();
        for route in routes {
            links.kinds.insert(route.clone(), pages.kind_of(route));
            let versions = languages.iter().map(|lang| pages.get(route, lang));
            let targets = versions.map(|page| {
                let page = page?;
                Some((
                    page.gets_page,
                    page.rendered.headings.iter().map(|h| h.id.clone()).collect(),
                ))
            });
            links.targets.insert(route.clone(), targets.collect());
            for page in languages.iter().filter_map(|lang| pages.get(route, lang)) {
                let (previous, next) = pages.neighbours(page);
                let neighbours = [previous, next].into_iter().flatten();
                links.shown_on.extend(neighbours.map(|p| p.route().to_string()));
                tag_routes.extend(page.source.front.tags.iter().map(|t| tags::route(t)));
            }
        }
        if !tag_routes.is_empty() {
            tag_routes.insert(tags::INDEX_ROUTE.to_string());
        }
        links.shown_on.extend(tag_routes);
        links
    }
}

#[cfg(test)]
mod tests {
    use super::parent;

    #[test]
    fn a_route_is_listed_by_its_parent() {
        assert_eq!(parent("/notes/first"), "/notes");
        assert_eq!(parent("/guide/a/b"), "/guide/a");
        assert_eq!(parent("/notes"), "/");
        assert_eq!(parent("/"), "/");
    }
}
