//! The pages under `content/`: one Markdown file per page per language, with YAML front matter.

use crate::diagnostics::Diagnostic;
use crate::model::config::PreviewImage;
use crate::model::date::PageDate;
use anyhow::{anyhow, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use walkdir::WalkDir;

/// A page's island as its front matter places it (README, "Front matter").
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "serde_yaml::Value")]
pub struct IslandPlacement {
    pub name: String,
    pub hydrate: Hydrate,
    /// Props of its own, beside `lang` (which every island gets).
    pub props: serde_json::Map<String, serde_json::Value>,
    /// Facts only the build knows that it needs as props.
    pub data: Vec<IslandData>,
}

/// `island:` written out in full.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlacedIsland {
    name: String,
    #[serde(default)]
    hydrate: Hydrate,
    #[serde(default)]
    props: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    data: Vec<IslandData>,
}

impl TryFrom<serde_yaml::Value> for IslandPlacement {
    type Error = String;

    /// A name alone, or the placement written out: read by hand, so a mistake in the second is
    /// named (an unknown `hydrate:`) rather than "matches no form".
    fn try_from(value: serde_yaml::Value) -> Result<Self, String> {
        let placed = match value {
            serde_yaml::Value::String(name) => PlacedIsland {
                name,
                hydrate: Hydrate::Load,
                props: Default::default(),
                data: Vec::new(),
            },
            other => serde_yaml::from_value(other).map_err(|e| format!("island: {e}"))?,
        };
        Ok(IslandPlacement {
            name: placed.name,
            hydrate: placed.hydrate,
            props: placed.props,
            data: placed.data,
        })
    }
}

/// When an island hydrates, as Astro's `client:load` and `client:idle`: at once, or once the
/// browser is idle (islands nobody needs at first sight, so they never delay the first paint or a
/// reader's first tap). The page's markup carries it as `data-hydrate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Hydrate {
    #[default]
    Load,
    Idle,
}

/// A fact of the build an island can ask for as a prop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IslandData {
    /// `indexUrl`: the content-hashed URL of the page language's search index.
    SearchIndex,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    pub title: String,
    pub description: String,
    #[serde(default)]
    pub date: Option<PageDate>,
    /// When the text last changed meaningfully (feeds and structured data); `date` when absent.
    #[serde(default)]
    pub updated: Option<PageDate>,
    /// A guide's key takeaways, a few sentences shown above its text.
    #[serde(default)]
    pub takeaways: Vec<String>,
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
    #[serde(default)]
    pub example: Option<serde_yaml::Value>,
    /// The page's own link-preview image, instead of `og_image` of site-config.yaml.
    #[serde(default)]
    pub image: Option<PreviewImage>,
    /// The photo shown above the page's text, its largest paint: a JPEG or PNG of
    /// `static/images/` (`cover: { src: /images/harbour.jpg, alt: The harbour at dawn }`).
    #[serde(default)]
    pub cover: Option<Cover>,
    /// The interactive part of the page, an island of `ui/src/islands/`: its name (`island:
    /// LoginForm`), or its name with when it hydrates, its props and the build's data it needs
    /// (`island: { name: Search, data: [search_index] }`).
    #[serde(default)]
    pub island: Option<IslandPlacement>,
    /// The page's tags, keys such as `valuation` whose names are `tags.names.<key>` in the
    /// locales; each gets a page at `/tags/<key>` listing the pages that carry it.
    #[serde(default)]
    pub tags: Vec<String>,
    /// A translation's record of the English body it was made from (`body_hash`).
    #[serde(default)]
    pub translated_from: Option<String>,
    /// Left out of the site unless the build asks for drafts (`model::publishing`).
    #[serde(default)]
    pub draft: bool,
    /// Old URLs of the page, each answered with a permanent redirect (`model::aliases`).
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// A page's cover photo and the text that stands for it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cover {
    pub src: String,
    pub alt: String,
}

/// What a file is by its place under `content/`, which decides its default template and its
/// place in lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageKind {
    Home,
    /// An `_index` page below the root that is not a collection's: a section landing page.
    Section,
    /// A collection's `_index` page, which lists its entries (`content/notes/_index.en.md`).
    Collection {
        name: String,
    },
    /// A page inside a collection (`content/notes/liquidity-risk.en.md`).
    Entry {
        collection: String,
    },
    Single,
    /// The list of every tag, `/tags`: made by the build, not written.
    TagIndex,
    /// The pages carrying one tag, `/tags/<tag>`: made by the build, not written.
    Tag {
        tag: String,
    },
}

/// One Markdown file of `content/`, read and its front matter parsed.
#[derive(Debug, Clone)]
pub struct SourcePage {
    /// The English route: `/`, `/notes`, `/valuation-models/dcf`.
    pub route: String,
    /// The file's language.
    pub lang: String,
    pub path: PathBuf,
    pub kind: PageKind,
    pub front: FrontMatter,
    /// The file's line of each top-level front matter key, so errors about a key name its line.
    pub key_lines: BTreeMap<String, usize>,
    pub body: String,
    /// 1-based line of the file where `body` starts, so Markdown errors can name the file's line.
    pub body_line: usize,
    /// `body_hash` of `body`, made once: every translation's status compares it.
    pub(crate) body_hash: OnceLock<String>,
}

impl SourcePage {
    pub fn body_hash(&self) -> &str {
        self.body_hash.get_or_init(|| body_hash(&self.body))
    }

    /// `content/x.en.md:4` for the front matter key `key` (the front matter's first line if absent).
    pub fn at_key(&self, key: &str) -> String {
        format!("{}:{}", self.path.display(), self.key_line(key))
    }

    /// The file's line of the front matter key `key` (the front matter's first line if absent).
    pub fn key_line(&self, key: &str) -> usize {
        self.key_lines.get(key).copied().unwrap_or(FRONT_MATTER_LINE)
    }

    /// A problem with the front matter key `key`.
    pub fn problem_at_key(&self, key: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::at(&self.path, self.key_line(key), message)
    }
}

/// A short hash of a page body. Line endings and trailing white space do not count: an editor
/// that rewrites them has not changed the text.
pub fn body_hash(body: &str) -> String {
    let normalized = body.replace("\r\n", "\n");
    let digest = Sha256::digest(normalized.trim_end().as_bytes());
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// Every route (English) with its files by language; the default language always has one.
pub type Sources = BTreeMap<String, BTreeMap<String, Arc<SourcePage>>>;

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
    let collection = match dir.as_slice() {
        [name] => collections.iter().find(|c| c == name).cloned(),
        _ => None,
    };
    let (route, kind) = match (name, collection) {
        ("_index", _) if dir.is_empty() => ("/".to_string(), PageKind::Home),
        ("_index", Some(name)) => (format!("/{name}"), PageKind::Collection { name }),
        ("_index", None) => (format!("/{}", dir.join("/")), PageKind::Section),
        (name, collection) => {
            let kind = match collection {
                Some(collection) => PageKind::Entry { collection },
                None => PageKind::Single,
            };
            let mut parts = dir.clone();
            parts.push(name);
            (format!("/{}", parts.join("/")), kind)
        }
    };
    Ok((route, lang.to_string(), kind))
}

/// The file's line where the front matter's YAML starts, after the opening `---`.
const FRONT_MATTER_LINE: usize = 2;

/// A page file split at its front matter and parsed.
#[derive(Debug)]
pub struct PageFile {
    pub front: FrontMatter,
    /// The file's line of each top-level key of the front matter.
    pub key_lines: BTreeMap<String, usize>,
    pub body: String,
    /// The file's line where `body` starts.
    pub body_line: usize,
}

/// The top-level keys of a front matter's YAML with their line in the file.
fn key_lines(yaml: &str) -> BTreeMap<String, usize> {
    let mut lines = BTreeMap::new();
    for (n, line) in yaml.lines().enumerate() {
        if line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        if let Some((key, _)) = line.split_once(':') {
            let key = key.trim().trim_matches(['"', '\'']);
            lines.entry(key.to_string()).or_insert(FRONT_MATTER_LINE + n);
        }
    }
    lines
}

/// A YAML error's message without its ` at line 3 column 7`: that counts lines from the front
/// matter's start, and the message already begins with the file's line.
fn without_position(message: &str) -> &str {
    match message.rsplit_once(" at line ") {
        Some((text, at))
            if at.split_once(" column ").is_some_and(|(l, c)| {
                [l, c]
                    .iter()
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            }) =>
        {
            text
        }
        _ => message,
    }
}

/// Splits `---\nyaml\n---\nbody` and parses the YAML, naming file and line on error.
pub fn parse_page(path: &Path, text: &str) -> Result<PageFile> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| Diagnostic::at(path, 1, "the file must start with `---` and YAML front matter"))?;
    let end = rest
        .find("\n---\n")
        .or_else(|| rest.find("\n---\r\n"))
        .or_else(|| rest.strip_suffix("\n---").map(|s| s.len()))
        .ok_or_else(|| Diagnostic::at(path, 1, "the front matter has no closing `---` line"))?;
    let yaml = &rest[..end + 1];
    let key_lines = key_lines(yaml);
    let front: FrontMatter = serde_yaml::from_str(yaml).map_err(|e| {
        let message = format!("invalid front matter: {}", without_position(&e.to_string()));
        match e.location() {
            Some(l) => Diagnostic::at_column(path, l.line() - 1 + FRONT_MATTER_LINE, l.column(), message),
            None => Diagnostic::at(path, 1, message),
        }
    })?;
    let after = &rest[end + 1..];
    let body = after.split_once('\n').map(|(_, b)| b).unwrap_or("");
    let body_line = text[..text.len() - body.len()].lines().count() + 1;
    if front.title.trim().is_empty() {
        let line = key_lines.get("title").copied().unwrap_or(FRONT_MATTER_LINE);
        return Err(Diagnostic::at(path, line, "`title` is empty").into());
    }
    Ok(PageFile {
        front,
        key_lines,
        body: body.to_string(),
        body_line,
    })
}

/// Every `.md` file below `dir`, sorted by name.
fn markdown_files(dir: &Path) -> Result<Vec<PathBuf>> {
    Ok(WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("Failed to walk {}", dir.display()))?
        .into_iter()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        .collect())
}

fn read_page(dir: &Path, path: &Path, languages: &[String], collections: &[String]) -> Result<SourcePage> {
    let relative = path.strip_prefix(dir).expect("walked below dir");
    let (route, lang, kind) = route_of(relative, collections).with_context(|| format!("{}", path.display()))?;
    if !languages.contains(&lang) {
        let message = format!("unknown language `{lang}` (the site has {})", languages.join(", "));
        return Err(Diagnostic::in_file(path, message).into());
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
    let file = parse_page(path, &text)?;
    Ok(SourcePage {
        route,
        lang,
        path: path.to_path_buf(),
        kind,
        front: file.front,
        key_lines: file.key_lines,
        body: file.body,
        body_line: file.body_line,
        body_hash: OnceLock::new(),
    })
}

/// Reads every page under `dir`, in parallel; every route must have a `default_language` file.
pub fn load(dir: &Path, languages: &[String], default_language: &str, collections: &[String]) -> Result<Sources> {
    let parsed: Vec<SourcePage> = markdown_files(dir)?
        .par_iter()
        .map(|path| read_page(dir, path, languages, collections))
        .collect::<Result<_>>()?;
    let mut sources = Sources::new();
    for page in parsed {
        sources
            .entry(page.route.clone())
            .or_default()
            .insert(page.lang.clone(), Arc::new(page));
    }
    for (route, files) in &sources {
        has_default(route, files, default_language)?;
    }
    Ok(sources)
}

/// Fails when `route` has no file in the default language, naming the file expected.
fn has_default(route: &str, files: &BTreeMap<String, Arc<SourcePage>>, default_language: &str) -> Result<()> {
    if !files.contains_key(default_language) {
        let any = &files.values().next().expect("a route has a file").path;
        let stem = any.file_name().unwrap_or_default().to_string_lossy();
        let stem = stem.split('.').next().unwrap_or_default();
        let expected = any.with_file_name(format!("{stem}.{default_language}.md"));
        let message = format!(
            "`{route}` has no {default_language} version (expected {})",
            expected.display()
        );
        return Err(Diagnostic::in_file(any, message).into());
    }
    Ok(())
}

/// Applies a change of the file `path` below `dir` to `sources`: read again, or forgotten when
/// it is gone. Returns the file's route, after the same checks `load` makes of it.
pub fn reload_file(
    sources: &mut Sources,
    dir: &Path,
    path: &Path,
    languages: &[String],
    default_language: &str,
    collections: &[String],
) -> Result<String> {
    let route = if path.is_file() {
        let page = read_page(dir, path, languages, collections)?;
        let route = page.route.clone();
        sources
            .entry(route.clone())
            .or_default()
            .insert(page.lang.clone(), Arc::new(page));
        route
    } else {
        let relative = path.strip_prefix(dir).expect("a file below dir");
        let (route, lang, _) = route_of(relative, collections).with_context(|| format!("{}", path.display()))?;
        if let Some(files) = sources.get_mut(&route) {
            files.remove(&lang);
            if files.is_empty() {
                sources.remove(&route);
            }
        }
        route
    };
    if let Some(files) = sources.get(&route) {
        has_default(&route, files, default_language)?;
    }
    Ok(route)
}

#[cfg(test)]
mod tests;
