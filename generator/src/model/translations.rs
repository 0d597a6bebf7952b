//! Translations that stay in step with their English page. Each translated file records in
//! `translated_from:` a short hash of the English body it was translated from; when the English
//! body changes, the translation is stale until it is brought up to date and `site translated`
//! records the new hash (README, "Writing content").

use crate::model::config::SiteConfig;
use crate::model::pages::{Page, Pages};
use serde::Serialize;
use std::path::PathBuf;

/// The front matter key that records the English version a translation was made from.
pub const KEY: &str = "translated_from";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Translated from the English text as it is now.
    Current,
    /// The English text changed after this translation was made.
    Stale,
    /// The file does not say which English text it translates (no `translated_from:`).
    Missing,
    /// There is no file in this language: the page shows the English text.
    Fallback,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Current => "current",
            Status::Stale => "stale",
            Status::Missing => "missing",
            Status::Fallback => "fallback",
        }
    }
}

/// Where one page's translation into one language stands.
#[derive(Debug, Clone)]
pub struct Translation {
    pub route: String,
    pub lang: String,
    pub status: Status,
    /// The translation's file (the English file for a fallback).
    pub path: PathBuf,
}

/// Where `page` stands against its English page; None for English pages and those the build
/// makes (tag pages), which have nothing to translate.
pub fn status(pages: &Pages, page: &Page, default_language: &str) -> Option<Status> {
    if page.lang == default_language || page.is_generated() {
        return None;
    }
    if page.fallback {
        return Some(Status::Fallback);
    }
    let english = pages.get(page.route(), default_language)?;
    Some(match &page.source.front.translated_from {
        None => Status::Missing,
        Some(hash) if hash == english.source.body_hash() => Status::Current,
        Some(_) => Status::Stale,
    })
}

/// Every page in every language but English, by route then language.
pub fn all(pages: &Pages, config: &SiteConfig) -> Vec<Translation> {
    pages
        .routes()
        .flat_map(|route| of_route(pages, config, route))
        .collect()
}

/// The translations of one route, by language.
pub fn of_route(pages: &Pages, config: &SiteConfig, route: &str) -> Vec<Translation> {
    (config.language_codes())
        .filter_map(|lang| {
            let page = pages.get(route, lang)?;
            Some(Translation {
                route: route.to_string(),
                lang: lang.to_string(),
                status: status(pages, page, &config.default_language)?,
                path: page.source.path.clone(),
            })
        })
        .collect()
}

/// The command that records a translation as current.
fn translated_command(route: &str, lang: &str) -> String {
    let page = match route.trim_start_matches('/') {
        "" => "/",
        page => page,
    };
    format!("site translated {page} --lang {lang}")
}

/// A warning for each stale translation and each that does not say what it translates (a
/// missing file is already reported as a fallback).
pub fn warnings(translations: &[Translation]) -> Vec<String> {
    translations
        .iter()
        .filter_map(|t| {
            let fix = translated_command(&t.route, &t.lang);
            match t.status {
                Status::Stale => Some(format!(
                    "{}: the English page changed since this translation; update it, then run `{fix}`",
                    t.path.display()
                )),
                Status::Missing => Some(format!(
                    "{}: no `{KEY}:` says which English text this translates; once it matches the English page, run `{fix}`",
                    t.path.display()
                )),
                Status::Current | Status::Fallback => None,
            }
        })
        .collect()
}

/// `site check --translations`: one row per page and language, its columns aligned.
pub fn table(translations: &[Translation]) -> String {
    let width = translations.iter().map(|t| t.route.len()).max().unwrap_or(0).max(4);
    let mut text = format!("{:width$}  {:8}  status\n", "page", "language");
    for t in translations {
        text.push_str(&format!("{:width$}  {:8}  {}\n", t.route, t.lang, t.status.name()));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::translated_command;
    use crate::model::content::body_hash;

    #[test]
    fn the_hash_follows_the_text_not_its_line_endings() {
        let hash = body_hash("Hello\n\nWorld\n");
        assert_eq!(hash.len(), 8);
        assert_eq!(hash, body_hash("Hello\r\n\r\nWorld\r\n\r\n"));
        assert_ne!(hash, body_hash("Hello\n\nWorld!\n"));
    }

    #[test]
    fn the_command_names_the_page_as_the_owner_writes_it() {
        assert_eq!(
            translated_command("/notes/x", "zh"),
            "site translated notes/x --lang zh"
        );
        assert_eq!(translated_command("/", "ja"), "site translated / --lang ja");
    }
}
