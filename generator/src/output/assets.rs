//! What the UI build left in `dist/assets/`: its manifest (entry script, styles, the head script
//! and each island's chunks).

use anyhow::{bail, Context, Result};
use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::output::styles::{island_styles_tag, ISLAND_STYLES_MARKER, STYLES_MARKER};

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Manifest {
    pub entry: String,
    /// The chunks the entry imports, which every page with islands needs too.
    #[serde(rename = "entryImports", default)]
    pub entry_imports: Vec<String>,
    #[serde(default)]
    pub css: Vec<String>,
    /// The same stylesheet as text: each page's `<head>` inlines the rules that can match it
    /// (`page_styles`), so first paint waits for no request.
    #[serde(rename = "inlineCss", default)]
    pub inline_css: String,
    /// The formulas' font (`/assets/article-math-HASH.woff2`), preloaded by the pages with formulas.
    #[serde(rename = "mathFont", default)]
    pub math_font: String,
    /// Inlined into every page's `<head>` (dark mode and language before first paint).
    #[serde(rename = "headScript", default)]
    pub head_script: String,
    #[serde(default)]
    pub islands: BTreeMap<String, Vec<String>>,
    /// The top-level `translation` sections the UI's code names, for the entry and each island.
    /// Absent from an older UI build: a page then carries every section.
    #[serde(default)]
    pub text: Option<TextSections>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct TextSections {
    pub entry: Vec<String>,
    pub islands: BTreeMap<String, Vec<String>>,
}

impl Manifest {
    /// `dist/assets/manifest.json`, or None when the UI has not been built.
    pub fn load(out_dir: &Path) -> Result<Option<Self>> {
        let path = out_dir.join("assets/manifest.json");
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path).with_context(|| format!("Failed to read {}", path.display()))?;
        let manifest = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not a UI manifest (entry, css, headScript, islands)",
                path.display()
            )
        })?;
        Ok(Some(manifest))
    }

    /// The CSP source that allows exactly the inline head script.
    pub fn head_script_hash(&self) -> Option<String> {
        (!self.head_script.is_empty()).then(|| csp_hash(&self.head_script))
    }

    /// The `translation` sections a page holding `islands` needs, or None for all of them.
    pub fn text_sections(&self, islands: &[String]) -> Option<BTreeSet<&str>> {
        let text = self.text.as_ref()?;
        let of_islands = islands.iter().filter_map(|name| text.islands.get(name)).flatten();
        Some(text.entry.iter().chain(of_islands).map(String::as_str).collect())
    }

    /// The `<style>` element of every page, its rules still to be filled in
    /// (`page_styles::STYLES_MARKER`), or the stylesheet links of a UI build without the text.
    pub fn style_tags(&self) -> Result<String> {
        if self.inline_css.is_empty() {
            return Ok(self
                .css
                .iter()
                .map(|href| format!("<link rel=\"stylesheet\" href=\"{href}\">"))
                .collect());
        }
        if self.inline_css.to_ascii_lowercase().contains("</style") {
            bail!("the UI's stylesheet contains `</style`, which would end its inline <style> element");
        }
        Ok(format!("<style>{STYLES_MARKER}</style>"))
    }

    /// The `<head>` tags of a page: the formulas' font if it `has_math`, and its scripts with the
    /// slot for the address of the rules its islands may need once they run (a page inlines only
    /// the rules that match it as written; `page_styles`).
    pub fn head_tags(&self, islands: &[String], has_math: bool) -> String {
        let mut tags = String::new();
        if has_math && !self.math_font.is_empty() {
            // Low priority: the font still arrives early, mostly before the formulas are laid
            // out, but it competes with nothing the first paint needs. The stylesheet alone asks
            // for it at the highest priority, which Lighthouse counts as blocking the first paint
            // (90 KB: a DCF article's first contentful paint went from 0.85 s to 1.35 s).
            tags.push_str(&format!(
                "<link rel=\"preload\" as=\"font\" type=\"font/woff2\" href=\"{}\" crossorigin fetchpriority=\"low\">",
                self.math_font
            ));
        }
        tags.push_str(&self.island_scripts(islands));
        if !islands.is_empty() && !self.inline_css.is_empty() {
            tags.push_str(&island_styles_tag(ISLAND_STYLES_MARKER));
        }
        tags
    }

    /// The `<head>` tag naming the scripts of a page holding `islands`: the entry, then the chunks
    /// of its islands. The head script loads them once the page has painted its content (the page
    /// is readable before: server-rendered, its stylesheet inline), so they never compete with
    /// what the first paint needs.
    pub fn island_scripts(&self, islands: &[String]) -> String {
        if islands.is_empty() {
            return String::new();
        }
        let mut chunks: Vec<&str> = islands
            .iter()
            .filter_map(|name| self.islands.get(name))
            .flatten()
            .chain(&self.entry_imports)
            .map(String::as_str)
            .collect();
        chunks.sort();
        chunks.dedup();
        let mut urls = vec![self.entry.as_str()];
        urls.extend(chunks);
        format!("<meta name=\"island-scripts\" content=\"{}\">", urls.join(" "))
    }
}

/// A CSP hash source (`sha256-…`) of an inline element's text, as a browser computes it.
fn csp_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!("sha256-{}", base64::engine::general_purpose::STANDARD.encode(digest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_name_only_the_pages_islands() {
        let m = Manifest {
            entry: "/assets/entry-1.js".into(),
            entry_imports: vec!["/assets/chunk-0.js".into(), "/assets/chunk-1.js".into()],
            css: vec![],
            inline_css: String::new(),
            math_font: String::new(),
            head_script: "x()".into(),
            islands: BTreeMap::from([
                (
                    "A".to_string(),
                    vec!["/assets/A-1.js".to_string(), "/assets/chunk-1.js".to_string()],
                ),
                (
                    "B".to_string(),
                    vec!["/assets/B-1.js".to_string(), "/assets/chunk-1.js".to_string()],
                ),
                ("C".to_string(), vec!["/assets/C-1.js".to_string()]),
            ]),
            text: None,
        };
        let tags = m.island_scripts(&["A".into(), "B".into()]);
        assert_eq!(
            tags,
            "<meta name=\"island-scripts\" content=\"/assets/entry-1.js /assets/A-1.js /assets/B-1.js /assets/chunk-0.js /assets/chunk-1.js\">"
        );
        // The entry's own imports come with any island, each named once.
        assert_eq!(
            m.island_scripts(&["C".into()]),
            "<meta name=\"island-scripts\" content=\"/assets/entry-1.js /assets/C-1.js /assets/chunk-0.js /assets/chunk-1.js\">"
        );
        assert_eq!(m.island_scripts(&[]), "");
        // The CSP hash of `x()`, as a browser computes it.
        assert_eq!(
            m.head_script_hash().unwrap(),
            "sha256-D6IGS8VMvCoyaR/l0h9tERrBTATY01CoPS7l6xDv0kI="
        );
    }

    #[test]
    fn a_page_gets_the_text_of_the_entry_and_its_islands() {
        let m = Manifest {
            text: Some(TextSections {
                entry: vec!["errors".into()],
                islands: BTreeMap::from([
                    ("A".to_string(), vec!["login".to_string(), "modal".to_string()]),
                    ("B".to_string(), vec!["calculator".to_string(), "modal".to_string()]),
                ]),
            }),
            ..Manifest::default()
        };
        assert_eq!(
            m.text_sections(&["A".into()]),
            Some(BTreeSet::from(["errors", "login", "modal"]))
        );
        assert_eq!(
            m.text_sections(&["A".into(), "B".into()]),
            Some(BTreeSet::from(["calculator", "errors", "login", "modal"]))
        );
        // An older UI build names no sections: the page keeps them all.
        assert_eq!(Manifest::default().text_sections(&["A".into()]), None);
    }

    #[test]
    fn only_a_page_with_formulas_preloads_their_font_at_low_priority() {
        let mut m = Manifest {
            entry: "/assets/entry-1.js".into(),
            islands: BTreeMap::from([("A".to_string(), vec!["/assets/A-1.js".to_string()])]),
            ..Manifest::default()
        };
        let scripts = "<meta name=\"island-scripts\" content=\"/assets/entry-1.js /assets/A-1.js\">";
        // An older UI build names no font: nothing to preload.
        assert_eq!(m.head_tags(&["A".into()], true), scripts);
        m.math_font = "/assets/article-math-1.woff2".into();
        assert_eq!(m.head_tags(&["A".into()], false), scripts);
        assert_eq!(
            m.head_tags(&["A".into()], true),
            format!(
                "<link rel=\"preload\" as=\"font\" type=\"font/woff2\" href=\"/assets/article-math-1.woff2\" crossorigin fetchpriority=\"low\">{scripts}"
            )
        );
        assert_eq!(m.head_tags(&[], false), "");
    }

    #[test]
    fn the_stylesheet_is_inlined_or_linked() {
        let mut m = Manifest {
            css: vec!["/assets/entry-1.css".into()],
            ..Manifest::default()
        };
        // Without the text (an older UI build) the pages link the file.
        assert_eq!(
            m.style_tags().unwrap(),
            "<link rel=\"stylesheet\" href=\"/assets/entry-1.css\">"
        );
        m.inline_css = "a{color:red}".into();
        assert_eq!(m.style_tags().unwrap(), format!("<style>{STYLES_MARKER}</style>"));
        m.inline_css = "a{content:'</STYLE>'}".into();
        assert!(m.style_tags().unwrap_err().to_string().contains("</style"));
        // `printf 'a{color:red}' | openssl dgst -sha256 -binary | base64`
        assert_eq!(
            csp_hash("a{color:red}"),
            "sha256-6hWWMOcF+mJesSJGYhmK2lkIIEw9Xc5XKGLPVzh8yxs="
        );
    }

    #[test]
    fn a_page_with_islands_has_a_slot_for_their_stylesheet() {
        let m = Manifest {
            entry: "/assets/entry-1.js".into(),
            css: vec!["/assets/entry-1.css".into()],
            inline_css: "a{color:red}".into(),
            islands: BTreeMap::from([("A".to_string(), vec!["/assets/A-1.js".to_string()])]),
            ..Manifest::default()
        };
        assert_eq!(
            m.head_tags(&["A".into()], false),
            "<meta name=\"island-scripts\" content=\"/assets/entry-1.js /assets/A-1.js\">\
             <meta name=\"island-styles\" content=\"/*island-styles*/\">"
        );
        assert_eq!(m.head_tags(&[], false), "");
    }
}
