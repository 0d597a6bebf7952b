//! `site watch`'s resident build: the loaded site stays in memory between builds, so saving one
//! page's Markdown renders again only that page (in every language) and the pages that show it:
//! its section's or collection's list, its neighbours (previous/next), the pages of its old and
//! new tags and the tag index; then the sitemap, the feeds and the search index from those pages' entries. Any other change
//! (a template, locale, static file, the config, the UI) builds everything, as does the first
//! change after a failed build. The output equals a whole `site build --dev` byte for byte
//! (`tests/watch.rs` checks it after edits, additions, renames, deletions and tag changes).

use crate::content;
use crate::feed;
use crate::islands;
use crate::pages::{Page, Pages, ViewKind};
use crate::search_index::{self, IndexEntry};
use crate::site::{
    build_keeping, check_frames, check_page_islands, check_page_templates, check_template_islands, page_file,
    render_templates, write_feed, write_pages, write_search_index_in_background, write_sitemap, BuildOptions,
    BuildReport, Kept, Rendered, SearchEdits, SearchIndexFile, Site, Written,
};
use crate::tags;
use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub struct Resident {
    options: BuildOptions,
    /// The last build, if it succeeded.
    kept: Option<Kept>,
}

impl Resident {
    pub fn new(options: BuildOptions) -> Self {
        Resident { options, kept: None }
    }

    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// A whole build, kept for the next rebuild.
    pub fn build_all(&mut self) -> Result<BuildReport> {
        self.kept = None;
        let (report, kept) = build_keeping(&self.options)?;
        self.kept = Some(kept);
        Ok(report)
    }

    /// Builds again after `changed` (paths below the site's root) changed: only the pages they
    /// touch when every one is a Markdown file of `content/` in a `--dev` build, else everything.
    /// A failed rebuild forgets the site, so the next one builds everything.
    pub fn rebuild(&mut self, changed: &[PathBuf]) -> Result<BuildReport> {
        let content_dir = self.options.root.join("content");
        let pages_only = self.options.dev
            && changed
                .iter()
                .all(|p| p.starts_with(&content_dir) && p.extension().is_some_and(|e| e == "md"));
        match self.kept.take() {
            Some(kept) if pages_only => {
                let (report, kept) = rebuild_pages(&self.options, kept, changed)?;
                self.kept = Some(kept);
                Ok(report)
            }
            _ => self.build_all(),
        }
    }
}

/// `/notes` for `/notes/first`, `/` for `/notes` and for `/`.
fn parent(route: &str) -> &str {
    match route.rsplit_once('/') {
        Some(("", _)) | None => "/",
        Some((parent, _)) => parent,
    }
}

/// What the pages of `routes` show of themselves to other pages, read before and after the
/// change: the routes whose pages show them (neighbours, tag pages) and each route's kind.
struct Links {
    /// Previous and next pages, in every language.
    neighbours: BTreeSet<String>,
    /// The tag pages listing them.
    tag_routes: BTreeSet<String>,
    kinds: BTreeMap<String, Option<ViewKind>>,
    /// What links can reach of them, in each language.
    targets: BTreeMap<String, Vec<Option<LinkTarget>>>,
}

/// Whether a page is a page of its own, and its headings' ids.
type LinkTarget = (bool, Vec<String>);

fn links(pages: &Pages, routes: &BTreeSet<String>, languages: &[String]) -> Links {
    let mut links = Links {
        neighbours: BTreeSet::new(),
        tag_routes: BTreeSet::new(),
        kinds: BTreeMap::new(),
        targets: BTreeMap::new(),
    };
    for route in routes {
        links.kinds.insert(route.clone(), pages.kind_of(route));
        let targets = (languages.iter())
            .map(|lang| {
                let page = pages.get(route, lang)?;
                Some((
                    page.gets_page,
                    page.rendered.headings.iter().map(|h| h.id.clone()).collect(),
                ))
            })
            .collect();
        links.targets.insert(route.clone(), targets);
        for page in languages.iter().filter_map(|lang| pages.get(route, lang)) {
            let (previous, next) = pages.neighbours(page);
            links
                .neighbours
                .extend([previous, next].into_iter().flatten().map(|p| p.route().to_string()));
            links
                .tag_routes
                .extend(page.source.front.tags.iter().map(|t| tags::route(t)));
        }
    }
    if !links.tag_routes.is_empty() {
        links.tag_routes.insert(tags::INDEX_ROUTE.to_string());
    }
    links
}

/// The routes whose pages may change when those of `changed` did: those routes, the lists that
/// show them (their parent section or collection), their neighbours and tag pages before and
/// after, and, when a route became or stopped being a section, its children (whether a page is
/// an article follows its parent's kind).
fn dirty_routes(pages: &Pages, changed: &BTreeSet<String>, before: Links, after: Links) -> BTreeSet<String> {
    let mut dirty = changed.clone();
    for route in changed {
        dirty.insert(parent(route).to_string());
        if before.kinds[route] != after.kinds[route] {
            dirty.extend(
                pages
                    .routes()
                    .filter(|r| *r != route && parent(r) == route)
                    .map(String::from),
            );
        }
    }
    dirty.extend(before.neighbours.into_iter().chain(after.neighbours));
    dirty.extend(before.tag_routes.into_iter().chain(after.tag_routes));
    dirty
}

fn rebuild_pages(options: &BuildOptions, kept: Kept, changed: &[PathBuf]) -> Result<(BuildReport, Kept)> {
    let started = Instant::now();
    let Kept {
        mut site,
        manifest,
        tera,
        island_calls,
        mut island_html,
        search_entries,
        search_index,
        mut files,
        search_index_url,
        island_text,
        feed_lineups,
        mut island_stylesheets,
    } = kept;
    let content_dir = options.root.join("content");
    let collections: Vec<String> = site.config.collections.keys().cloned().collect();
    let mut changed_routes = BTreeSet::new();
    for path in changed {
        changed_routes.insert(content::reload_file(
            &mut site.sources,
            &content_dir,
            path,
            &site.languages,
            &site.config.default_language,
            &collections,
        )?);
    }
    let before = links(&site.pages, &changed_routes, &site.languages);
    let (with_tags, tag_warnings) = Site::with_tag_pages(&site.sources, &site.config, &site.locales, &options.root)?;
    // Tag pages come and go with their tags; those that stay have the same (empty) text.
    let old_tags: BTreeSet<String> = site
        .pages
        .routes()
        .filter(|r| tags::is_tag_route(r))
        .map(String::from)
        .collect();
    let new_tags: BTreeSet<String> = with_tags.keys().filter(|r| tags::is_tag_route(r)).cloned().collect();
    let mut rerender = changed_routes.clone();
    rerender.extend(old_tags.symmetric_difference(&new_tags).cloned());
    site.pages.rerender(&with_tags, &rerender, &site.config)?;
    let after = links(&site.pages, &changed_routes, &site.languages);
    let rendered = Rendered {
        routes: &rerender,
        targets_kept: old_tags == new_tags && before.targets == after.targets,
    };
    site.check(&options.root, tag_warnings, Some(rendered))?;
    check_page_islands(&site.pages, manifest.as_ref())?;
    check_frames(&site)?;
    check_page_templates(&tera, &site.pages)?;
    let dirty = dirty_routes(&site.pages, &changed_routes, before, after);

    let (entries, edits) = search_entries_after(&site, search_entries, &dirty);
    // A dev build's index keeps its name, which the search page's props hold (its versions change).
    let mut search_index = SearchIndexFile::update(search_index, &site, &entries, &edits, options.dev);

    island_calls.clear();
    let pages = render_templates(
        &site,
        &tera,
        manifest.as_ref(),
        &search_index_url,
        options.dev,
        Some(&dirty),
    )?;
    let rerendered = pages.len();
    let placement = islands::place(&island_calls, &pages)?;
    check_template_islands(&placement.items, manifest.as_ref(), &options.out)?;
    let html = islands::render_more(
        &options.server_bundle,
        &site.locales,
        &placement.items,
        &mut island_html,
    )?;

    let search_gone = std::mem::take(&mut search_index.gone);
    let mut out = Written::new(&options.out, false);
    let (search_index_written, search_index) = write_search_index_in_background(&mut out, search_index);
    let sheets_before = island_stylesheets.files();
    write_pages(
        &mut out,
        pages,
        &html,
        &placement,
        &island_text,
        manifest.as_ref(),
        &mut island_stylesheets,
    )?;
    // The sitemap lists the routes: an edit in place (the search index's ids kept) keeps them.
    if matches!(edits, SearchEdits::Moved) {
        write_sitemap(&mut out, &site)?;
    }
    let lineups = feed::lineups(&site.pages, &site.languages);
    for ((lang, before), after) in site.languages.iter().zip(&feed_lineups).zip(&lineups) {
        if after != before || after.1.iter().any(|route| dirty.contains(route)) {
            write_feed(&mut out, &site, lang)?;
        }
    }
    let written = search_index_written.join().expect("search index writer")?;
    out.record_changed(written);
    let mut gone = gone_files(&site, &dirty, &files, &out.files, &search_gone);
    for page in &gone {
        island_stylesheets.set(page, None);
    }
    // An islands' stylesheet no page names any more (its pages now have other rules, or are gone).
    let sheets_after = island_stylesheets.files();
    gone.extend(sheets_before.into_iter().filter(|sheet| !sheets_after.contains(sheet)));
    for file in &gone {
        remove_file(&options.out.join(file))?;
        files.remove(file);
    }
    out.changed += gone.len();
    let touched = (out.changed_files.iter().chain(&gone))
        .map(|file| file.to_string_lossy().replace('\\', "/"))
        .collect();
    files.extend(out.files);

    let mut report = BuildReport::of(&site, out.changed, started, Some(rerendered));
    report.touched = Some(touched);
    let kept = Kept {
        site,
        manifest,
        tera,
        island_calls,
        island_html,
        search_entries: entries,
        search_index,
        files,
        search_index_url,
        island_text,
        feed_lineups: lineups,
        island_stylesheets,
    };
    Ok((report, kept))
}

/// Every page's search entry in index order, and how they changed. When the pages are those of
/// the last build in the same order, its entries but for the pages of `dirty`, made again
/// (`search_index::entry`, as a whole build makes them), and those replaced; else every entry made
/// again, the pages moved (a page's id is its place in the index, and all of them are encoded
/// again).
fn search_entries_after(
    site: &Site,
    before: Vec<IndexEntry>,
    dirty: &BTreeSet<String>,
) -> (Vec<IndexEntry>, SearchEdits) {
    let pages: Vec<&Page> = site.pages.built().collect();
    let in_place = pages.len() == before.len()
        && (pages.iter().zip(&before)).all(|(page, e)| page.route() == e.route && page.lang == e.lang);
    if !in_place {
        let entries = pages
            .iter()
            .map(|page| search_index::entry(page, &site.pages, &site.config))
            .collect();
        return (entries, SearchEdits::Moved);
    }
    let mut replaced = Vec::new();
    let entries = (pages.iter().zip(before).enumerate())
        .map(|(order, (page, old))| {
            if !dirty.contains(page.route()) {
                return old;
            }
            let entry = search_index::entry(page, &site.pages, &site.config);
            if entry != old {
                replaced.push((order, old));
            }
            entry
        })
        .collect();
    (entries, SearchEdits::Replaced(replaced))
}

/// The files of the last build this one makes no more: the pages of dirty routes that are gone
/// (or no longer pages of their own), and the search index's files `search_gone` names.
fn gone_files(
    site: &Site,
    dirty: &BTreeSet<String>,
    before: &HashSet<PathBuf>,
    written: &HashSet<PathBuf>,
    search_gone: &[String],
) -> Vec<PathBuf> {
    let pages = (dirty.iter())
        .flat_map(|route| (site.languages.iter()).map(|lang| page_file(&site.config.localized_path(route, lang))))
        .filter(|f| before.contains(f) && !written.contains(f));
    let search = search_gone.iter().map(|path| Path::new("assets").join(path));
    pages.chain(search).collect::<BTreeSet<_>>().into_iter().collect()
}

fn remove_file(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("Failed to remove {}", path.display())))
        }
        _ => Ok(()),
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
