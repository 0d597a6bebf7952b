//! The pages under `content/`: one Markdown file per page per language, with YAML front matter.

use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    pub title: String,
    pub description: String,
    #[serde(default, deserialize_with = "date_string")]
    pub date: Option<String>,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub weight: Option<i64>,
    #[serde(default)]
    pub tech: Option<String>,
    /// A template of `generator/templates/` other than the page kind's default.
    #[serde(default)]
    pub template: Option<String>,
    /// Worked-example figures of the valuation articles, checked by the examples test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<serde_yaml::Value>,
    /// The interactive part of the page, an island of `ui/src/islands/` (`LoginForm`, `Search`).
    #[serde(default)]
    pub island: Option<String>,
}

/// YAML reads `2025-10-01` as a string but `2025` as a number; dates are always text here.
fn date_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let value: Option<serde_yaml::Value> = Option::deserialize(d)?;
    Ok(match value {
        None | Some(serde_yaml::Value::Null) => None,
        Some(serde_yaml::Value::String(s)) => Some(s),
        Some(serde_yaml::Value::Number(n)) => Some(n.to_string()),
        Some(other) => {
            return Err(serde::de::Error::custom(format!(
                "date must be YYYY-MM-DD or YYYY-MM, found {other:?}"
            )))
        }
    })
}

/// What a route is, which decides its default template and its place in lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PageKind {
    Home,
    /// An `_index` page below the root: a section landing page or a collection's list.
    Section,
    /// A page inside a collection (`content/notes/liquidity-risk.en.md`).
    Entry {
        collection: String,
    },
    Single,
}

/// One language version of one route, as read from disk.
#[derive(Debug, Clone)]
pub struct SourcePage {
    /// The English route: `/`, `/notes`, `/valuation-models/dcf`.
    pub route: String,
    pub lang: String,
    pub path: PathBuf,
    pub kind: PageKind,
    pub front: FrontMatter,
    pub body: String,
    /// 1-based line of the file where `body` starts, so Markdown errors can name the file's line.
    pub body_line: usize,
}

/// Every route with its language versions; `fallbacks` names the (route, lang) pairs served in English.
#[derive(Debug)]
pub struct Content {
    pub pages: BTreeMap<String, BTreeMap<String, SourcePage>>,
    pub fallbacks: Vec<(String, String)>,
}

impl Content {
    pub fn routes(&self) -> impl Iterator<Item = &str> {
        self.pages.keys().map(String::as_str)
    }

    pub fn page(&self, route: &str, lang: &str) -> Option<&SourcePage> {
        self.pages.get(route).and_then(|versions| versions.get(lang))
    }
}

/// `content/notes/liquidity-risk.zh.md` -> (`/notes/liquidity-risk`, `zh`, kind).
pub fn route_of(relative: &Path, collections: &[String]) -> Result<(String, String, PageKind)> {
    let file = relative
        .file_name()
        .and_then(|f| f.to_str())
        .ok_or_else(|| anyhow!("file name is not UTF-8"))?;
    let stem = file.strip_suffix(".md").expect("only .md files are walked");
    let (name, lang) = stem
        .rsplit_once('.')
        .ok_or_else(|| anyhow!("name it `{stem}.en.md` (or .zh.md, .ja.md): the language is missing"))?;
    let dir: Vec<&str> = relative
        .parent()
        .map(|p| p.iter().map(|s| s.to_str().unwrap_or("")).collect())
        .unwrap_or_default();
    let (route, kind) = if name == "_index" {
        if dir.is_empty() {
            ("/".to_string(), PageKind::Home)
        } else {
            (format!("/{}", dir.join("/")), PageKind::Section)
        }
    } else {
        let mut parts = dir.clone();
        parts.push(name);
        let kind = match dir.as_slice() {
            [collection] if collections.iter().any(|c| c == collection) => PageKind::Entry {
                collection: collection.to_string(),
            },
            _ => PageKind::Single,
        };
        (format!("/{}", parts.join("/")), kind)
    };
    Ok((route, lang.to_string(), kind))
}

/// Splits `---\nyaml\n---\nbody` and parses the YAML, naming file and line on error.
pub fn parse_page(path: &Path, text: &str) -> Result<(FrontMatter, String, usize)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| {
            anyhow!(
                "{}:1: the file must start with `---` and YAML front matter",
                path.display()
            )
        })?;
    let end = rest
        .find("\n---\n")
        .or_else(|| rest.find("\n---\r\n"))
        .or_else(|| rest.strip_suffix("\n---").map(|s| s.len()))
        .ok_or_else(|| anyhow!("{}:1: the front matter has no closing `---` line", path.display()))?;
    let yaml = &rest[..end + 1];
    let front: FrontMatter = serde_yaml::from_str(yaml).map_err(|e| {
        // The YAML starts on the file's second line.
        let at = e
            .location()
            .map(|l| format!("{}:{}", l.line() + 1, l.column()))
            .unwrap_or_else(|| "1".into());
        anyhow!("{}:{at}: invalid front matter: {e}", path.display())
    })?;
    let after = &rest[end + 1..];
    let body = after.split_once('\n').map(|(_, b)| b).unwrap_or("");
    let body_line = text[..text.len() - body.len()].lines().count() + 1;
    if front.title.trim().is_empty() {
        bail!("{}:2: `title` is empty", path.display());
    }
    Ok((front, body.to_string(), body_line))
}

/// Reads every page under `dir`, in parallel, and applies the English fallback.
pub fn load(dir: &Path, languages: &[String], default_language: &str, collections: &[String]) -> Result<Content> {
    let files: Vec<PathBuf> = WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("Failed to walk {}", dir.display()))?
        .into_iter()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        .collect();

    let parsed: Vec<SourcePage> = files
        .par_iter()
        .map(|path| {
            let relative = path.strip_prefix(dir).expect("walked below dir");
            let (route, lang, kind) = route_of(relative, collections).with_context(|| format!("{}", path.display()))?;
            if !languages.contains(&lang) {
                bail!(
                    "{}: unknown language `{lang}` (the site has {})",
                    path.display(),
                    languages.join(", ")
                );
            }
            let text = std::fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
            let (front, body, body_line) = parse_page(path, &text)?;
            Ok(SourcePage {
                route,
                lang,
                path: path.clone(),
                kind,
                front,
                body,
                body_line,
            })
        })
        .collect::<Result<_>>()?;

    let mut pages: BTreeMap<String, BTreeMap<String, SourcePage>> = BTreeMap::new();
    for page in parsed {
        pages
            .entry(page.route.clone())
            .or_default()
            .insert(page.lang.clone(), page);
    }
    let mut fallbacks = Vec::new();
    for (route, versions) in pages.iter_mut() {
        let Some(original) = versions.get(default_language).cloned() else {
            let any = versions.values().next().expect("a route has a file");
            bail!(
                "{}: `{route}` has no {default_language} version (expected {})",
                any.path.display(),
                any.path
                    .with_file_name(format!(
                        "{}.{default_language}.md",
                        any.path
                            .file_name()
                            .unwrap()
                            .to_string_lossy()
                            .split('.')
                            .next()
                            .unwrap()
                    ))
                    .display()
            );
        };
        for lang in languages {
            if !versions.contains_key(lang) {
                fallbacks.push((route.clone(), lang.clone()));
                versions.insert(
                    lang.clone(),
                    SourcePage {
                        lang: lang.clone(),
                        ..original.clone()
                    },
                );
            }
        }
    }
    Ok(Content { pages, fallbacks })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_follow_file_names() {
        let c = vec!["notes".to_string()];
        let r = |p: &str| route_of(Path::new(p), &c).unwrap();
        assert_eq!(r("_index.en.md"), ("/".into(), "en".into(), PageKind::Home));
        assert_eq!(
            r("notes/_index.zh.md"),
            ("/notes".into(), "zh".into(), PageKind::Section)
        );
        assert_eq!(
            r("notes/liquidity-risk.ja.md"),
            (
                "/notes/liquidity-risk".into(),
                "ja".into(),
                PageKind::Entry {
                    collection: "notes".into()
                }
            )
        );
        assert_eq!(r("valuation-models/dcf.en.md").2, PageKind::Single);
        assert_eq!(r("MemberPage.en.md").0, "/MemberPage");
        assert!(route_of(Path::new("notes/oops.md"), &c).is_err());
    }

    #[test]
    fn front_matter_errors_name_file_and_line() {
        let err = parse_page(
            Path::new("content/x.en.md"),
            "---\ntitle: A\ndescription: [oops\n---\nbody\n",
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("content/x.en.md:"), "{err}");
        assert!(err.contains("invalid front matter"), "{err}");
        let missing = parse_page(Path::new("a.en.md"), "---\ntitle: A\n---\n")
            .unwrap_err()
            .to_string();
        assert!(missing.contains("missing field `description`"), "{missing}");
        let unknown = parse_page(Path::new("a.en.md"), "---\ntitle: A\ndescription: d\ntitel: x\n---\n")
            .unwrap_err()
            .to_string();
        assert!(unknown.contains("a.en.md:4"), "{unknown}");
    }

    #[test]
    fn body_and_its_first_line_are_split_from_front_matter() {
        let (front, body, line) = parse_page(
            Path::new("a.en.md"),
            "---\ntitle: A\ndescription: d\ndate: 2025-10-01\n---\nHello\n",
        )
        .unwrap();
        assert_eq!(front.date.as_deref(), Some("2025-10-01"));
        assert_eq!(body, "Hello\n");
        assert_eq!(line, 6);
    }
}
