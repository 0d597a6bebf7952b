//! One render plan for `site build`, `site check` and `site watch`, as Zola's queue: the sources
//! are loaded (all of them, or after a Markdown edit the files that changed), every check runs
//! (`checks`), the plan lists the files to make as typed jobs (`jobs`: the pages of every route
//! or of the affected ones), the pages are rendered with their templates, and the jobs are
//! carried out (`write`). `check` stops before the islands are rendered and anything written;
//! a rebuild runs the same steps over the affected routes, so its output equals a whole
//! `site build --dev` byte for byte (`tests/watch.rs`).

mod checks;
mod jobs;
mod options;
mod render;
mod search;
mod state;
mod write;
mod write_pages;

pub use options::{BuildOptions, BuildReport, CheckReport};

use crate::model::translations;
use crate::render::islands;
use anyhow::Result;
use state::State;
use std::path::PathBuf;
use std::time::Instant;

/// How far the plan runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Until {
    /// Every check, the pages rendered with their templates; nothing written.
    Checked,
    Written,
}

/// Runs the plan on `state` (None: load everything), after `changed` (None: everything), up to
/// `until`. Gives the state and, when the plan wrote, the report.
fn run(
    options: &BuildOptions,
    state: Option<State>,
    changed: Option<&[PathBuf]>,
    until: Until,
) -> Result<(State, Option<BuildReport>)> {
    let started = Instant::now();
    let (mut state, change) = match (state, changed) {
        (Some(mut state), Some(changed)) => {
            let change = state.reload(&options.root, changed)?;
            (state, change)
        }
        _ => State::load(options)?,
    };
    checks::sources(&mut state, options, &change)?;
    // The search index comes before the pages: the search page's props name its file.
    let search = search::index(&mut state, change.dirty(), options.dev);
    let plan = jobs::Plan::new(&state, &change, &search, options.dev);
    let pages = render::pages(&state, &plan, &search.url(), options.dev)?;
    let placement = islands::place(&state.island_calls, &pages)?;
    checks::template_islands(&placement.items, state.ui.as_ref(), &options.out)?;
    if until == Until::Checked {
        return Ok((state, None));
    }
    let rerendered = (!plan.whole()).then_some(pages.len());
    let wrote = write::run(options, &mut state, plan, search, pages, placement)?;
    let mut report = BuildReport::of(&state.site, wrote.changed, started);
    report.rerendered = rerendered;
    report.touched = wrote.touched;
    Ok((state, Some(report)))
}

/// Checks everything `build` checks, writing nothing.
pub fn check(options: &BuildOptions) -> Result<CheckReport> {
    let (state, _) = run(options, None, None, Until::Checked)?;
    let site = state.site;
    Ok(CheckReport {
        pages: site.page_count(),
        translations: translations::all(&site.pages, &site.config),
        warnings: site.warnings,
        held_back: site.held_back,
    })
}

/// Builds every page in every language into `options.out`.
pub fn build(options: &BuildOptions) -> Result<BuildReport> {
    let (_, report) = run(options, None, None, Until::Written)?;
    Ok(report.expect("a written plan reports"))
}

/// A site kept in memory between builds (`site watch`), so that after a Markdown edit only the
/// routes it affects are rendered again.
pub struct Resident {
    options: BuildOptions,
    /// The last build's state, if it succeeded.
    state: Option<State>,
}

impl Resident {
    pub fn new(options: BuildOptions) -> Self {
        Resident { options, state: None }
    }

    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// A whole build, kept for the next rebuild.
    pub fn build_all(&mut self) -> Result<BuildReport> {
        self.state = None;
        let (state, report) = run(&self.options, None, None, Until::Written)?;
        self.state = Some(state);
        Ok(report.expect("a written plan reports"))
    }

    /// Builds again after `changed` (paths below the site's root) changed: the routes they
    /// affect when every one is a Markdown file of `content/` in a `--dev` build, else
    /// everything. A failed rebuild forgets the site, so the next one builds everything.
    pub fn rebuild(&mut self, changed: &[PathBuf]) -> Result<BuildReport> {
        let content_dir = self.options.root.join("content");
        let pages_only = self.options.dev
            && (changed.iter()).all(|p| p.starts_with(&content_dir) && p.extension().is_some_and(|e| e == "md"));
        match self.state.take() {
            Some(state) if pages_only => {
                let (state, report) = run(&self.options, Some(state), Some(changed), Until::Written)?;
                self.state = Some(state);
                Ok(report.expect("a written plan reports"))
            }
            _ => self.build_all(),
        }
    }
}
