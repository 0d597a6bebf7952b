//! UI text from `locales/{lang}/{namespace}.json` (the files i18next reads in the browser), with
//! English fallback and a report of keys missing in any language.

use crate::diagnostics::Diagnostic;
use anyhow::{Context, Result};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

pub const NAMESPACES: &[&str] = &["translation", "sidebar"];

/// One locale file as read: its path below the locales folder (`zh/translation.json`) and text.
#[derive(Debug, Clone)]
pub struct LocaleFile {
    pub relative: PathBuf,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct Locales {
    dir: PathBuf,
    default_language: String,
    /// lang -> namespace -> dotted key -> text
    texts: HashMap<String, HashMap<String, BTreeMap<String, String>>>,
    /// The files as read, so the build copies them for i18next without reading them again.
    files: Vec<LocaleFile>,
}

fn flatten(prefix: &str, value: &Value, out: &mut BTreeMap<String, String>, file: &Path) -> Result<()> {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out, file)?;
            }
        }
        Value::String(s) => {
            out.insert(prefix.to_string(), s.clone());
        }
        other => return Err(Diagnostic::in_file(file, format!("`{prefix}` must be text, found {other}")).into()),
    }
    Ok(())
}

impl Locales {
    pub fn load(dir: &Path, languages: &[String], default_language: &str) -> Result<Self> {
        let mut texts = HashMap::new();
        let mut files = Vec::new();
        for lang in languages {
            for ns in NAMESPACES {
                let relative = PathBuf::from(lang).join(format!("{ns}.json"));
                let file = dir.join(&relative);
                let text =
                    std::fs::read_to_string(&file).with_context(|| format!("Failed to read {}", file.display()))?;
                let value: Value = serde_json::from_str(&text)
                    .map_err(|e| Diagnostic::at_column(&file, e.line(), e.column(), format!("invalid JSON: {e}")))?;
                let mut flat = BTreeMap::new();
                flatten("", &value, &mut flat, &file)?;
                texts
                    .entry(lang.clone())
                    .or_insert_with(HashMap::new)
                    .insert(ns.to_string(), flat);
                files.push(LocaleFile { relative, text });
            }
        }
        Ok(Locales {
            dir: dir.to_path_buf(),
            default_language: default_language.to_string(),
            texts,
            files,
        })
    }

    /// The folder the files were read from (the island renderer reads them there too).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn files(&self) -> &[LocaleFile] {
        &self.files
    }

    /// The text of `key` in `lang`, else in the default language.
    pub fn get(&self, lang: &str, ns: &str, key: &str) -> Option<&str> {
        let find = |l: &str| self.texts.get(l)?.get(ns)?.get(key).map(String::as_str);
        find(lang).or_else(|| find(&self.default_language))
    }

    /// The translation's text of `key` in `lang` with each `{{name}}` replaced by its value, as
    /// i18next interpolates it in the browser; the key itself when no language has it.
    pub fn format(&self, lang: &str, key: &str, values: &[(&str, &str)]) -> String {
        let mut text = self.get(lang, "translation", key).unwrap_or(key).to_string();
        for (name, value) in values {
            text = text.replace(&format!("{{{{{name}}}}}"), value);
        }
        text
    }

    /// `lang/namespace: key` for every key some language has and this one lacks.
    pub fn missing_keys(&self) -> Vec<String> {
        let mut missing = Vec::new();
        for ns in NAMESPACES {
            let all: BTreeSet<&String> = self.texts.values().flat_map(|by_ns| by_ns[*ns].keys()).collect();
            let mut langs: Vec<&String> = self.texts.keys().collect();
            langs.sort();
            for lang in langs {
                for key in &all {
                    if !self.texts[lang][*ns].contains_key(*key) {
                        missing.push(format!("{lang}/{ns}: {key}"));
                    }
                }
            }
        }
        missing
    }
}

/// The Tera function `t(key="...", lang=lang, ns="sidebar", default="...")`.
pub struct TranslateFn(pub std::sync::Arc<Locales>);

impl tera::Function for TranslateFn {
    fn call(&self, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
        let arg = |name: &str| args.get(name).and_then(|v| v.as_str());
        let key = arg("key").ok_or("t() needs key=\"...\"")?;
        let lang = arg("lang").ok_or("t() needs lang=lang")?;
        let ns = arg("ns").unwrap_or("translation");
        match self.0.get(lang, ns, key).or_else(|| arg("default")) {
            Some(text) => Ok(tera::Value::String(text.to_string())),
            None => Err(format!("no translation for `{ns}:{key}` in locales/{lang} or the default language").into()),
        }
    }

    fn is_safe(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, lang: &str, ns: &str, json: &str) {
        std::fs::create_dir_all(dir.join(lang)).unwrap();
        std::fs::write(dir.join(lang).join(format!("{ns}.json")), json).unwrap();
    }

    #[test]
    fn falls_back_to_english_and_reports_missing_keys() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "en",
            "translation",
            r#"{"a": {"b": "Hello"}, "c": "Only English"}"#,
        );
        write(dir.path(), "zh", "translation", r#"{"a": {"b": "你好"}}"#);
        for l in ["en", "zh"] {
            write(dir.path(), l, "sidebar", r#"{"notes": "N"}"#);
        }
        let locales = Locales::load(dir.path(), &["en".into(), "zh".into()], "en").unwrap();
        assert_eq!(locales.get("zh", "translation", "a.b"), Some("你好"));
        assert_eq!(locales.get("zh", "translation", "c"), Some("Only English"));
        assert_eq!(locales.get("zh", "translation", "nope"), None);
        assert_eq!(locales.missing_keys(), vec!["zh/translation: c".to_string()]);
    }

    #[test]
    fn bad_json_names_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "en", "translation", "{\n\"a\": }");
        let err = Locales::load(dir.path(), &["en".into()], "en").unwrap_err().to_string();
        assert!(err.contains("translation.json:2:"), "{err}");
    }
}
