//! Translations that stay in step with their English page. Each translated file records in
//! `translated_from:` a short hash of the English body it was translated from; when the English
//! body changes, the translation is stale until it is brought up to date and `site translated`
//! records the new hash (README, "Writing content").

use crate::model::config::SiteConfig;
use crate::model::content::{self, body_hash, Sources};
use crate::model::pages::{Page, Pages};
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

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

/// `text` with `key: value` in its front matter, replacing the key's line if there is one.
pub fn set_front_matter_key(text: &str, key: &str, value: &str) -> Result<String> {
    let Some(rest) = text.strip_prefix("---\n") else {
        bail!("the file must start with `---` and YAML front matter");
    };
    let Some(end) = rest
        .find("\n---\n")
        .or_else(|| rest.strip_suffix("\n---").map(str::len))
    else {
        bail!("the front matter has no closing `---` line");
    };
    let line = format!("{key}: {value}");
    let mut yaml: Vec<String> = rest[..end].lines().map(String::from).collect();
    match yaml
        .iter_mut()
        .find(|l| l.split_once(':').is_some_and(|(k, _)| k.trim() == key))
    {
        Some(existing) => *existing = line,
        None => yaml.push(line),
    }
    Ok(format!("---\n{}{}", yaml.join("\n"), &rest[end..]))
}

/// `notes/my-topic` (or `/notes/my-topic`, `/` for home) as a route.
fn route_of(page: &str) -> String {
    format!("/{}", page.trim_matches('/'))
}

/// `site translated PAGE [--lang zh]`: records in the page's translation into `lang` (else
/// every translation it has) that it matches the English page as it is now. Returns each file
/// written and the hash it records.
pub fn record(root: &Path, page: &str, lang: Option<&str>) -> Result<Vec<(PathBuf, String)>> {
    let config = SiteConfig::load(&root.join("site-config.yaml"))?;
    let languages: Vec<String> = config.language_codes().map(String::from).collect();
    let collections: Vec<String> = config.collections.keys().cloned().collect();
    let sources: Sources = content::load(
        &root.join("content"),
        &languages,
        &config.default_language,
        &collections,
    )?;
    let route = route_of(page);
    let Some(files) = sources.get(&route) else {
        bail!(
            "there is no page {route} (its English file would be content{route}.{}.md)",
            config.default_language
        );
    };
    let english = &files[&config.default_language];
    let targets: Vec<&str> = match lang {
        Some(lang) if lang == config.default_language => {
            bail!(
                "{lang} is the language pages are translated from: name a translation's language ({})",
                others(&languages, &config.default_language)
            )
        }
        Some(lang) if !languages.iter().any(|l| l == lang) => {
            bail!("the site has no language `{lang}` (it has {})", languages.join(", "))
        }
        Some(lang) if !files.contains_key(lang) => {
            let name = english.path.file_name().unwrap_or_default().to_string_lossy();
            let file = english
                .path
                .with_file_name(name.replace(&format!(".{}.md", config.default_language), &format!(".{lang}.md")));
            bail!(
                "{} does not exist: there is no {lang} translation of {route} yet",
                file.display()
            )
        }
        Some(lang) => vec![lang],
        None => languages
            .iter()
            .map(String::as_str)
            .filter(|l| *l != config.default_language && files.contains_key(*l))
            .collect(),
    };
    if targets.is_empty() {
        bail!("{route} has no translation yet: only {} exists", english.path.display());
    }
    let hash = body_hash(&english.body);
    let mut written = Vec::new();
    for lang in targets {
        let path = &files[lang].path;
        let text = std::fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
        let updated = set_front_matter_key(&text, KEY, &hash).with_context(|| format!("{}", path.display()))?;
        if updated != text {
            std::fs::write(path, updated).with_context(|| format!("Failed to write {}", path.display()))?;
        }
        written.push((path.clone(), hash.clone()));
    }
    Ok(written)
}

fn others(languages: &[String], default_language: &str) -> String {
    languages
        .iter()
        .filter(|l| *l != default_language)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_follows_the_text_not_its_line_endings() {
        let hash = body_hash("Hello\n\nWorld\n");
        assert_eq!(hash.len(), 8);
        assert_eq!(hash, body_hash("Hello\r\n\r\nWorld\r\n\r\n"));
        assert_ne!(hash, body_hash("Hello\n\nWorld!\n"));
    }

    #[test]
    fn the_key_is_added_or_replaced_and_nothing_else_changes() {
        let text = "---\ntitle: A\ndescription: d\n---\nBody\n---\nmore\n";
        let added = set_front_matter_key(text, KEY, "0123abcd").unwrap();
        assert_eq!(
            added,
            "---\ntitle: A\ndescription: d\ntranslated_from: 0123abcd\n---\nBody\n---\nmore\n"
        );
        let replaced = set_front_matter_key(&added, KEY, "ffff0000").unwrap();
        assert_eq!(replaced, added.replace("0123abcd", "ffff0000"));
        assert!(set_front_matter_key("no front matter", KEY, "x").is_err());
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
