//! The site as its sources describe it: the config, the UI text and every page in every
//! language, rendered from Markdown, with the checks across pages and the warnings.

use crate::diagnostics::{fail_on, Diagnostic};
use crate::model::cards::Cards;
use crate::model::config::SiteConfig;
use crate::model::content::{self, Sources};
use crate::model::locales::Locales;
use crate::model::markdown::RenderCache;
use crate::model::pages::Pages;
use crate::model::photos::{Photo, Photos};
use crate::model::publishing::{self, HeldBack, Publishing};
use crate::model::{site_values, tags, translations};
use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct Site {
    pub config: SiteConfig,
    pub languages: Vec<String>,
    /// The languages as `_site.json` lists them for the server, each with the membership API's
    /// messages (`locales/<code>/api.json`).
    pub served_languages: Vec<site_contract::Language>,
    pub locales: Arc<Locales>,
    pub pages: Pages,
    /// The photos the pages show, processed as they rendered.
    pub photos: Arc<Photos>,
    /// The owner's image (`owner.image`) when it is a photo the build processed.
    pub portrait: Option<Arc<Photo>>,
    /// The pages' link-preview cards, when site-config.yaml has them (`cards:`).
    pub cards: Option<Cards>,
    /// The page files as read (the tag pages aside), kept so `site watch` can read one again.
    pub sources: Sources,
    /// What the build shows of pages not published yet, and the files it left out.
    pub publishing: Publishing,
    pub held_back: Vec<HeldBack>,
    pub warnings: Vec<String>,
    /// Each route's warnings, kept so that `site watch` makes again only those of the routes it
    /// renders again.
    route_warnings: BTreeMap<String, RouteWarnings>,
}

/// What a route's languages are warned of: a page that shows the English text for want of a
/// file, a translation out of step with its English page.
struct RouteWarnings {
    fallbacks: Vec<String>,
    translations: Vec<String>,
}

/// The pages a reload rendered again, for `Site::check`.
pub struct Rerendered<'a> {
    pub routes: &'a BTreeSet<String>,
    /// No page came, went or changed its headings: only the links of `routes` need checking.
    pub targets_kept: bool,
}

impl Site {
    /// Reads the config, locales and content, renders every page's Markdown and checks its links.
    pub fn load(root: &Path) -> Result<Site> {
        let (mut site, tag_warnings) = Site::read(root, Publishing::published(), None, None)?;
        site.check(root, tag_warnings, None)?;
        Ok(site)
    }

    /// Reads the config, locales and content and renders every page's Markdown, with the
    /// warnings of the tag pages; `check` has not run. The files `publishing` does not show are
    /// left out first, so nothing after sees them. Photos and cards are kept in `photo_cache` between builds.
    pub fn read(
        root: &Path,
        publishing: Publishing,
        photo_cache: Option<&Path>,
        markdown_cache: Option<&Path>,
    ) -> Result<(Site, Vec<String>)> {
        let config = crate::model::config::load(&root.join("site-config.yaml"))?;
        let languages: Vec<String> = config.language_codes().map(String::from).collect();
        let locales = Arc::new(Locales::load(
            &root.join("locales"),
            &languages,
            &config.default_language,
        )?);
        let served_languages = api_messages(&config, &root.join("locales"))?;
        let mut sources = content::load(
            &root.join("content"),
            &languages,
            &config.default_language,
            &config.collections.keys().cloned().collect::<Vec<_>>(),
        )?;
        let held_back = publishing::hold_back(&mut sources, &publishing, &config.default_language)?;
        let (with_tags, tag_warnings) = with_tag_pages(&sources, &config, &locales, root)?;
        let photos = Arc::new(Photos::new(&root.join("static"), photo_cache));
        let pages = Pages::render(&with_tags, &config, &photos, RenderCache::open(markdown_cache))?;
        let portrait = (photos.get(&config.owner.image)).map_err(|message| {
            Diagnostic::in_file(&root.join("site-config.yaml"), format!("owner.image: {message}"))
        })?;
        let cards = Cards::load(root, &config, photo_cache)?;
        let site = Site {
            cards,
            config,
            languages,
            served_languages,
            locales,
            pages,
            photos,
            portrait,
            sources,
            publishing,
            held_back,
            warnings: Vec::new(),
            route_warnings: BTreeMap::new(),
        };
        Ok((site, tag_warnings))
    }

    /// Reads the Markdown files `changed` again (or forgets those that are gone), giving their
    /// routes; `rerender` renders those routes.
    pub fn reread(&mut self, root: &Path, changed: &[PathBuf]) -> Result<BTreeSet<String>> {
        let content_dir = root.join("content");
        let collections: Vec<String> = self.config.collections.keys().cloned().collect();
        let mut routes = BTreeSet::new();
        for path in changed {
            routes.insert(content::reload_file(
                &mut self.sources,
                &content_dir,
                path,
                &self.languages,
                &self.config.default_language,
                &collections,
            )?);
        }
        let default_language = &self.config.default_language;
        let held = publishing::hold_back(&mut self.sources, &self.publishing, default_language)?;
        self.held_back.retain(|h| !routes.contains(&h.route));
        self.held_back.extend(held);
        Ok(routes)
    }

    /// Renders again the pages of `routes` and the tag pages that came or went.
    pub fn rerender(&mut self, root: &Path, routes: &BTreeSet<String>) -> Result<Reloaded> {
        let (with_tags, tag_warnings) = with_tag_pages(&self.sources, &self.config, &self.locales, root)?;
        // Tag pages come and go with their tags; those that stay have the same (empty) text.
        let old_tags: BTreeSet<String> = (self.pages.routes())
            .filter(|r| tags::is_tag_route(r))
            .map(String::from)
            .collect();
        let new_tags: BTreeSet<String> = with_tags.keys().filter(|r| tags::is_tag_route(r)).cloned().collect();
        let mut rerendered = routes.clone();
        rerendered.extend(old_tags.symmetric_difference(&new_tags).cloned());
        self.pages
            .rerender(&with_tags, &rerendered, &self.config, &self.photos)?;
        Ok(Reloaded {
            rerendered,
            tags_kept: old_tags == new_tags,
            tag_warnings,
        })
    }

    /// The checks across pages (links, preview images) and the warnings, which `site watch` makes
    /// again after it renders some pages again (`rendered`; None: every page is new).
    pub fn check(&mut self, root: &Path, tag_warnings: Vec<String>, rendered: Option<Rerendered>) -> Result<()> {
        let links_of = rendered.as_ref().filter(|r| r.targets_kept).map(|r| r.routes);
        self.pages.check_links(&root.join("static"), links_of)?;
        check_preview_images(&self.config, &self.pages, &root.join("static"))?;
        match rendered {
            None => {
                self.route_warnings = (self.pages.routes())
                    .map(|route| (route.to_string(), self.warnings_of(route)))
                    .collect();
            }
            Some(Rerendered { routes, .. }) => {
                for route in routes {
                    match self.pages.kind_of(route) {
                        Some(_) => self.route_warnings.insert(route.clone(), self.warnings_of(route)),
                        None => self.route_warnings.remove(route),
                    };
                }
            }
        }
        let mut warnings: Vec<String> = (self.locales.missing_keys().into_iter())
            .map(|key| format!("locales/{key} is missing (English is used)"))
            .collect();
        warnings.extend(self.route_warnings.values().flat_map(|w| w.fallbacks.iter().cloned()));
        warnings.extend(site_values::placeholder_warnings(&self.config));
        warnings.extend(
            self.route_warnings
                .values()
                .flat_map(|w| w.translations.iter().cloned()),
        );
        warnings.extend(tag_warnings);
        self.warnings = warnings;
        Ok(())
    }

    /// The warnings about `route`'s languages.
    fn warnings_of(&self, route: &str) -> RouteWarnings {
        let fallbacks = (self.languages.iter())
            .filter_map(|lang| self.pages.get(route, lang))
            .filter(|page| page.fallback)
            .map(|page| {
                format!(
                    "{}: no {lang} version yet; the {lang} page shows the English text",
                    page.source.path.display(),
                    lang = page.lang
                )
            })
            .collect();
        let translations = translations::warnings(&translations::of_route(&self.pages, &self.config, route));
        RouteWarnings {
            fallbacks,
            translations,
        }
    }

    /// The pages a build writes, the collections' not-found pages aside.
    pub fn page_count(&self) -> usize {
        self.pages.built().count()
    }
}

/// What `Site::rerender` did.
pub struct Reloaded {
    /// The routes given and the tag pages that came or went: the pages rendered again.
    pub rerendered: BTreeSet<String>,
    /// The same tag pages as before.
    pub tags_kept: bool,
    pub tag_warnings: Vec<String>,
}

/// Each language's API messages (site-contract's reader), a mistake in a file a diagnostic there.
fn api_messages(config: &SiteConfig, locales_dir: &Path) -> Result<Vec<site_contract::Language>> {
    site_contract::site_languages(config, locales_dir).map_err(|e| match e.line {
        Some((line, column)) => Diagnostic::at_column(&e.path, line, column, e.message).into(),
        None => Diagnostic::in_file(&e.path, e.message).into(),
    })
}

/// `sources` and the tag pages they call for (`tags::add_pages`), and its warnings.
fn with_tag_pages(
    sources: &Sources,
    config: &SiteConfig,
    locales: &Locales,
    root: &Path,
) -> Result<(Sources, Vec<String>)> {
    let mut with_tags = sources.clone();
    let warnings = tags::add_pages(&mut with_tags, config, locales, &root.join("content"))?;
    Ok((with_tags, warnings))
}

/// Fails on a link-preview image (`og_image`, a page's `image:`) that is not a file of `static/`.
fn check_preview_images(config: &SiteConfig, pages: &Pages, static_dir: &Path) -> Result<()> {
    let missing = |src: &str| !static_dir.join(src.trim_start_matches('/')).is_file();
    let mut errors = Vec::new();
    if let Some(image) = config.og_image.as_ref().filter(|i| missing(&i.src)) {
        errors.push(Diagnostic::in_file(
            Path::new("site-config.yaml"),
            format!("og_image `{}` is not a file of {}", image.src, static_dir.display()),
        ));
    }
    for page in pages.all().filter(|p| !p.fallback) {
        if let Some(image) = page.source.front.image.as_ref().filter(|i| missing(&i.src)) {
            errors.push(page.source.problem_at_key(
                "image",
                format!("image `{}` is not a file of {}", image.src, static_dir.display()),
            ));
        }
    }
    fail_on(errors)
}
