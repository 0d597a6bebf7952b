//! Drafts and scheduled pages (README, "Writing content"): a file with `draft: true`, or whose
//! `date:` is after today, is left out of the site before anything else reads it, so no page,
//! list, feed, sitemap, search index, tag page, neighbour link or language switch shows it,
//! unless the build asks for it (`site build --drafts`, `--future`; `site watch --dev` shows
//! both). `date:` is the day a page is published, as Hugo's `publishDate` falls back to `date`:
//! a second key would let a page show one day and appear on another.

use crate::diagnostics::fail_on;
use crate::model::content::{FrontMatter, PageKind, Sources};
use crate::model::date::PageDate;
use anyhow::Result;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// What a build shows of the pages that are not published yet.
#[derive(Debug, Clone, Copy)]
pub struct Publishing {
    pub drafts: bool,
    pub future: bool,
    /// The day the build runs (UTC): a page dated after it is scheduled.
    pub today: PageDate,
}

impl Publishing {
    /// What `site build` shows: published pages only, as of today.
    pub fn published() -> Self {
        Publishing {
            drafts: false,
            future: false,
            today: today(),
        }
    }

    /// Whether a page in `state` is shown.
    fn shows(&self, state: Unpublished) -> bool {
        match state {
            Unpublished::Draft => self.drafts,
            Unpublished::Scheduled(_) => self.future,
        }
    }
}

/// Today in UTC, as a page's `date:` would say it.
pub fn today() -> PageDate {
    crate::authoring::new_page::today()
        .parse()
        .expect("today is a calendar date")
}

/// Why a page is not published yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unpublished {
    Draft,
    /// Its `date:` is after the day of the build.
    Scheduled(PageDate),
}

impl Unpublished {
    /// What a page's front matter says of it on `today`; None when it is published. A draft is
    /// a draft whatever its date.
    pub fn of(front: &FrontMatter, today: PageDate) -> Option<Unpublished> {
        if front.draft {
            return Some(Unpublished::Draft);
        }
        front.date.filter(|date| *date > today).map(Unpublished::Scheduled)
    }

    /// As the page's badge class and `site check --translations` name it.
    pub fn name(self) -> &'static str {
        match self {
            Unpublished::Draft => "draft",
            Unpublished::Scheduled(_) => "scheduled",
        }
    }
}

/// A file the build left out.
#[derive(Debug, Clone)]
pub struct HeldBack {
    pub route: String,
    pub lang: String,
    pub path: PathBuf,
    /// Its own state, or that of the page or section it belongs to.
    pub why: Unpublished,
}

/// Takes out of `sources` the files `publishing` does not show, and gives them. A route whose
/// default-language file is held back goes in every language (a translation has no page
/// without it); a section or collection held back takes every page below it along. The home
/// page cannot be held back: every other page links to it.
pub fn hold_back(sources: &mut Sources, publishing: &Publishing, default_language: &str) -> Result<Vec<HeldBack>> {
    let mut errors = Vec::new();
    let mut whole_routes: Vec<(String, Unpublished)> = Vec::new();
    let mut held = Vec::new();
    for (route, files) in sources.iter_mut() {
        let states: Vec<(String, Unpublished)> = (files.iter())
            .filter_map(|(lang, file)| Some((lang.clone(), Unpublished::of(&file.front, publishing.today)?)))
            .filter(|(_, state)| !publishing.shows(*state))
            .collect();
        for (lang, state) in states {
            let file = &files[&lang];
            if file.kind == PageKind::Home {
                let key = if state == Unpublished::Draft { "draft" } else { "date" };
                errors.push(file.problem_at_key(key, "the home page cannot be a draft or scheduled"));
            } else if lang == default_language {
                whole_routes.push((route.clone(), state));
            } else {
                held.push(held_file(route, &lang, file.path.clone(), state));
                files.remove(&lang);
            }
        }
    }
    fail_on(errors)?;
    let why_whole = |route: &str| {
        let own = whole_routes.iter().find(|(r, _)| r == route);
        let below = || {
            whole_routes
                .iter()
                .find(|(section, _)| route.starts_with(&format!("{section}/")))
        };
        own.or_else(below).map(|(_, state)| *state)
    };
    let mut gone = BTreeSet::new();
    for (route, files) in sources.iter() {
        if let Some(why) = why_whole(route) {
            held.extend((files.iter()).map(|(lang, file)| held_file(route, lang, file.path.clone(), why)));
            gone.insert(route.clone());
        }
    }
    sources.retain(|route, _| !gone.contains(route));
    held.sort_by(|a, b| (&a.route, &a.lang).cmp(&(&b.route, &b.lang)));
    Ok(held)
}

fn held_file(route: &str, lang: &str, path: PathBuf, why: Unpublished) -> HeldBack {
    HeldBack {
        route: route.to_string(),
        lang: lang.to_string(),
        path,
        why,
    }
}

/// The files left out, as `site check --translations` lists them after the table.
pub fn table(held: &[HeldBack]) -> String {
    if held.is_empty() {
        return String::new();
    }
    let width = held.iter().map(|h| h.route.len()).max().unwrap_or(0).max(4);
    let mut text = format!("\nnot published ({} files):\n", held.len());
    for h in held {
        let when = match h.why {
            Unpublished::Draft => String::new(),
            Unpublished::Scheduled(date) => format!(" for {date}"),
        };
        text.push_str(&format!(
            "{:width$}  {:8}  {}{when}  ({})\n",
            h.route,
            h.lang,
            h.why.name(),
            h.path.display()
        ));
    }
    text
}
