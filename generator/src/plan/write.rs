//! The plan's jobs carried out: the search index written in the background, the islands
//! rendered, the pages finished and written, then the site's other files; last, the files no
//! job made any more are removed.

use super::jobs::{Job, Plan};
use super::search::SearchIndexFile;
use super::state::{SearchKept, State};
use super::write_pages::{write_pages, Finish};
use super::BuildOptions;
use crate::model::cards::{self, CARD_DIR};
use crate::model::locales::Locales;
use crate::model::photos::PHOTO_DIR;
use crate::model::site::Site;
use crate::output::assets::Manifest;
use crate::output::files::{
    compress_text_files, remove_compressed, remove_stale, write_if_changed, write_with_siblings, Compression,
};
use crate::output::ledger::{remove_file, Written};
use crate::output::search::LanguageIndex;
use crate::output::static_host::{headers_file, HostedFile};
use crate::output::styles::ISLAND_STYLES_PREFIX;
use crate::output::{feed, sitemap};
use crate::render::islands::{self, Placement};
use anyhow::{Context, Result};
use rayon::prelude::*;
use site_contract::{SiteFacts, ALIASES_NGINX_FILE, DEV_BUILD_FILE, HEADERS_FILE, REDIRECTS_FILE, SITE_FACTS_FILE};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use walkdir::WalkDir;

/// The code-highlighting stylesheets, loaded by pages with code (see `markdown::syntax_stylesheet`).
const SYNTAX_LIGHT_CSS: &str = "syntax-light.css";
const SYNTAX_DARK_CSS: &str = "syntax-dark.css";

/// What the writing changed: the count of files, and (a rebuild's) their paths below `dist/`.
pub(crate) struct Wrote {
    pub changed: usize,
    pub touched: Option<Vec<String>>,
}

/// Carries out `plan` with the pages rendered for it and the search index made for it.
pub(crate) fn run(
    options: &BuildOptions,
    state: &mut State,
    mut plan: Plan,
    mut search: SearchIndexFile,
    pages: Vec<(PathBuf, String)>,
    placement: Placement,
) -> Result<Wrote> {
    let mut out = Written::new(&options.out, !options.dev);
    let search_gone = std::mem::take(&mut search.gone);
    let entries = std::mem::take(&mut search.entries);
    let (search_written, languages) = write_search_index_in_background(&mut out, search, &plan.jobs);
    let island_html = render_islands(
        options,
        &state.site.locales,
        &mut state.island_html,
        plan.whole(),
        &placement,
    )?;
    let finish = Finish {
        island_html: &island_html,
        islands: &placement,
        island_text: &state.island_text,
        manifest: state.ui.as_ref(),
    };
    let sheets_before = state.island_stylesheets.files();
    write_pages(&mut out, pages, &finish, &mut state.island_stylesheets)?;
    for job in &plan.jobs {
        match job {
            Job::StaticFiles => copy_static_files(&mut out, &options.root.join("static"))?,
            Job::Photos => write_photos(&mut out, &state.site, &plan)?,
            Job::Cards => write_cards(&mut out, &state.site, &plan)?,
            Job::SiteFiles => write_site_files(&mut out, state, options.dev)?,
            Job::Sitemap => write_sitemap(&mut out, &state.site)?,
            Job::Feed { lang } => write_feed(&mut out, &state.site, lang)?,
            Job::Page { .. } | Job::NotFound { .. } | Job::SearchIndex { .. } => {}
        }
    }
    if plan.whole() {
        remove_stale_files(&out)?;
    }
    let written = search_written.join().expect("search index writer")?;
    out.record_changed(written);
    if plan.whole() && !options.dev {
        write_headers_file(&mut out, state)?;
    } else if plan.whole() {
        remove_file(&options.out.join(HEADERS_FILE))?;
    }
    state.search = Some(SearchKept { entries, languages });
    state.feed_lineups = std::mem::take(&mut plan.feed_lineups);
    if plan.whole() {
        if out.compress {
            compress_text_files(&options.out)?;
        } else {
            remove_compressed(&options.out)?;
        }
        state.files = out.files;
        return Ok(Wrote {
            changed: out.changed,
            touched: None,
        });
    }
    rebuilt(options, state, &plan, out, &search_gone, sheets_before)
}

/// A rebuild's end: the files of the last build it makes no more removed (pages gone, islands'
/// stylesheets no page names), and what changed.
fn rebuilt(
    options: &BuildOptions,
    state: &mut State,
    plan: &Plan,
    mut out: Written,
    search_gone: &[String],
    sheets_before: HashSet<PathBuf>,
) -> Result<Wrote> {
    let mut gone = gone_files(state, plan, &out, search_gone);
    // An islands' stylesheet no page names any more (its pages now have other rules, or are gone).
    for page in &gone {
        state.island_stylesheets.set(page, None);
    }
    let sheets_after = state.island_stylesheets.files();
    gone.extend(sheets_before.into_iter().filter(|sheet| !sheets_after.contains(sheet)));
    for file in &gone {
        remove_file(&options.out.join(file))?;
        state.files.remove(file);
    }
    out.changed += gone.len();
    let touched = (out.changed_files.iter().chain(&gone))
        .map(|file| file.to_string_lossy().replace('\\', "/"))
        .collect();
    state.files.extend(out.files);
    Ok(Wrote {
        changed: out.changed,
        touched: Some(touched),
    })
}

/// Each island's HTML: a whole build renders every island (reusing those of the island cache of
/// `options`), a rebuild only those it has not seen.
fn render_islands(
    options: &BuildOptions,
    locales: &Locales,
    known: &mut HashMap<String, String>,
    whole: bool,
    placement: &Placement,
) -> Result<Vec<String>> {
    let bundle = &options.server_bundle;
    if !whole {
        return islands::render_more(bundle, locales, &placement.items, known);
    }
    let cache = options.island_cache.as_deref();
    let (html, all) = islands::render_all_keeping(bundle, locales, &placement.items, cache)?;
    *known = all;
    Ok(html)
}

/// The files of the last build this one makes no more: the pages of dirty routes that are gone
/// (or no longer pages of their own), the cards of rendered pages whose text changed, and the
/// search index's files `search_gone` names.
fn gone_files(state: &State, plan: &Plan, out: &Written, search_gone: &[String]) -> Vec<PathBuf> {
    let site = &state.site;
    let files = |route: &String| {
        let urls = site
            .languages
            .iter()
            .map(|lang| site.config.localized_path(route, lang));
        urls.map(|url| site_contract::page_file(&url)).collect::<Vec<_>>()
    };
    let pages = (plan.dirty.iter().flatten())
        .flat_map(files)
        .filter(|f| state.files.contains(f) && !out.files.contains(f));
    let search = search_gone.iter().map(|path| Path::new("assets").join(path));
    let rendered: BTreeSet<String> = (plan.jobs.iter())
        .filter_map(|job| match job {
            Job::Page { route, lang } => Some(cards::stem(route, lang)),
            _ => None,
        })
        .collect();
    let cards = (state.files.iter())
        .filter(|f| !out.files.contains(*f) && cards::stem_of(f).is_some_and(|stem| rendered.contains(stem)))
        .cloned();
    pages
        .chain(search)
        .chain(cards)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The search index's files and their compressed siblings, written beside the pages: together
/// they compress like the largest file, a second of CPU on a large site. The handle gives the
/// files that changed; the languages' indexes come back without their bytes. The chunks are
/// thousands of small files on a large site (13,395 at 1,000 pages x 3): they are compressed like
/// pages. Only the languages of the plan's jobs are written, and of those only the files whose
/// bytes changed (the index's `update`); the others are the last build's.
fn write_search_index_in_background(
    out: &mut Written,
    index: SearchIndexFile,
    jobs: &[Job],
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
        let planned = (jobs.iter()).any(|job| matches!(job, Job::SearchIndex { lang } if *lang == language.lang));
        if planned {
            for (path, bytes) in language.take_files() {
                add(out, &path, bytes, Compression::Many);
            }
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

/// The files of the photos the plan's pages show: in a whole build every photo it processed or
/// read from the cache (the owner's portrait too), in a rebuild those of its pages.
fn write_photos(out: &mut Written, site: &Site, plan: &Plan) -> Result<()> {
    let photos = match plan.whole() {
        true => site.photos.all(),
        false => (plan.jobs.iter())
            .filter_map(|job| match job {
                Job::Page { route, lang } => site.pages.get(route, lang),
                _ => None,
            })
            .flat_map(|page| &page.rendered.photos)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|src| {
                site.photos
                    .known(src)
                    .with_context(|| format!("photo {src} was not processed"))
            })
            .collect::<Result<_>>()?,
    };
    for photo in photos {
        for (name, bytes) in &photo.files {
            out.write(Path::new(PHOTO_DIR).join(name), bytes)?;
        }
    }
    Ok(())
}

/// The link-preview cards of the plan's pages, drawn in parallel or read from the cache.
fn write_cards(out: &mut Written, site: &Site, plan: &Plan) -> Result<()> {
    let Some(cards) = &site.cards else {
        return Ok(());
    };
    let files: Vec<_> = (plan.jobs.iter())
        .filter_map(|job| match job {
            Job::Page { route, lang } => site.pages.get(route, lang),
            _ => None,
        })
        .filter_map(|page| cards.of(&site.config, &site.locales, page))
        .collect();
    for (name, png) in cards.draw(&files)? {
        out.write(Path::new(CARD_DIR).join(name), &png)?;
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

/// The UI text, the code-highlighting stylesheets, `robots.txt` and `_site.json` (facts for the
/// server: languages with the API's messages, default language, the CSP hashes of the head
/// script and the inlined stylesheet, dev mode, the aliases) and the aliases' nginx include.
fn write_site_files(out: &mut Written, state: &State, dev: bool) -> Result<()> {
    let (site, manifest) = (&state.site, state.ui.as_ref());
    write_locale_files(out, &site.locales)?;
    let config = &site.config;
    let site_facts = SiteFacts {
        languages: site.served_languages.clone(),
        default_language: config.default_language.clone(),
        script_hashes: manifest.and_then(Manifest::head_script_hash).into_iter().collect(),
        dev,
        aliases: state.aliases.clone(),
    };
    for (name, bytes) in [
        (
            SYNTAX_LIGHT_CSS,
            crate::model::markdown::syntax_stylesheet(false)?.into_bytes(),
        ),
        (
            SYNTAX_DARK_CSS,
            crate::model::markdown::syntax_stylesheet(true)?.into_bytes(),
        ),
        ("robots.txt", sitemap::robots(config).into_bytes()),
        (SITE_FACTS_FILE, serde_json::to_vec_pretty(&site_facts)?),
        (
            ALIASES_NGINX_FILE,
            crate::output::aliases::nginx_include(config, &state.aliases).into_bytes(),
        ),
        (
            REDIRECTS_FILE,
            crate::output::aliases::redirects_file(config, &state.aliases).into_bytes(),
        ),
    ] {
        out.write(PathBuf::from(name), &bytes)?;
    }
    Ok(())
}

/// `_headers` for static hosts, from every file in `dist/` once the build has written its own and
/// removed stale ones (the UI build's assets included), pages read back as the server reads them.
/// Only a whole build knows every file; `make dev`'s builds are never published, so they write none.
fn write_headers_file(out: &mut Written, state: &State) -> Result<()> {
    let paths = crate::output::static_host::hosted_files(&out.dir)?;
    let script_hashes: Vec<String> = state
        .ui
        .as_ref()
        .and_then(Manifest::head_script_hash)
        .into_iter()
        .collect();
    let files = (paths.par_iter())
        .map(|path| HostedFile::read(&out.dir, path, &script_hashes))
        .collect::<Result<Vec<_>>>()?;
    let text = headers_file(&state.site.config, &script_hashes, &files);
    out.write(PathBuf::from(HEADERS_FILE), text.as_bytes())
}

fn write_sitemap(out: &mut Written, site: &Site) -> Result<()> {
    out.write(
        PathBuf::from("sitemap.xml"),
        sitemap::sitemap(&site.config, &site.pages.built_routes()).as_bytes(),
    )
}

fn write_feed(out: &mut Written, site: &Site, lang: &str) -> Result<()> {
    let path = feed::feed_path(&site.config, lang);
    let xml = feed::atom(&site.config, &site.pages, lang)?;
    out.write(PathBuf::from(path.trim_start_matches('/')), xml.as_bytes())
}

/// Removes what an earlier build wrote and this one did not. The UI build owns `assets/`, except
/// the search index, the islands' stylesheets, the photos and the cards this build writes there. The static hosts'
/// `_headers` is written after this, from the files that are left.
fn remove_stale_files(out: &Written) -> Result<()> {
    remove_stale(&out.dir, &out.files, |p| {
        p == Path::new(DEV_BUILD_FILE)
            || p == Path::new(HEADERS_FILE)
            || p.starts_with("assets")
                && !p.starts_with("assets/search")
                && !p.starts_with(PHOTO_DIR)
                && !p.starts_with(CARD_DIR)
                && !p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("search-index-") || n.starts_with(ISLAND_STYLES_PREFIX))
    })?;
    Ok(())
}
