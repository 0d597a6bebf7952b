//! Tags: `tags:` in front matter gives each tag a page per language, `/tags/<tag>`, listing the
//! pages that carry it, and `/tags` lists every tag. They are pages of the page model like any
//! other (sitemap, search index, hreflang, page counts), made here rather than read from files.
//! A tag's name is `tags.names.<tag>` in the locales, else the tag itself.

use crate::diagnostics::{fail_on, Diagnostic};
use crate::model::config::SiteConfig;
use crate::model::content::{FrontMatter, PageKind, SourcePage, Sources};
use crate::model::locales::Locales;
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The route of the list of every tag; a tag's page is below it.
pub const INDEX_ROUTE: &str = "/tags";

pub fn route(tag: &str) -> String {
    format!("{INDEX_ROUTE}/{tag}")
}

/// The tag index or a tag's page.
pub fn is_tag_route(route: &str) -> bool {
    route
        .strip_prefix(INDEX_ROUTE)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn name_key(tag: &str) -> String {
    format!("tags.names.{tag}")
}

/// The tag's name in `lang` (else in the default language), else the tag itself.
pub fn name(locales: &Locales, lang: &str, tag: &str) -> String {
    locales
        .get(lang, "translation", &name_key(tag))
        .unwrap_or(tag)
        .to_string()
}

/// A UI text of the tag pages with `{{tag}}` filled in.
fn text(locales: &Locales, lang: &str, key: &str, tag: &str) -> String {
    locales
        .get(lang, "translation", key)
        .unwrap_or(key)
        .replace("{{tag}}", tag)
}

/// A tag is part of a URL: lower-case letters, digits and dashes.
fn is_valid(tag: &str) -> bool {
    !tag.is_empty()
        && !tag.starts_with('-')
        && tag
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Every tag of the site and the first file that uses it; fails on a tag that cannot be a URL
/// segment, naming the file and line.
fn collect(sources: &Sources) -> Result<BTreeMap<String, &SourcePage>> {
    let mut tags: BTreeMap<String, &SourcePage> = BTreeMap::new();
    let mut errors = Vec::new();
    for source in sources.values().flat_map(BTreeMap::values) {
        for tag in &source.front.tags {
            if is_valid(tag) {
                tags.entry(tag.clone()).or_insert(source);
            } else {
                errors.push(source.problem_at_key("tags", format!(
                    "tag `{tag}` must be lower-case letters, digits and dashes (it is part of the tag page's URL); its name in each language goes in the locales as `{}`",
                    name_key(tag)
                )));
            }
        }
    }
    fail_on(errors)?;
    Ok(tags)
}

fn generated(route: String, lang: &str, kind: PageKind, title: String, description: String, dir: &Path) -> SourcePage {
    SourcePage {
        path: dir.join(route.trim_start_matches('/')),
        route,
        lang: lang.to_string(),
        kind,
        front: FrontMatter {
            title,
            description,
            ..FrontMatter::default()
        },
        key_lines: BTreeMap::new(),
        body: String::new(),
        body_line: 1,
        body_hash: Default::default(),
    }
}

/// Adds the tag pages, in every language, to the site's sources and returns a warning for each
/// tag without a name in the locales. Fails on a bad tag, or on a file of its own at `/tags`.
pub fn add_pages(sources: &mut Sources, config: &SiteConfig, locales: &Locales, content: &Path) -> Result<Vec<String>> {
    let tags = collect(sources)?;
    if tags.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(taken) = sources
        .iter()
        .find(|(route, _)| is_tag_route(route))
        .and_then(|(_, files)| files.values().next())
    {
        let message = format!("{INDEX_ROUTE} and the routes below it are the tag pages'");
        return Err(Diagnostic::in_file(&taken.path, message).into());
    }
    let warnings = tags
        .iter()
        .filter(|(tag, _)| locales.get(&config.default_language, "translation", &name_key(tag)).is_none())
        .map(|(tag, source)| {
            format!(
                "{}: tag `{tag}` has no name in the locales (`{}` in locales/*/translation.json); its pages show `{tag}`",
                source.at_key("tags"),
                name_key(tag)
            )
        })
        .collect();
    let mut pages: Vec<SourcePage> = Vec::new();
    for lang in config.language_codes() {
        pages.push(generated(
            INDEX_ROUTE.to_string(),
            lang,
            PageKind::TagIndex,
            text(locales, lang, "tags.title", ""),
            text(locales, lang, "tags.description", ""),
            content,
        ));
        for tag in tags.keys() {
            let tag_name = name(locales, lang, tag);
            pages.push(generated(
                route(tag),
                lang,
                PageKind::Tag { tag: tag.clone() },
                text(locales, lang, "tags.pageTitle", &tag_name),
                text(locales, lang, "tags.pageDescription", &tag_name),
                content,
            ));
        }
    }
    for page in pages {
        sources
            .entry(page.route.clone())
            .or_default()
            .insert(page.lang.clone(), Arc::new(page));
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn tags_are_url_segments() {
        for good in ["dcf", "risk-and-reward", "ev-ebitda", "p2p"] {
            assert!(is_valid(good), "{good}");
        }
        for bad in ["", "DCF", "ev/ebitda", "risk and reward", "-x", "價值"] {
            assert!(!is_valid(bad), "{bad}");
        }
    }
}
