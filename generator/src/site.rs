//! The build: config, content and locales in; every page in every language, the search index,
//! sitemap, robots.txt and compressed siblings out.

use crate::assets::Manifest;
use crate::config::SiteConfig;
use crate::content::{self, PageKind};
use crate::islands::{self, IslandCalls, SCRIPTS_MARKER};
use crate::links::LinkTargets;
use crate::locales::Locales;
use crate::markdown::{self, RenderOptions, Rendered};
use crate::output::{
    compress_if_changed, compress_text_files, remove_stale, write_if_changed, write_with_siblings, Changed,
};
use crate::search_index::{self, IndexEntry};
use crate::sitemap;
use crate::templates;
use crate::views::{PageView, ViewContext};
use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use walkdir::WalkDir;

/// The code-highlighting stylesheets, loaded by pages with code (see `markdown::syntax_stylesheet`).
const SYNTAX_LIGHT_CSS: &str = "syntax-light.css";
const SYNTAX_DARK_CSS: &str = "syntax-dark.css";
/// Compressed pages waiting for the writer, at most.
const PAGES_IN_FLIGHT: usize = 256;
/// One page rendered, keyed by (route, language), or the error that stopped it.
type RenderResult = Result<((String, String), Rendered), String>;

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
}

impl BuildReport {
    pub fn summary(&self) -> String {
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

/// Where a page of `url` lives below `dist/`: `/zh/notes` is `zh/notes/index.html`.
pub fn page_file(url: &str) -> PathBuf {
    let trimmed = url.trim_matches('/');
    if trimmed.is_empty() {
        PathBuf::from("index.html")
    } else {
        PathBuf::from(trimmed).join("index.html")
    }
}

/// Every (route, lang) rendered from Markdown, or every error with its file and line.
fn render_markdown(content: &content::Content, config: &SiteConfig) -> Result<HashMap<(String, String), Rendered>> {
    let jobs: Vec<(&str, &str, &content::SourcePage)> = content
        .pages
        .iter()
        .flat_map(|(route, versions)| {
            versions
                .iter()
                .map(move |(lang, page)| (route.as_str(), lang.as_str(), page))
        })
        .collect();
    let results: Vec<RenderResult> = jobs
        .par_iter()
        .map(|(route, lang, page)| {
            let line_breaks = match &page.kind {
                PageKind::Entry { collection } => config.collections.get(collection).is_some_and(|c| c.line_breaks),
                _ => false,
            };
            let options = RenderOptions {
                lang,
                default_language: &config.default_language,
                line_breaks,
            };
            markdown::render(&page.body, &options)
                .map(|r| ((route.to_string(), lang.to_string()), r))
                .map_err(|e| format!("{}:{}: {}", page.path.display(), page.body_line + e.line - 1, e.message))
        })
        .collect();
    let mut rendered = HashMap::new();
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok((key, r)) => {
                rendered.insert(key, r);
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        errors.sort();
        bail!("{}", errors.join("\n"));
    }
    Ok(rendered)
}

fn check_links(
    content: &content::Content,
    rendered: &HashMap<(String, String), Rendered>,
    static_dir: &Path,
    fallbacks: &HashSet<(String, String)>,
) -> Result<()> {
    let mut headings: BTreeMap<&str, BTreeMap<&str, HashSet<&str>>> = BTreeMap::new();
    for ((route, lang), r) in rendered {
        headings
            .entry(route.as_str())
            .or_default()
            .insert(lang.as_str(), r.heading_ids.iter().map(String::as_str).collect());
    }
    let targets = LinkTargets { headings, static_dir };
    let mut errors = Vec::new();
    for ((route, lang), r) in rendered {
        // A fallback is the English file again: its links were checked as English.
        if fallbacks.contains(&(route.clone(), lang.clone())) {
            continue;
        }
        let page = content.page(route, lang).expect("rendered pages exist");
        for (url, line) in &r.links {
            if let Some(problem) = targets.problem(url, lang) {
                errors.push(format!(
                    "{}:{}: {problem}",
                    page.path.display(),
                    page.body_line + line - 1
                ));
            }
        }
    }
    if !errors.is_empty() {
        errors.sort();
        bail!("broken internal links:\n{}", errors.join("\n"));
    }
    Ok(())
}

fn check_templates(content: &content::Content, tera: &tera::Tera) -> Result<()> {
    let known: Vec<&str> = tera.get_template_names().collect();
    for versions in content.pages.values() {
        for page in versions.values() {
            if let Some(name) = &page.front.template {
                if !known.contains(&name.as_str()) {
                    let mut names = known.clone();
                    names.sort();
                    bail!(
                        "{}:2: unknown template `{name}` (there are: {})",
                        page.path.display(),
                        names.join(", ")
                    );
                }
            }
        }
    }
    Ok(())
}

fn default_template(view: &PageView) -> &'static str {
    match view.kind.as_str() {
        "home" => "home.html",
        "collection" => "collection.html",
        "section" => "section.html",
        "entry" => "entry.html",
        "not-found" => "not_found.html",
        _ => "page.html",
    }
}

/// Copies `from` below `to` (relative paths kept), recording what it wrote.
fn copy_tree(from: &Path, to: &Path, out: &Path, written: &mut HashSet<PathBuf>) -> Result<usize> {
    let mut changed = 0;
    if !from.is_dir() {
        return Ok(0);
    }
    for entry in WalkDir::new(from).into_iter() {
        let entry = entry.with_context(|| format!("Failed to walk {}", from.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let target = to.join(entry.path().strip_prefix(from).expect("walked below from"));
        let bytes =
            std::fs::read(entry.path()).with_context(|| format!("Failed to read {}", entry.path().display()))?;
        changed += write_if_changed(&target, &bytes)? as usize;
        written.insert(target.strip_prefix(out).expect("copied below out").to_path_buf());
    }
    Ok(changed)
}

/// Where the islands' HTML of the site's last build is kept: in the temp dir, not in `dist/`
/// (which holds what is served) nor in the site's folder. Losing it only makes a build slower.
fn island_cache(root: &Path) -> PathBuf {
    use sha2::{Digest, Sha256};
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let hash = Sha256::digest(root.to_string_lossy().as_bytes());
    std::env::temp_dir().join(&format!("site-islands-{:x}", hash)[..29])
}

/// The site's sources, read, rendered from Markdown and link-checked.
pub struct Loaded {
    pub config: SiteConfig,
    pub languages: Vec<String>,
    pub locales: Arc<Locales>,
    pub content: content::Content,
    pub rendered: HashMap<(String, String), Rendered>,
    pub fallbacks: HashSet<(String, String)>,
    pub warnings: Vec<String>,
}

/// Reads and checks everything a build needs but the templates and the UI: what `site check` does.
pub fn load(root: &Path) -> Result<Loaded> {
    let mut warnings = Vec::new();
    let config = SiteConfig::load(&root.join("site-config.yaml"))?;
    let languages: Vec<String> = config.language_codes().map(String::from).collect();
    let locales = Arc::new(Locales::load(
        &root.join("locales"),
        &languages,
        &config.default_language,
    )?);
    for key in locales.missing_keys() {
        warnings.push(format!("locales/{key} is missing (English is used)"));
    }
    let collections: Vec<String> = config.collections.keys().cloned().collect();
    let content = content::load(
        &root.join("content"),
        &languages,
        &config.default_language,
        &collections,
    )?;
    let fallbacks: HashSet<(String, String)> = content.fallbacks.iter().cloned().collect();
    for (route, lang) in &content.fallbacks {
        let english = content.page(route, lang).expect("fallbacks are filled in");
        warnings.push(format!(
            "{}: no {lang} version yet; the {lang} page shows the English text",
            english.path.display()
        ));
    }
    let rendered = render_markdown(&content, &config)?;
    check_links(&content, &rendered, &root.join("static"), &fallbacks)?;
    Ok(Loaded {
        config,
        languages,
        locales,
        content,
        rendered,
        fallbacks,
        warnings,
    })
}

pub fn build(options: &BuildOptions) -> Result<BuildReport> {
    let started = Instant::now();
    let Loaded {
        config,
        languages,
        locales,
        content,
        rendered,
        fallbacks,
        mut warnings,
    } = load(&options.root)?;
    let static_dir = options.root.join("static");

    let island_calls = Arc::new(IslandCalls::default());
    let tera = templates::load(
        &options.templates,
        locales.clone(),
        island_calls.clone(),
        &config.default_language,
    )?;
    check_templates(&content, &tera)?;
    let manifest = Manifest::load(&options.out)?;
    if manifest.is_none() {
        warnings.push(format!(
            "{} has no UI bundle: pages have no styles or scripts (build the UI with `npm --prefix ui run build`)",
            options.out.display()
        ));
    }

    let mut written: HashSet<PathBuf> = HashSet::new();
    let mut changed = 0;

    // The search index comes first: the search page's props name its hashed file.
    let index: Vec<IndexEntry> = content
        .pages
        .iter()
        .flat_map(|(route, versions)| {
            let rendered = &rendered;
            let config = &config;
            versions.iter().map(move |(lang, page)| IndexEntry {
                route: route.clone(),
                url: config.localized_path(route, lang),
                lang: lang.clone(),
                title: page.front.title.clone(),
                text: search_index::squash_whitespace(&rendered[&(route.clone(), lang.clone())].text),
                keywords: page.front.keywords.clone(),
            })
        })
        .collect();
    let (index_bytes, index_name) = search_index::encode(&index);
    let index_file = PathBuf::from("assets").join(&index_name);
    // Its compression (the largest file's, a second of CPU on a large site) runs beside the pages.
    let index_written = {
        let path = options.out.join(&index_file);
        std::thread::spawn(move || write_with_siblings(&path, index_bytes))
    };
    written.insert(index_file);
    let search_index_url = format!("/assets/{index_name}");

    let views = ViewContext {
        config: &config,
        locales: &locales,
        content: &content,
        rendered: &rendered,
        search_index_url: &search_index_url,
    };

    // Every page to write: (file below dist, template, view).
    let mut jobs: Vec<(PathBuf, String, PageView)> = Vec::new();
    for (route, versions) in &content.pages {
        for (lang, page) in versions {
            let is_entry_without_page = matches!(&page.kind, PageKind::Entry { collection }
                if !config.collections.get(collection).is_some_and(|c| c.entry_pages));
            if is_entry_without_page {
                continue;
            }
            let view = views.page(page, lang, fallbacks.contains(&(route.clone(), lang.clone())));
            let template = page
                .front
                .template
                .clone()
                .unwrap_or_else(|| default_template(&view).to_string());
            jobs.push((page_file(&view.url), template, view));
        }
    }
    let page_count = jobs.len();
    for (name, collection) in &config.collections {
        if let (true, Some(key)) = (collection.entry_pages, &collection.not_found_key) {
            for lang in &languages {
                let view = views.not_found(name, key, lang);
                let file = page_file(&view.url).with_file_name("404.html");
                jobs.push((file, "not_found.html".into(), view));
            }
        }
    }

    let head_script = manifest
        .as_ref()
        .filter(|m| !m.head_script.is_empty())
        .map(|m| format!("<script>{}</script>", m.head_script))
        .unwrap_or_default();
    let css: Vec<String> = manifest.as_ref().map(|m| m.css.clone()).unwrap_or_default();
    let pages: Vec<(PathBuf, String)> = jobs
        .par_iter()
        .map(|(file, template, view)| {
            // Templates read the view as `page` only.
            let mut context = tera::Context::new();
            context.insert("page", view);
            context.insert("lang", &view.lang);
            context.insert("site", &config);
            context.insert("head_script", &head_script);
            context.insert("css", &css);
            context.insert("dev", &options.dev);
            let html = tera.render(template, &context).map_err(|e| {
                anyhow!(
                    "Failed to render {} with {template}: {}",
                    view.url,
                    templates::describe(&e)
                )
            })?;
            Ok((file.clone(), html))
        })
        .collect::<Result<_>>()?;

    let items = island_calls.items();
    if !items.is_empty() {
        let Some(manifest) = &manifest else {
            bail!("the pages use islands but {} has no UI bundle: run `npm --prefix ui run build` first (`make build` does)", options.out.display());
        };
        let missing: Vec<&str> = items
            .iter()
            .map(|i| i.island.as_str())
            .filter(|name| !manifest.islands.contains_key(*name))
            .collect();
        if !missing.is_empty() {
            let mut missing = missing;
            missing.sort();
            missing.dedup();
            bail!(
                "the UI bundle has no island named {} (islands are the files ui/src/islands/<Name>.tsx)",
                missing.join(", ")
            );
        }
    }
    let island_html = islands::render_all(
        &options.server_bundle,
        &locales,
        &items,
        options.island_cache.as_deref(),
    )?;
    // Pages are finished and compressed in parallel; one thread writes them as they come, which
    // the file system serves faster than many writers creating files at once. The bound keeps the
    // compressed pages in memory few on a large site.
    let (finished, to_write) = std::sync::mpsc::sync_channel::<Changed>(PAGES_IN_FLIGHT);
    let writer = std::thread::spawn(move || to_write.into_iter().try_fold(0, |n, page| page.write().map(|()| n + 1)));
    let made = pages.par_iter().try_for_each_with(finished, |finished, (file, html)| {
        let (html, names) = islands::fill_slots(html, &island_html, &items)?;
        let scripts = manifest.as_ref().map(|m| m.island_scripts(&names)).unwrap_or_default();
        let page = compress_if_changed(
            &options.out.join(file),
            html.replacen(SCRIPTS_MARKER, &scripts, 1).into_bytes(),
        )?;
        match page {
            Some(page) => finished.send(page).map_err(|_| anyhow!("the page writer stopped")),
            None => Ok(()),
        }
    });
    // The writer's own error first: a failed write stops the pages with "the page writer stopped".
    changed += writer.join().expect("page writer")?;
    made?;
    written.extend(pages.into_iter().map(|(file, _)| file));
    changed += copy_tree(&static_dir, &options.out, &options.out, &mut written)?;
    for file in locales.files() {
        let relative = PathBuf::from("locales").join(&file.relative);
        changed += write_if_changed(&options.out.join(&relative), file.text.as_bytes())? as usize;
        written.insert(relative);
    }
    let routes: Vec<&str> = content.routes().collect();
    let site_facts = serde_json::json!({
        "languages": config.languages.iter().map(|l| serde_json::json!({"code": l.code, "tag": l.tag})).collect::<Vec<_>>(),
        "default_language": config.default_language,
        "script_hashes": manifest.as_ref().and_then(Manifest::head_script_hash).into_iter().collect::<Vec<_>>(),
        "dev": options.dev,
    });
    for (name, bytes) in [
        (
            SYNTAX_LIGHT_CSS,
            crate::markdown::syntax_stylesheet(false)?.into_bytes(),
        ),
        (SYNTAX_DARK_CSS, crate::markdown::syntax_stylesheet(true)?.into_bytes()),
        ("sitemap.xml", sitemap::sitemap(&config, &routes).into_bytes()),
        ("robots.txt", sitemap::robots(&config).into_bytes()),
        ("_site.json", serde_json::to_vec_pretty(&site_facts)?),
    ] {
        changed += write_if_changed(&options.out.join(name), &bytes)? as usize;
        written.insert(PathBuf::from(name));
    }
    // The UI build owns assets/, except the search indexes this build writes there.
    remove_stale(&options.out, &written, |p| {
        p.starts_with("assets")
            && !p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("search-index-"))
    })?;
    changed += index_written.join().expect("search index writer")? as usize;
    compress_text_files(&options.out)?;
    Ok(BuildReport {
        pages: page_count,
        languages,
        written: changed,
        warnings,
        elapsed: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_live_in_index_files() {
        assert_eq!(page_file("/"), PathBuf::from("index.html"));
        assert_eq!(page_file("/zh/"), PathBuf::from("zh/index.html"));
        assert_eq!(
            page_file("/ja/notes/liquidity-risk"),
            PathBuf::from("ja/notes/liquidity-risk/index.html")
        );
    }
}
