//! The render plan: the files a build makes, as a list of typed jobs. A whole build lists every
//! job; a rebuild after a Markdown edit lists those of the affected routes (their pages, the
//! lists and feeds that show them, the search index's languages whose entries changed).

use super::search::{SearchEdits, SearchIndexFile};
use super::state::{Change, State};
use crate::output::feed::{self, Lineup};
use std::collections::BTreeSet;

/// One piece of `dist/` to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Job {
    /// A page of its own: a route in a language.
    Page { route: String, lang: String },
    /// The not-found page of a collection with entry pages, in a language: the message of
    /// `key` under the collection's frame.
    NotFound {
        collection: String,
        key: String,
        lang: String,
    },
    /// `sitemap.xml`: it follows the routes only (and the config).
    Sitemap,
    /// A language's Atom feed.
    Feed { lang: String },
    /// A language's search index files (the manifest that lists every language's comes along).
    SearchIndex { lang: String },
    /// The files of the site as a whole: the UI text for i18next, the code-highlighting
    /// stylesheets, `robots.txt`, `_site.json`, the nginx include of the aliases.
    SiteFiles,
    /// `static/`, copied as it is.
    StaticFiles,
    /// The resized photos of the plan's pages (`model::photos`).
    Photos,
    /// The link-preview cards of the plan's pages (`model::cards`): a page's title, and so its
    /// card, changes only when the page is rendered again.
    Cards,
}

pub(crate) struct Plan {
    pub jobs: Vec<Job>,
    /// The routes the plan renders again; None: a whole build (every job), where files no job
    /// made are stale and text files get compressed.
    pub dirty: Option<BTreeSet<String>>,
    /// What each language's feed shows now, in a `--dev` build (`feed::lineups`).
    pub feed_lineups: Vec<Lineup>,
}

fn shows_photos(site: &crate::model::site::Site, route: &str, lang: &str) -> bool {
    site.pages
        .get(route, lang)
        .is_some_and(|page| !page.rendered.photos.is_empty())
}

impl Plan {
    pub(crate) fn whole(&self) -> bool {
        self.dirty.is_none()
    }

    /// The jobs for `change`, the search index already made for it.
    pub(crate) fn new(state: &State, change: &Change, search: &SearchIndexFile, dev: bool) -> Plan {
        let site = &state.site;
        let dirty = change.dirty();
        let pages = (site.pages.built())
            .filter(|page| dirty.is_none_or(|routes| routes.contains(page.route())))
            .map(|page| Job::Page {
                route: page.route().to_string(),
                lang: page.lang.clone(),
            });
        let mut jobs: Vec<Job> = pages.collect();
        // A whole build writes every photo, the owner's portrait included; a rebuild those of its pages.
        let shown = |job: &Job| matches!(job, Job::Page { route, lang } if shows_photos(site, route, lang));
        if dirty.is_none() || jobs.iter().any(shown) {
            jobs.push(Job::Photos);
        }
        if site.cards.is_some() && jobs.iter().any(|job| matches!(job, Job::Page { .. })) {
            jobs.push(Job::Cards);
        }
        // No Markdown file changes the not-found pages.
        if dirty.is_none() {
            for (name, collection) in &site.config.collections {
                if let (true, Some(key)) = (collection.entry_pages, &collection.not_found_key) {
                    jobs.extend(site.languages.iter().map(|lang| Job::NotFound {
                        collection: name.clone(),
                        key: key.clone(),
                        lang: lang.clone(),
                    }));
                }
            }
            jobs.extend([Job::StaticFiles, Job::SiteFiles]);
        } else if state.aliases_changed {
            // `_site.json` and the nginx include list the aliases.
            jobs.push(Job::SiteFiles);
        }
        let search_languages = search.changed_languages(site);
        jobs.extend(search_languages.into_iter().map(|lang| Job::SearchIndex { lang }));
        // An edit in place (the search index's ids kept) keeps the routes the sitemap lists.
        if dirty.is_none() || matches!(search.edits, SearchEdits::Moved) {
            jobs.push(Job::Sitemap);
        }
        // Only `site watch`'s rebuilds (of a `--dev` build) compare lineups.
        let feed_lineups = match dev {
            true => feed::lineups(&site.pages, &site.languages),
            false => Vec::new(),
        };
        for (n, lang) in site.languages.iter().enumerate() {
            let changed = |routes: &BTreeSet<String>| {
                let (before, after) = (state.feed_lineups.get(n), feed_lineups.get(n));
                before != after || after.is_some_and(|(_, shown)| shown.iter().any(|r| routes.contains(r)))
            };
            if dirty.is_none_or(changed) {
                jobs.push(Job::Feed { lang: lang.clone() });
            }
        }
        Plan {
            jobs,
            dirty: dirty.cloned(),
            feed_lineups,
        }
    }
}
