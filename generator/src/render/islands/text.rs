//! The UI text a page's islands need, put into the page as one JSON block per language.

use crate::model::locales::Locales;
use anyhow::{Context, Result};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

/// The id of the `<script type="application/json">` holding the page language's UI text.
pub const PAGE_TEXT_ID: &str = "island-text";

/// Where a page's UI text block goes: the Tera function `island_text(lang=lang)` leaves this
/// mark, and `IslandText::fill` replaces it once the page's islands are known.
const TEXT_MARK: &str = "<!--island-text:";
const TEXT_MARK_END: &str = "-->";

/// The locale files (`translation` and `sidebar`, as i18next reads them) of each language, in
/// the JSON block a page carries so its islands hydrate with the text the server rendered them
/// with and without a request for it. A page carries only the `translation` sections its
/// islands use (the UI manifest's `text`): the calculators' text alone is 6 KB, and most
/// sections are the templates' own, used by no island.
pub struct IslandText(HashMap<String, LanguageText>);

/// One language's namespaces, each top-level section already JSON.
#[derive(Default)]
struct LanguageText(BTreeMap<String, Vec<(String, String)>>);

impl IslandText {
    pub fn new(locales: &Locales) -> Result<Self> {
        let mut by_lang: HashMap<String, LanguageText> = HashMap::new();
        for file in locales.files() {
            let (Some(lang), Some(ns)) = (
                file.relative.parent().and_then(Path::to_str),
                file.relative.file_stem().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let value: serde_json::Map<String, Value> = serde_json::from_str(&file.text)
                .with_context(|| format!("locales/{} is not a JSON object", file.relative.display()))?;
            let sections = value.into_iter().map(|(k, v)| (k, v.to_string())).collect();
            by_lang
                .entry(lang.to_string())
                .or_default()
                .0
                .insert(ns.to_string(), sections);
        }
        Ok(IslandText(by_lang))
    }

    /// The block for `lang` with the `translation` sections in `sections` (every one for None).
    fn block(&self, lang: &str, sections: Option<&BTreeSet<&str>>) -> String {
        let mut json = String::from("{");
        for (n, (ns, parts)) in self.0.get(lang).map(|t| &t.0).into_iter().flatten().enumerate() {
            let keep = |section: &str| ns != "translation" || sections.is_none_or(|s| s.contains(section));
            let body: Vec<String> = (parts.iter())
                .filter(|(section, _)| keep(section))
                .map(|(section, value)| format!("{}:{value}", Value::from(section.as_str())))
                .collect();
            let comma = if n == 0 { "" } else { "," };
            json.push_str(&format!("{comma}{}:{{{}}}", Value::from(ns.as_str()), body.join(",")));
        }
        json.push('}');
        // `<` never appears raw, so neither `</script>` nor `<!--` can end the block early.
        format!(
            "<script type=\"application/json\" id=\"{PAGE_TEXT_ID}\" data-lng=\"{}\">{}</script>",
            html_escape::encode_double_quoted_attribute(lang),
            json.replace('<', "\\u003c")
        )
    }

    /// `html` with its text mark, if any, replaced by the block of `sections`.
    pub fn fill(&self, html: String, sections: Option<&BTreeSet<&str>>) -> String {
        let Some(at) = html.rfind(TEXT_MARK) else {
            return html;
        };
        let rest = &html[at + TEXT_MARK.len()..];
        let Some(end) = rest.find(TEXT_MARK_END) else {
            return html;
        };
        let block = self.block(&rest[..end], sections);
        format!("{}{block}{}", &html[..at], &rest[end + TEXT_MARK_END.len()..])
    }
}

/// The Tera function `island_text(lang=lang)`: the mark `IslandText::fill` replaces.
pub struct IslandTextFn(HashSet<String>);

impl IslandTextFn {
    /// Knows the languages with locale files.
    pub fn new(locales: &Locales) -> Self {
        let langs = (locales.files().iter())
            .filter_map(|file| file.relative.parent()?.to_str().map(str::to_string))
            .collect();
        IslandTextFn(langs)
    }
}

impl tera::Function for IslandTextFn {
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let lang = args
            .get("lang")
            .and_then(Value::as_str)
            .ok_or("island_text() needs lang=lang")?;
        if !self.0.contains(lang) {
            return Err(format!("island_text(): no locale files for `{lang}`").into());
        }
        Ok(Value::String(format!("{TEXT_MARK}{lang}{TEXT_MARK_END}")))
    }

    fn is_safe(&self) -> bool {
        true
    }
}
