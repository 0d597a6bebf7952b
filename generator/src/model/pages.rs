//! The page model: every route in every language, with its source file, its rendered Markdown,
//! whether it is a fallback and whether it becomes a page of its own. Page counts, the sitemap,
//! the search index, the link check and `site check` all read this one model.

use crate::diagnostics::{fail_on, fail_under, Diagnostic};
use crate::model::config::SiteConfig;
use crate::model::content::{Cover, PageKind, SourcePage, Sources};
use crate::model::date::PageDate;
use crate::model::links::{Headings, LinkTargets};
use crate::model::markdown::{self, RenderCache, RenderOptions, Rendered};
use crate::model::photos::{picture_html, Photos, Place};
use crate::model::site_values;
use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
use std::path::Path;
use std::sync::Arc;

/// What a template is asked to show, which picks its default template and the body's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ViewKind {
    Home,
    /// A collection's list of entries.
    Collection,
    /// A section landing page listing its child pages.
    Section,
    Entry,
    Single,
    /// The page shown for an unknown entry of a collection.
    NotFound,
    /// The list of every tag.
    TagIndex,
    /// The pages carrying one tag.
    Tag,
}

impl ViewKind {
    pub fn of(kind: &PageKind) -> ViewKind {
        match kind {
            PageKind::Home => ViewKind::Home,
            PageKind::Collection { .. } => ViewKind::Collection,
            PageKind::Section => ViewKind::Section,
            PageKind::Entry { .. } => ViewKind::Entry,
            PageKind::Single => ViewKind::Single,
            PageKind::TagIndex => ViewKind::TagIndex,
            PageKind::Tag { .. } => ViewKind::Tag,
        }
    }

    /// As templates compare it (`page.kind == "entry"`) and as the body's class names it.
    pub fn name(self) -> &'static str {
        match self {
            ViewKind::Home => "home",
            ViewKind::Collection => "collection",
            ViewKind::Section => "section",
            ViewKind::Entry => "entry",
            ViewKind::Single => "single",
            ViewKind::NotFound => "not-found",
            ViewKind::TagIndex => "tag-index",
            ViewKind::Tag => "tag",
        }
    }

    /// The template used unless the front matter names another.
    pub fn default_template(self) -> &'static str {
        match self {
            ViewKind::Home => "home.html",
            ViewKind::Collection => "collection.html",
            ViewKind::Section => "section.html",
            ViewKind::Entry => "entry.html",
            ViewKind::Single => "page.html",
            ViewKind::NotFound => "not_found.html",
            ViewKind::TagIndex => "tags.html",
            ViewKind::Tag => "tag.html",
        }
    }
}

/// One route in one language.
#[derive(Debug)]
pub struct Page {
    /// The language the page is shown in.
    pub lang: String,
    /// Its file: the page's own, or the default language's when this language has none yet.
    pub source: Arc<SourcePage>,
    /// The source's Markdown rendered for `lang` (links point at pages of `lang`).
    pub rendered: Rendered,
    /// This language has no file yet: the page shows the default language's text.
    pub fallback: bool,
    /// The front matter's `cover:` photo as HTML, above the text.
    pub cover: Option<String>,
    /// Written as a page of its own, and so in the sitemap, the search index and the page count,
    /// and a target for links. Entries of a collection without entry pages (app projects) are
    /// shown only in its list (README, "Writing content").
    pub gets_page: bool,
    pub kind: ViewKind,
}

impl Page {
    pub fn route(&self) -> &str {
        &self.source.route
    }

    /// Made by the build rather than written in a file: the tag pages.
    pub fn is_generated(&self) -> bool {
        matches!(self.source.kind, PageKind::TagIndex | PageKind::Tag { .. })
    }

    /// When the page last changed: its `updated`, else its `date`.
    pub fn updated(&self) -> Option<PageDate> {
        self.source.front.updated.or(self.source.front.date)
    }

    /// The collection whose entry this page is.
    pub fn collection(&self) -> Option<&str> {
        match &self.source.kind {
            PageKind::Entry { collection } => Some(collection),
            _ => None,
        }
    }
}

/// Every page of the site, by route (English) and language.
#[derive(Debug)]
pub struct Pages {
    by_route: BTreeMap<String, BTreeMap<String, Page>>,
}

/// Whether pages of `kind` are written as pages of their own.
fn gets_page(kind: &PageKind, config: &SiteConfig) -> bool {
    match kind {
        PageKind::Entry { collection } => config.collections.get(collection).is_some_and(|c| c.entry_pages),
        _ => true,
    }
}

/// A page and the key its render is kept under (None: rendered on every build).
type RenderedPage = (Page, Option<String>);

/// Renders `source` for `lang`; an error names the file and its line.
fn render_page(
    source: &Arc<SourcePage>,
    lang: &str,
    config: &SiteConfig,
    photos: &Photos,
    cache: &RenderCache,
) -> Result<RenderedPage, Diagnostic> {
    let line_breaks = match &source.kind {
        PageKind::Entry { collection } => config.collections.get(collection).is_some_and(|c| c.line_breaks),
        _ => false,
    };
    let cover = (source.front.cover.as_ref())
        .map(|cover| cover_html(cover, photos))
        .transpose()
        .map_err(|message| source.problem_at_key("cover", message))?;
    let options = RenderOptions {
        lang,
        default_language: &config.default_language,
        line_breaks,
        photos: Some(photos),
        photo_above: cover.is_some(),
        phrases: config
            .language(lang)
            .phrase_breaks
            .map(crate::model::markdown::phrases::model),
    };
    let body = site_values::fill(&source.body, config);
    let (mut rendered, key) = (body
        .and_then(|body| cache.render(&body, &options, || markdown::render(&body, &options))))
    .map_err(|e| Diagnostic::at(&source.path, source.body_line + e.line - 1, e.message))?;
    if let Some(cover) = &source.front.cover {
        rendered.photos.insert(0, cover.src.clone());
    }
    let page = Page {
        lang: lang.to_string(),
        source: source.clone(),
        rendered,
        fallback: source.lang != lang,
        cover,
        gets_page: gets_page(&source.kind, config),
        kind: ViewKind::of(&source.kind),
    };
    Ok((page, key))
}

/// The cover photo as a `<picture>`, fetched first: it is the page's largest paint.
fn cover_html(cover: &Cover, photos: &Photos) -> Result<String, String> {
    match photos.get(&cover.src)? {
        Some(photo) => Ok(picture_html(&photo, &cover.alt, Place::Cover)),
        None => Err(format!(
            "cover {}: a cover is a JPEG or PNG of static/images/",
            cover.src
        )),
    }
}

/// Pages by route and language.
type ByRoute = BTreeMap<String, BTreeMap<String, Page>>;

/// The pages whose render may be kept: route, language and key.
type KeptRenders = Vec<(String, String, String)>;

/// The pages of `routes` in every language of the site, rendered in parallel, with the key each
/// page's render is kept under (route, language, key).
fn render_routes<'a>(
    sources: &Sources,
    routes: impl Iterator<Item = &'a String>,
    config: &SiteConfig,
    photos: &Photos,
    cache: &RenderCache,
) -> Result<(ByRoute, KeptRenders)> {
    let jobs: Vec<(&Arc<SourcePage>, &str)> = routes
        .flat_map(|route| {
            let files = &sources[route];
            let default = &files[&config.default_language];
            config
                .language_codes()
                .map(move |lang| (files.get(lang).unwrap_or(default), lang))
        })
        .collect();
    let results: Vec<Result<RenderedPage, Diagnostic>> = jobs
        .par_iter()
        .map(|(source, lang)| render_page(source, lang, config, photos, cache))
        .collect();
    let mut by_route = ByRoute::new();
    let mut keys = Vec::new();
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok((page, key)) => {
                if let Some(key) = key {
                    keys.push((page.route().to_string(), page.lang.clone(), key));
                }
                by_route
                    .entry(page.route().to_string())
                    .or_default()
                    .insert(page.lang.clone(), page);
            }
            Err(e) => errors.push(e),
        }
    }
    fail_on(errors)?;
    Ok((by_route, keys))
}

impl Pages {
    /// Every route in every language of the site, rendered from Markdown (a language without a
    /// file renders the default language's) or taken from `cache`, or every error with its file
    /// and line. The cache keeps this build's renders.
    pub fn render(sources: &Sources, config: &SiteConfig, photos: &Photos, cache: RenderCache) -> Result<Pages> {
        let (by_route, keys) = render_routes(sources, sources.keys(), config, photos, &cache)?;
        let pages = Pages { by_route };
        let renders =
            (keys.iter()).filter_map(|(route, lang, key)| Some((key.as_str(), &pages.get(route, lang)?.rendered)));
        cache.keep(renders);
        Ok(pages)
    }

    /// Renders again the routes of `routes` from `sources` (a route no longer in `sources` is
    /// gone), leaving every other page as it is: what a rebuild after a Markdown edit needs.
    pub fn rerender(
        &mut self,
        sources: &Sources,
        routes: &BTreeSet<String>,
        config: &SiteConfig,
        photos: &Photos,
    ) -> Result<()> {
        let kept = routes.iter().filter(|r| sources.contains_key(*r));
        let (mut fresh, _) = render_routes(sources, kept, config, photos, &RenderCache::none())?;
        for route in routes {
            match fresh.remove(route) {
                Some(versions) => self.by_route.insert(route.clone(), versions),
                None => self.by_route.remove(route),
            };
        }
        Ok(())
    }

    /// The kind of `route`'s pages, None when the site has no such route.
    pub fn kind_of(&self, route: &str) -> Option<ViewKind> {
        self.by_route.get(route)?.values().next().map(|p| p.kind)
    }

    pub fn get(&self, route: &str, lang: &str) -> Option<&Page> {
        self.by_route.get(route).and_then(|versions| versions.get(lang))
    }

    /// Every route (English), sorted.
    pub fn routes(&self) -> impl Iterator<Item = &str> {
        self.by_route.keys().map(String::as_str)
    }

    /// Every page, by route then language.
    pub fn all(&self) -> impl Iterator<Item = &Page> {
        self.by_route.values().flat_map(BTreeMap::values)
    }

    /// The pages written as pages of their own, by route then language: those of the owner's
    /// files first, then those the build makes (tags), so where a search weighs a tag page and
    /// the page it is named after alike, the owner's page comes first.
    pub fn built(&self) -> impl Iterator<Item = &Page> {
        let written = self.all().filter(|p| p.gets_page && !p.is_generated());
        written.chain(self.all().filter(|p| p.gets_page && p.is_generated()))
    }

    /// The routes written as pages (in every language).
    pub fn built_routes(&self) -> Vec<&str> {
        self.by_route
            .iter()
            .filter(|(_, versions)| versions.values().any(|p| p.gets_page))
            .map(|(route, _)| route.as_str())
            .collect()
    }

    /// The pages of `lang` one level below `route`: a range of the sorted routes, not a pass over
    /// every page, as each page's neighbours need them.
    fn below(&self, route: &str, lang: &str) -> Vec<&Page> {
        let prefix = format!("{route}/");
        let depth = prefix.len();
        let from_prefix = (Bound::Included(prefix.as_str()), Bound::Unbounded);
        (self.by_route.range::<str, _>(from_prefix))
            .take_while(move |(r, _)| r.starts_with(&prefix))
            .filter(move |(r, _)| !r[depth..].contains('/'))
            .filter_map(|(_, versions)| versions.get(lang))
            .collect()
    }

    /// The pages of `lang` one level below `route`, by weight then title.
    pub fn children(&self, route: &str, lang: &str) -> Vec<&Page> {
        let mut children = self.below(route, lang);
        children.sort_by(|a, b| {
            let (a, b) = (&a.source.front, &b.source.front);
            (a.weight.unwrap_or(i64::MAX), &a.title).cmp(&(b.weight.unwrap_or(i64::MAX), &b.title))
        });
        children
    }

    /// The entries of `collection` in `lang`, newest first.
    pub fn entries(&self, collection: &str, lang: &str) -> Vec<&Page> {
        let mut entries = self.below(&format!("/{collection}"), lang);
        entries.retain(|p| p.collection() == Some(collection));
        entries.sort_by(|a, b| {
            let (a, b) = (&a.source.front, &b.source.front);
            b.date.cmp(&a.date).then_with(|| a.title.cmp(&b.title))
        });
        entries
    }

    /// The pages of `lang` written as pages of their own that carry `tag`, by title.
    pub fn tagged(&self, tag: &str, lang: &str) -> Vec<&Page> {
        let mut tagged: Vec<&Page> = self
            .built()
            .filter(|p| p.lang == lang && p.source.front.tags.iter().any(|t| t == tag))
            .collect();
        tagged.sort_by(|a, b| a.source.front.title.cmp(&b.source.front.title));
        tagged
    }

    /// The pages before and after `page` in its section's order: a guide among its section's
    /// children (by weight), an entry among its collection's entries with pages (newest first).
    pub fn neighbours(&self, page: &Page) -> (Option<&Page>, Option<&Page>) {
        let siblings: Vec<&Page> = match (page.collection(), page.route().rsplit_once('/')) {
            (Some(collection), _) => self
                .entries(collection, &page.lang)
                .into_iter()
                .filter(|p| p.gets_page)
                .collect(),
            (None, Some((parent, _))) if !parent.is_empty() => self.children(parent, &page.lang),
            _ => Vec::new(),
        };
        match siblings.iter().position(|p| p.route() == page.route()) {
            Some(at) => (at.checked_sub(1).map(|i| siblings[i]), siblings.get(at + 1).copied()),
            None => (None, None),
        }
    }

    /// Whether `page` is an article: a note or web-project write-up (an entry with a page of its
    /// own) or a page inside a section (`/valuation-models/dcf`). Feeds list these, and their
    /// structured data calls them `Article`.
    pub fn is_article(&self, page: &Page) -> bool {
        match page.kind {
            ViewKind::Entry => page.gets_page,
            ViewKind::Single => page.route().rsplit_once('/').is_some_and(|(parent, _)| {
                self.by_route
                    .get(parent)
                    .and_then(|versions| versions.values().next())
                    .is_some_and(|p| p.kind == ViewKind::Section)
            }),
            _ => false,
        }
    }

    /// The newest `date` or `updated` of any page: the date of a page that has neither.
    pub fn newest_date(&self) -> Option<PageDate> {
        self.all()
            .filter_map(|p| p.source.front.updated.max(p.source.front.date))
            .max()
    }

    /// Fails on a link to a page, heading or image that does not exist, naming file and line.
    /// Only pages of their own are link targets: an app project's route leads nowhere.
    /// `only`: the routes whose pages' links to check (every page's when None).
    pub fn check_links(&self, static_dir: &Path, only: Option<&BTreeSet<String>>) -> Result<()> {
        let targets = LinkTargets {
            headings: self,
            static_dir,
        };
        let pages: Box<dyn Iterator<Item = &Page>> = match only {
            None => Box::new(self.all()),
            Some(routes) => Box::new(
                (routes.iter())
                    .filter_map(|route| self.by_route.get(route))
                    .flat_map(BTreeMap::values),
            ),
        };
        let mut errors = Vec::new();
        // A fallback is the default language's file again: its links were checked in that language.
        for page in pages.filter(|p| !p.fallback) {
            for (url, line) in &page.rendered.links {
                if let Some(problem) = targets.problem(url, &page.lang) {
                    let source = &page.source;
                    errors.push(Diagnostic::at(&source.path, source.body_line + line - 1, problem));
                }
            }
        }
        fail_under(Some("broken internal links:"), errors)
    }
}

/// Links point at the pages written as pages of their own.
impl Headings for Pages {
    fn has_page(&self, route: &str) -> bool {
        (self.by_route.get(route)).is_some_and(|versions| versions.values().any(|p| p.gets_page))
    }

    fn has_heading(&self, route: &str, lang: &str, id: &str) -> bool {
        (self.get(route, lang)).is_some_and(|p| p.gets_page && p.rendered.headings.iter().any(|h| h.id == id))
    }
}
