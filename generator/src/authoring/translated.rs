//! `site translated`: recording in a translation's front matter (`translated_from:`) the English
//! text it matches, and the front matter edit `site new` makes too.

use crate::model::content::{self, body_hash, Sources};
use crate::model::translations;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

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
    let config = crate::model::config::load(&root.join("site-config.yaml"))?;
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
        let updated =
            set_front_matter_key(&text, translations::KEY, &hash).with_context(|| format!("{}", path.display()))?;
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
    use crate::model::translations::KEY;

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
}
