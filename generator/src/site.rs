//! The build: config, content and locales in; every page in every language, the search index,
//! sitemap, robots.txt and compressed siblings out. `build` is a list of named phases; `check`
//! runs the same phases up to the last that can fail on the site's sources, and writes nothing.

use crate::assets::Manifest;
use crate::config::SiteConfig;
use crate::content::{self, Sources};
use crate::feed;
use crate::islands::{self, IslandCalls, IslandItem, IslandText, Placement, SCRIPTS_MARKER};
use crate::locales::Locales;
use crate::output::{
    changed_alone, compress_if_changed, compress_text_files, remove_compressed, remove_stale, write_if_changed,
    write_with_siblings, Changed, Compression,
};
use crate::page_styles::{
    island_styles_tag, island_stylesheet_file, IslandStylesheets, PageStyles, ISLAND_STYLES_MARKER,
    ISLAND_STYLES_PREFIX, STYLES_MARKER,
};
use crate::pages::Pages;
use crate::search_chunks::{self, LanguageIndex, SearchFile};
use crate::search_index::{self, IndexEntry};
use crate::site_values;
use crate::sitemap;
use crate::tags;
use crate::templates;
use crate::translations::{self, Translation};
use crate::views::{PageView, ViewContext};
use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use site_contract::{SiteFacts, SITE_FACTS_FILE};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use walkdir::WalkDir;

/// The code-highlighting stylesheets, loaded by pages with code (see `markdown::syntax_stylesheet`).
const SYNTAX_LIGHT_CSS: &str = "syntax-light.css";
const SYNTAX_DARK_CSS: &str = "syntax-dark.css";
/// Compressed pages waiting for the writer, at most.
const PAGES_IN_FLIGHT: usize = 256;

pub struct BuildOptions {
    /// The site's folder: `site-config.yaml`, `content/`, `locales/`, `static/`.
    pub root: PathBuf,
    pub out: PathBuf,
    pub templates: PathBuf,
    /// The UI's server bundle that renders islands (`ui/.ssr/render.mjs`).
    pub server_bundle: PathBuf,
    /// Pages load the live-reload script of `make dev`.
    pub dev: bool,
    /// Where the islands' HTML is kept between builds, so a rebuild renders only islands whose
    /// props changed; None renders every island on every build.
    pub island_cache: Option<PathBuf>,
}

impl BuildOptions {
    /// The usual layout of a site folder.
    pub fn for_root(root: &Path) -> Self {
        BuildOptions {
            root: root.to_path_buf(),
            out: root.join("dist"),
            templates: root.join("generator/templates"),
            server_bundle: root.join("ui/.ssr/render.mjs"),
            dev: false,
            island_cache: Some(island_cache(root)),
        }
    }
}

#[derive(Debug)]
pub struct BuildReport {
    pub pages: usize,
    pub languages: Vec<String>,
    pub written: usize,
    pub warnings: Vec<String>,
    pub elapsed: Duration,
    /// The pages rendered again by a one-page rebuild of `site watch` (None: a whole build).
    pub rerendered: Option<usize>,
    /// The files below `dist/` a one-page rebuild wrote or removed (None: a whole build).
    pub touched: Option<Vec<String>>,
}

impl BuildReport {
    pub(crate) fn of(site: &Site, written: usize, started: Instant, rerendered: Option<usize>) -> Self {
        BuildReport {
            pages: site.page_count(),
            languages: site.languages.clone(),
            written,
            warnings: site.warnings.clone(),
            elapsed: started.elapsed(),
            rerendered,
            touched: None,
        }
    }

    pub fn summary(&self) -> String {
        if let Some(rerendered) = self.rerendered {
            return format!(
                "Rebuilt {rerendered} of {} pages in {:.3}s; {} files changed",
                self.pages,
                self.elapsed.as_secs_f64(),
                self.written
            );
        }
        format!(
            "Built {} pages in {} languages ({}) in {:.2}s; {} files changed",
            self.pages,
            self.languages.len(),
            self.languages.join(", "),
            self.elapsed.as_secs_f64(),
            self.written
        )
    }
}

pub use site_contract::page_file;

/// What `site check` found: the pages a build would write, and the warnings.
#[derive(Debug)]
pub struct CheckReport {
    pub pages: usize,
    pub warnings: Vec<String>,
    /// Where each page's translation into each language stands (`site check --translations`).
    pub translations: Vec<Translation>,
}

impl CheckReport {
    pub fn summary(&self) -> String {
        format!("Checked {} pages: no errors", self.pages)
    }
}

/// Where the islands' HTML of the site's last build is kept: in the temp dir, not in `dist/`
/// (which holds what is served) nor in the site's folder. Losing it only makes a build slower.
fn island_cache(root: &Path) -> PathBuf {
    use sha2::{Digest, Sha256};
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let hash = Sha256::digest(root.to_string_lossy().as_bytes());
    std::env::temp_dir().join(&format!("site-islands-{:x}", hash)[..29])
}

/// The site's sources: read, rendered from Markdown and link-checked.
pub struct Site {
    pub config: SiteConfig,
    pub languages: Vec<String>,
    pub locales: Arc<Locales>,
    pub pages: Pages,
    /// The page files as read (the tag pages aside), kept so `site watch` can read one again.
    pub sources: Sources,
    pub warnings: Vec<String>,
    /// Each route's warnings, kept so that `site watch` makes again only those of the routes it
    /// renders again.
    route_warnings: BTreeMap<String, RouteWarnings>,
}

/// The pages a rebuild rendered again, for `Site::check`.
pub(crate) struct Rendered<'a> {
    pub routes: &'a BTreeSet<String>,
    /// No page came, went or changed its headings: only the links of `routes` need checking.
    pub targets_kept: bool,
}

/// What a route's languages are warned of: a page that shows the English text for want of a
/// file, a translation out of step with its English page.
struct RouteWarnings {
    fallbacks: Vec<String>,
    translations: Vec<String>,
}

impl Site {
    /// Reads the config, locales and content, renders every page's Markdown and checks its links.
    pub fn load(root: &Path) -> Result<Site> {
        let config = SiteConfig::load(&root.join("site-config.yaml"))?;
        let languages: Vec<String> = config.language_codes().map(String::from).collect();
        let locales = Arc::new(Locales::load(
            &root.join("locales"),
            &languages,
            &config.default_language,
        )?);
        let collections: Vec<String> = config.collections.keys().cloned().collect();
        let sources = content::load(
            &root.join("content"),
            &languages,
            &config.default_language,
            &collections,
        )?;
        let (with_tags, tag_warnings) = Site::with_tag_pages(&sources, &config, &locales, root)?;
        let pages = Pages::render(&with_tags, &config)?;
        let mut site = Site {
            config,
            languages,
            locales,
            pages,
            sources,
            warnings: Vec::new(),
            route_warnings: BTreeMap::new(),
        };
        site.check(root, tag_warnings, None)?;
        Ok(site)
    }

    /// `sources` and the tag pages they call for (`tags::add_pages`), and its warnings.
    pub(crate) fn with_tag_pages(
        sources: &Sources,
        config: &SiteConfig,
        locales: &Locales,
        root: &Path,
    ) -> Result<(Sources, Vec<String>)> {
        let mut with_tags = sources.clone();
        let warnings = tags::add_pages(&mut with_tags, config, locales, &root.join("content"))?;
        Ok((with_tags, warnings))
    }

    /// The checks across pages (links, preview images) and the warnings, which `site watch` makes
    /// again after it renders some pages again (`rendered`; None: every page is new).
    pub(crate) fn check(&mut self, root: &Path, tag_warnings: Vec<String>, rendered: Option<Rendered>) -> Result<()> {
        let links_of = rendered.as_ref().filter(|r| r.targets_kept).map(|r| r.routes);
        self.pages.check_links(&root.join("static"), links_of)?;
        check_preview_images(&self.config, &self.pages, &root.join("static"))?;
        match rendered {
            None => {
                self.route_warnings = (self.pages.routes())
                    .map(|route| (route.to_string(), self.warnings_of(route)))
                    .collect();
            }
            Some(Rendered { routes, .. }) => {
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

/// Fails on a link-preview image (`og_image`, a page's `image:`) that is not a file of `static/`.
fn check_preview_images(config: &SiteConfig, pages: &Pages, static_dir: &Path) -> Result<()> {
    let missing = |src: &str| !static_dir.join(src.trim_start_matches('/')).is_file();
    let mut errors = BTreeSet::new();
    if let Some(image) = config.og_image.as_ref().filter(|i| missing(&i.src)) {
        errors.insert(format!(
            "site-config.yaml: og_image `{}` is not a file of {}",
            image.src,
            static_dir.display()
        ));
    }
    for page in pages.all().filter(|p| !p.fallback) {
        if let Some(image) = page.source.front.image.as_ref().filter(|i| missing(&i.src)) {
            errors.insert(format!(
                "{}: image `{}` is not a file of {}",
                page.source.at_key("image"),
                image.src,
                static_dir.display()
            ));
        }
    }
    fail_on(errors)
}

/// The search index's files: a manifest the search page names and the chunks it lists.
pub(crate) struct SearchIndexFile {
    /// Each language's files: a rebuild writes only those whose bytes changed.
    languages: Vec<LanguageIndex>,
    manifest: SearchFile,
    /// The paths (below `assets/`) of the last build's files this one makes no more.
    pub gone: Vec<String>,
}

/// The search index manifest's name in a `--dev` build: one name, so an edit does not change the
/// search page's props (and with them its island). The manifest still versions the files it
/// lists, and the server does not serve it as immutable (its name carries no hash).
const DEV_SEARCH_INDEX: &str = "search-index-dev.json";

/// How the search entries changed in a rebuild.
pub(crate) enum SearchEdits {
    /// Pages came, went or moved: their ids (places in the index) changed.
    Moved,
    /// Entries replaced in place: their places in the index and the entries they had.
    Replaced(Vec<(usize, IndexEntry)>),
}

impl SearchIndexFile {
    /// A `--dev` build keeps each language's postings in memory, for `update` under `site watch`.
    pub(crate) fn encode(site: &Site, entries: &[IndexEntry], dev: bool) -> Self {
        let languages = (site.languages.par_iter())
            .map(|lang| LanguageIndex::encode(entries, lang, &site.locales, dev))
            .collect();
        SearchIndexFile::assemble(languages, dev)
    }

    /// The index after a rebuild changed the entries (`entries` now): the languages whose entries
    /// the edits replaced serialise the files that show them, the others stay as the last build
    /// (`kept`) wrote them.
    pub(crate) fn update(
        kept: Vec<LanguageIndex>,
        site: &Site,
        entries: &[IndexEntry],
        edits: &SearchEdits,
        dev: bool,
    ) -> Self {
        let update = |mut language: LanguageIndex| {
            let replaced: Vec<(usize, &IndexEntry)> = match edits {
                SearchEdits::Moved => return LanguageIndex::encode(entries, &language.lang, &site.locales, dev),
                SearchEdits::Replaced(replaced) => (replaced.iter())
                    .filter(|(_, old)| old.lang == language.lang)
                    .map(|(order, old)| (*order, old))
                    .collect(),
            };
            if !replaced.is_empty() && !language.update(entries, &replaced) {
                return LanguageIndex::encode(entries, &language.lang, &site.locales, dev);
            }
            language
        };
        let (languages, gone): (Vec<LanguageIndex>, Vec<Vec<String>>) = (kept.into_par_iter())
            .map(|language| {
                let before = language.counts();
                let language = update(language);
                let gone = language.gone_since(before);
                (language, gone)
            })
            .unzip();
        let mut index = SearchIndexFile::assemble(languages, dev);
        index.gone = gone.concat();
        index
    }

    fn assemble(languages: Vec<LanguageIndex>, dev: bool) -> Self {
        let mut manifest = search_chunks::manifest(&languages);
        if dev {
            manifest.path = DEV_SEARCH_INDEX.to_string();
        }
        SearchIndexFile {
            languages,
            manifest,
            gone: Vec::new(),
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("/assets/{}", self.manifest.path)
    }
}

/// What a build has made before it writes anything: every page's HTML (its islands still empty
/// slots), the islands the pages use and the search index. `site check` stops here.
struct Prepared {
    site: Site,
    manifest: Option<Manifest>,
    tera: tera::Tera,
    island_calls: Arc<IslandCalls>,
    search_entries: Vec<IndexEntry>,
    search_index: SearchIndexFile,
    /// Each page's file below `dist/` and its HTML.
    pages: Vec<(PathBuf, String)>,
    islands: Placement,
}

/// The phases `site check` and `site build` share: every check a build makes runs here.
fn prepare(options: &BuildOptions) -> Result<Prepared> {
    let mut site = Site::load(&options.root)?;
    let manifest = load_ui_manifest(&options.out, &mut site.warnings)?;
    check_page_islands(&site.pages, manifest.as_ref())?;
    check_frames(&site)?;
    let island_calls = Arc::new(IslandCalls::default());
    let tera = load_templates(options, &site, island_calls.clone())?;
    // The search index comes before the pages: the search page's props name its hashed file.
    let search_entries = search_index::entries(&site.pages, &site.config);
    let search_index = SearchIndexFile::encode(&site, &search_entries, options.dev);
    let pages = render_templates(&site, &tera, manifest.as_ref(), &search_index.url(), options.dev, None)?;
    let islands = islands::place(&island_calls, &pages)?;
    check_template_islands(&islands.items, manifest.as_ref(), &options.out)?;
    Ok(Prepared {
        site,
        manifest,
        tera,
        island_calls,
        search_entries,
        search_index,
        pages,
        islands,
    })
}

/// Checks everything `build` checks, writing nothing.
pub fn check(options: &BuildOptions) -> Result<CheckReport> {
    let Prepared { site, .. } = prepare(options)?;
    Ok(CheckReport {
        pages: site.page_count(),
        translations: translations::all(&site.pages, &site.config),
        warnings: site.warnings,
    })
}

pub fn build(options: &BuildOptions) -> Result<BuildReport> {
    Ok(build_keeping(options)?.0)
}

/// What `site watch` keeps of its last build, so that after a Markdown edit it renders only the
/// pages that change (`incremental`).
pub(crate) struct Kept {
    pub site: Site,
    pub manifest: Option<Manifest>,
    pub tera: tera::Tera,
    /// The islands the templates place; cleared before rendering some pages again.
    pub island_calls: Arc<IslandCalls>,
    /// Each distinct island's HTML by identity.
    pub island_html: HashMap<String, String>,
    /// Each page's search index entry, in the index's order.
    pub search_entries: Vec<IndexEntry>,
    /// Each language's search index files, their bytes taken (they are in `dist/`).
    pub search_index: Vec<LanguageIndex>,
    /// Every file of `dist/` the build wrote, relative to it.
    pub files: HashSet<PathBuf>,
    /// Where the pages fetch the search index's manifest from.
    pub search_index_url: String,
    /// The UI text blocks of the pages (locales change only with a whole build).
    pub island_text: IslandText,
    /// What each language's feed shows (`feed::lineups`), by language.
    pub feed_lineups: Vec<feed::Lineup>,
    /// The islands' stylesheet each page names.
    pub island_stylesheets: IslandStylesheets,
}

/// A whole build, keeping what a later one-page rebuild needs.
pub(crate) fn build_keeping(options: &BuildOptions) -> Result<(BuildReport, Kept)> {
    let started = Instant::now();
    let Prepared {
        site,
        manifest,
        tera,
        island_calls,
        search_entries,
        search_index,
        pages,
        islands,
    } = prepare(options)?;
    let mut out = Written::new(&options.out, !options.dev);
    let search_index_url = search_index.url();
    let (search_index_written, search_index) = write_search_index_in_background(&mut out, search_index);
    let (island_html, known_islands) = islands::render_all_keeping(
        &options.server_bundle,
        &site.locales,
        &islands.items,
        options.island_cache.as_deref(),
    )?;
    let island_text = IslandText::new(&site.locales)?;
    let mut island_stylesheets = IslandStylesheets::default();
    write_pages(
        &mut out,
        pages,
        &island_html,
        &islands,
        &island_text,
        manifest.as_ref(),
        &mut island_stylesheets,
    )?;
    copy_static_files(&mut out, &options.root.join("static"))?;
    write_locale_files(&mut out, &site.locales)?;
    write_site_files(&mut out, &site, manifest.as_ref(), options.dev)?;
    remove_stale_files(&out)?;
    let written = search_index_written.join().expect("search index writer")?;
    out.record_changed(written);
    if out.compress {
        compress_text_files(&options.out)?;
    } else {
        remove_compressed(&options.out)?;
    }
    let report = BuildReport::of(&site, out.changed, started, None);
    // Only `site watch`'s one-page rebuilds (of a `--dev` build) compare lineups.
    let feed_lineups = match options.dev {
        true => feed::lineups(&site.pages, &site.languages),
        false => Vec::new(),
    };
    let kept = Kept {
        site,
        manifest,
        tera,
        island_calls,
        island_html: known_islands,
        search_entries,
        search_index,
        files: out.files,
        search_index_url,
        island_text,
        feed_lineups,
        island_stylesheets,
    };
    Ok((report, kept))
}

/// `dist/assets/manifest.json` of the UI build, or None (and a warning) when the UI is not built.
fn load_ui_manifest(out: &Path, warnings: &mut Vec<String>) -> Result<Option<Manifest>> {
    let manifest = Manifest::load(out)?;
    if manifest.is_none() {
        warnings.push(format!(
            "{} has no UI bundle: pages have no styles or scripts (build the UI with `npm --prefix ui run build`)",
            out.display()
        ));
    }
    Ok(manifest)
}

/// Fails with every error, sorted, or passes when there are none.
pub(crate) fn fail_on(errors: BTreeSet<String>) -> Result<()> {
    if errors.is_empty() {
        return Ok(());
    }
    bail!("{}", errors.into_iter().collect::<Vec<_>>().join("\n"))
}

/// Fails on a front matter `island:` the UI bundle does not have, naming file and line. Without a
/// UI bundle, `check_template_islands` fails on any island at all.
pub(crate) fn check_page_islands(pages: &Pages, manifest: Option<&Manifest>) -> Result<()> {
    let Some(manifest) = manifest else {
        return Ok(());
    };
    let errors = pages
        .all()
        .filter(|page| !page.fallback)
        .filter_map(|page| {
            let name = page.source.front.island.as_ref()?;
            (!manifest.islands.contains_key(name)).then(|| {
                format!(
                    "{}: unknown island `{name}` (the UI bundle has {}; islands are the files ui/src/islands/<Name>.tsx)",
                    page.source.at_key("island"),
                    manifest.islands.keys().cloned().collect::<Vec<_>>().join(", ")
                )
            })
        })
        .collect();
    fail_on(errors)
}

/// A `frames` entry (site-config.yaml) must name a page: a misspelt route would leave the page it
/// meant in the full frame without a word.
pub(crate) fn check_frames(site: &Site) -> Result<()> {
    let routes: HashSet<&str> = site.pages.built_routes().into_iter().collect();
    let errors = site
        .config
        .frames
        .keys()
        .filter(|route| !routes.contains(route.as_str()))
        .map(|route| format!("site-config.yaml: frames: `{route}` is not the route of a page"))
        .collect();
    fail_on(errors)
}

/// The templates, after checking that every front matter `template:` names one of them.
fn load_templates(options: &BuildOptions, site: &Site, island_calls: Arc<IslandCalls>) -> Result<tera::Tera> {
    let tera = templates::load(
        &options.templates,
        site.locales.clone(),
        island_calls,
        &site.config.default_language,
    )?;
    check_page_templates(&tera, &site.pages)?;
    Ok(tera)
}

/// Fails on a front matter `template:` that names no template, naming file and line.
pub(crate) fn check_page_templates(tera: &tera::Tera, pages: &Pages) -> Result<()> {
    // Partials are pieces of the page templates, not templates a page can name.
    let mut known: Vec<&str> = tera
        .get_template_names()
        .filter(|name| !name.starts_with("partials/"))
        .collect();
    known.sort();
    let errors = pages
        .all()
        .filter(|page| !page.fallback)
        .filter_map(|page| {
            let name = page.source.front.template.as_ref()?;
            (!known.contains(&name.as_str())).then(|| {
                format!(
                    "{}: unknown template `{name}` (there are: {})",
                    page.source.at_key("template"),
                    known.join(", ")
                )
            })
        })
        .collect();
    fail_on(errors)
}

/// One page of `dist/` to render: its file, its template and what the template sees.
struct PageJob {
    file: PathBuf,
    template: String,
    view: PageView,
}

/// Every page of its own (or only those of the routes of `only`), then the not-found page of
/// each collection with entry pages (which no Markdown file changes, so not with `only`).
fn page_jobs(site: &Site, views: &ViewContext, only: Option<&BTreeSet<String>>) -> Vec<PageJob> {
    let mut jobs: Vec<PageJob> = site
        .pages
        .built()
        .filter(|page| only.is_none_or(|routes| routes.contains(page.route())))
        .map(|page| {
            let view = views.page(page);
            let template = (page.source.front.template.as_deref())
                .unwrap_or(page.kind.default_template())
                .to_string();
            PageJob {
                file: page_file(&view.url),
                template,
                view,
            }
        })
        .collect();
    if only.is_some() {
        return jobs;
    }
    for (name, collection) in &site.config.collections {
        if let (true, Some(key)) = (collection.entry_pages, &collection.not_found_key) {
            for lang in &site.languages {
                let view = views.not_found(name, key, lang);
                jobs.push(PageJob {
                    file: site_contract::not_found_file(&view.url),
                    template: "not_found.html".into(),
                    view,
                });
            }
        }
    }
    jobs
}

/// Each page's HTML (of every page, or of the routes of `only`) from its template, in parallel;
/// the templates record the islands they place.
pub(crate) fn render_templates(
    site: &Site,
    tera: &tera::Tera,
    manifest: Option<&Manifest>,
    search_index_url: &str,
    dev: bool,
    only: Option<&BTreeSet<String>>,
) -> Result<Vec<(PathBuf, String)>> {
    let views = ViewContext {
        config: &site.config,
        locales: &site.locales,
        pages: &site.pages,
        search_index_url,
    };
    let head_script = manifest
        .filter(|m| !m.head_script.is_empty())
        .map(|m| format!("<script>{}</script>", m.head_script))
        .unwrap_or_default();
    let styles = manifest.map(Manifest::style_tags).transpose()?.unwrap_or_default();
    page_jobs(site, &views, only)
        .into_par_iter()
        .map(|PageJob { file, template, view }| {
            // Templates read the view as `page` only.
            let mut context = tera::Context::new();
            context.insert("page", &view);
            context.insert("lang", &view.lang);
            context.insert("site", &site.config);
            context.insert("head_script", &head_script);
            context.insert("styles", &styles);
            context.insert("dev", &dev);
            let html = tera.render(&template, &context).map_err(|e| {
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

/// Fails when the pages use islands the UI bundle lacks, or any island without a UI bundle.
pub(crate) fn check_template_islands(items: &[IslandItem], manifest: Option<&Manifest>, out: &Path) -> Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    let Some(manifest) = manifest else {
        bail!(
            "the pages use islands but {} has no UI bundle: run `npm --prefix ui run build` first (`make build` does)",
            out.display()
        );
    };
    let mut missing: Vec<&str> = items
        .iter()
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

/// The files of this build below `dist/` (any other is stale) and how many of them changed.
pub(crate) struct Written {
    pub dir: PathBuf,
    pub files: HashSet<PathBuf>,
    pub changed: usize,
    /// The files whose bytes changed, relative to `dir`: what `site watch` tells the dev server
    /// to read again.
    pub changed_files: Vec<PathBuf>,
    /// Text files get `.gz` and `.br` siblings; not in a `--dev` build, which only a browser on
    /// this machine reads, and where compressing the large files (lists, feeds, the search
    /// index) again would be most of a one-page rebuild.
    pub compress: bool,
}

impl Written {
    pub fn new(dir: &Path, compress: bool) -> Self {
        Written {
            dir: dir.to_path_buf(),
            files: HashSet::new(),
            changed: 0,
            changed_files: Vec::new(),
            compress,
        }
    }

    /// Writes `relative` below `dist/` unless it holds these bytes already.
    pub fn write(&mut self, relative: PathBuf, bytes: &[u8]) -> Result<()> {
        if write_if_changed(&self.dir.join(&relative), bytes)? {
            self.record_changed(vec![self.dir.join(&relative)]);
        }
        self.files.insert(relative);
        Ok(())
    }

    /// Counts and keeps the files (paths below `dir`) a writer changed.
    pub fn record_changed(&mut self, paths: Vec<PathBuf>) {
        self.changed += paths.len();
        let relative = paths
            .into_iter()
            .filter_map(|p| p.strip_prefix(&self.dir).ok().map(Path::to_path_buf));
        self.changed_files.extend(relative);
    }
}

/// The search index's files and their compressed siblings, written beside the pages: together
/// they compress like the largest file, a second of CPU on a large site. The handle gives the
/// files that changed; the languages' indexes come back without their bytes. The chunks are
/// thousands of small files on a large site (13,395 at 1,000 pages x 3): they are compressed like
/// pages. After `SearchIndexFile::update` only the files whose bytes changed are written and
/// listed in `out`; the others are the last build's.
pub(crate) fn write_search_index_in_background(
    out: &mut Written,
    index: SearchIndexFile,
) -> (JoinHandle<Result<Vec<PathBuf>>>, Vec<LanguageIndex>) {
    let SearchIndexFile {
        languages, manifest, ..
    } = index;
    let mut files: Vec<(PathBuf, Vec<u8>, Compression)> = Vec::new();
    let mut add = |out: &mut Written, path: &str, bytes: Vec<u8>, compression: Compression| {
        let relative = PathBuf::from("assets").join(path);
        files.push((out.dir.join(&relative), bytes, compression));
        out.files.insert(relative);
    };
    let mut kept = Vec::with_capacity(languages.len());
    for mut language in languages {
        for (path, bytes) in language.take_files() {
            add(out, &path, bytes, Compression::Many);
        }
        kept.push(language);
    }
    add(out, &manifest.path, manifest.bytes, Compression::Few);
    let compress = out.compress;
    let handle = std::thread::spawn(move || {
        files
            .into_par_iter()
            .map(|(path, bytes, compression)| {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                let changed = if compress {
                    write_with_siblings(&path, bytes, compression)?
                } else {
                    write_if_changed(&path, &bytes)?
                };
                Ok(changed.then_some(path))
            })
            .filter_map(Result::transpose)
            .collect()
    });
    (handle, kept)
}

/// Fills each page's island slots, scripts and styles, and writes the pages that changed, and the
/// islands' stylesheets they name (kept in `sheets`). Pages are finished and compressed in
/// parallel; one thread writes them as they come, which the file system serves faster than many
/// writers creating files at once. The bound keeps the compressed pages in memory few on a large
/// site.
pub(crate) fn write_pages(
    out: &mut Written,
    pages: Vec<(PathBuf, String)>,
    island_html: &[String],
    islands: &Placement,
    island_text: &IslandText,
    manifest: Option<&Manifest>,
    sheets: &mut IslandStylesheets,
) -> Result<()> {
    let (finished, to_write) = std::sync::mpsc::sync_channel::<Changed>(PAGES_IN_FLIGHT);
    let writer = std::thread::spawn(move || {
        (to_write.into_iter())
            .map(|page| page.write().map(|()| page.path().to_path_buf()))
            .collect::<Result<Vec<PathBuf>>>()
    });
    let (dir, compress) = (&out.dir, out.compress);
    let styles = manifest
        .filter(|m| !m.inline_css.is_empty())
        .map(|m| PageStyles::new(&m.inline_css, &m.head_script));
    let named: Mutex<NamedSheets> = Mutex::default();
    let made = pages
        .par_iter()
        .enumerate()
        .try_for_each_with(finished, |finished, (n, (file, html))| {
            let (html, names) = islands.fill(n, html, island_html)?;
            let html = island_text.fill(html, manifest.and_then(|m| m.text_sections(&names)).as_ref());
            // Formulas come from the Markdown or from an island's server render (a calculator's).
            let has_math = html.contains("<math");
            let head = manifest.map(|m| m.head_tags(&names, has_math)).unwrap_or_default();
            let mut html = html.replacen(SCRIPTS_MARKER, &head, 1);
            let mut sheet = None;
            if let Some(styles) = &styles {
                if let Some(at) = html.find(STYLES_MARKER) {
                    let slot = island_styles_tag(ISLAND_STYLES_MARKER);
                    let rules = styles.for_page(&html, html.contains(&slot));
                    html.replace_range(at..at + STYLES_MARKER.len(), &rules.first_paint);
                    if let Some(at) = html.find(&slot) {
                        // Nothing left for the islands (every rule matches the page): no request.
                        let mut tag = String::new();
                        if !rules.for_islands.is_empty() {
                            let path = island_stylesheet_file(&rules.for_islands);
                            tag = island_styles_tag(&format!("/{}", path.display()));
                            sheet = Some((path, rules.for_islands));
                        }
                        html.replace_range(at..at + slot.len(), &tag);
                    }
                }
            }
            let mut named = named.lock().expect("island stylesheets");
            if let Some((path, text)) = &sheet {
                named.texts.entry(path.clone()).or_insert_with(|| text.clone());
            }
            named.by_page.push((file, sheet.map(|(path, _)| path)));
            drop(named);
            let bytes = html.into_bytes();
            let page = if compress {
                compress_if_changed(&dir.join(file), bytes, Compression::Many)?
            } else {
                changed_alone(&dir.join(file), bytes)?
            };
            match page {
                Some(page) => finished.send(page).map_err(|_| anyhow!("the page writer stopped")),
                None => Ok(()),
            }
        });
    // The writer's own error first: a failed write stops the pages with "the page writer stopped".
    let written = writer.join().expect("page writer")?;
    out.record_changed(written);
    made?;
    let NamedSheets { by_page, texts } = named.into_inner().expect("island stylesheets");
    for (page, sheet) in by_page {
        sheets.set(page, sheet);
    }
    for (file, text) in texts {
        out.write(file, text.as_bytes())?;
    }
    out.files.extend(pages.into_iter().map(|(file, _)| file));
    Ok(())
}

/// The islands' stylesheets the pages being written name: each page's, and the text of each.
#[derive(Default)]
struct NamedSheets<'a> {
    by_page: Vec<(&'a Path, Option<PathBuf>)>,
    texts: HashMap<PathBuf, String>,
}

/// Copies `static/` to the site's root as it is.
fn copy_static_files(out: &mut Written, from: &Path) -> Result<()> {
    if !from.is_dir() {
        return Ok(());
    }
    for entry in WalkDir::new(from) {
        let entry = entry.with_context(|| format!("Failed to walk {}", from.display()))?;
        if entry.file_type().is_file() {
            let bytes =
                std::fs::read(entry.path()).with_context(|| format!("Failed to read {}", entry.path().display()))?;
            out.write(
                entry.path().strip_prefix(from).expect("walked below from").into(),
                &bytes,
            )?;
        }
    }
    Ok(())
}

/// The UI text as i18next fetches it: `dist/locales/<lang>/<namespace>.json`.
fn write_locale_files(out: &mut Written, locales: &Locales) -> Result<()> {
    for file in locales.files() {
        out.write(PathBuf::from("locales").join(&file.relative), file.text.as_bytes())?;
    }
    Ok(())
}

/// The code-highlighting stylesheets, `robots.txt`, `_site.json` (facts for the server:
/// languages, default language, the CSP hashes of the head script and the inlined stylesheet,
/// dev mode), and the page lists.
fn write_site_files(out: &mut Written, site: &Site, manifest: Option<&Manifest>, dev: bool) -> Result<()> {
    let config = &site.config;
    let site_facts = SiteFacts {
        languages: config
            .languages
            .iter()
            .map(|l| site_contract::Language {
                code: l.code.clone(),
                tag: l.tag.clone(),
            })
            .collect(),
        default_language: config.default_language.clone(),
        script_hashes: manifest.and_then(Manifest::head_script_hash).into_iter().collect(),
        dev,
    };
    for (name, bytes) in [
        (
            SYNTAX_LIGHT_CSS,
            crate::markdown::syntax_stylesheet(false)?.into_bytes(),
        ),
        (SYNTAX_DARK_CSS, crate::markdown::syntax_stylesheet(true)?.into_bytes()),
        ("robots.txt", sitemap::robots(config).into_bytes()),
        (SITE_FACTS_FILE, serde_json::to_vec_pretty(&site_facts)?),
    ] {
        out.write(PathBuf::from(name), &bytes)?;
    }
    write_page_lists(out, site)
}

/// The files that list pages across the site: `sitemap.xml` and each language's Atom feed.
pub(crate) fn write_page_lists(out: &mut Written, site: &Site) -> Result<()> {
    write_sitemap(out, site)?;
    write_feeds(out, site)
}

/// `sitemap.xml`: it follows the routes only (and the config).
pub(crate) fn write_sitemap(out: &mut Written, site: &Site) -> Result<()> {
    out.write(
        PathBuf::from("sitemap.xml"),
        sitemap::sitemap(&site.config, &site.pages.built_routes()).as_bytes(),
    )
}

fn write_feeds(out: &mut Written, site: &Site) -> Result<()> {
    for lang in &site.languages {
        write_feed(out, site, lang)?;
    }
    Ok(())
}

pub(crate) fn write_feed(out: &mut Written, site: &Site, lang: &str) -> Result<()> {
    let path = feed::feed_path(&site.config, lang);
    let xml = feed::atom(&site.config, &site.pages, lang)?;
    out.write(PathBuf::from(path.trim_start_matches('/')), xml.as_bytes())
}

/// Removes what an earlier build wrote and this one did not. The UI build owns `assets/`, except
/// the search index this build writes there.
fn remove_stale_files(out: &Written) -> Result<()> {
    remove_stale(&out.dir, &out.files, |p| {
        p == Path::new(crate::watch::STATUS_FILE)
            || p.starts_with("assets")
                && !p.starts_with("assets/search")
                && !p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("search-index-") || n.starts_with(ISLAND_STYLES_PREFIX))
    })?;
    Ok(())
}
