//! The membership API's messages and emails in each of the site's languages,
//! `locales/<code>/api.json`. The generator reads them here and lists them in `_site.json`
//! (`Language::api_messages`), where the server takes them from when it starts; the API's own
//! tests, which run without a built site, read the repository's the same way.

use crate::config::SiteConfig;
use crate::facts::Language;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The file of a language's API messages in its folder of `locales/`.
pub const API_MESSAGES_FILE: &str = "api.json";

/// Why a language's API messages could not be read: the file, where in it when known, and what.
#[derive(Debug)]
pub struct MessagesError {
    pub path: PathBuf,
    /// Line and column, both from 1.
    pub line: Option<(usize, usize)>,
    pub message: String,
}

impl std::fmt::Display for MessagesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some((line, column)) = self.line {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for MessagesError {}

/// The site's languages as `_site.json` lists them: each one's code and tag, with its API messages
/// from `locales_dir`, or the default language's when it has no file of its own (the default
/// language must have one).
pub fn site_languages(config: &SiteConfig, locales_dir: &Path) -> Result<Vec<Language>, MessagesError> {
    let file = |code: &str| locales_dir.join(code).join(API_MESSAGES_FILE);
    let default_file = file(&config.default_language);
    let default = read(&default_file)?.ok_or_else(|| MessagesError {
        path: default_file.clone(),
        line: None,
        message: "not found: the default language must have the membership API's messages and emails".into(),
    })?;
    (config.languages.iter())
        .map(|language| {
            let own = match language.code == config.default_language {
                true => None,
                false => read(&file(&language.code))?,
            };
            Ok(Language {
                code: language.code.clone(),
                tag: language.tag.clone(),
                api_messages: own.unwrap_or_else(|| default.clone()),
            })
        })
        .collect()
}

/// The messages at `path`, None when there is no such file.
fn read(path: &Path) -> Result<Option<Map<String, Value>>, MessagesError> {
    let error = |line, message: String| MessagesError {
        path: path.to_path_buf(),
        line,
        message,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(error(None, format!("cannot be read: {e}"))),
    };
    let value: Value =
        serde_json::from_str(&text).map_err(|e| error(Some((e.line(), e.column())), format!("invalid JSON: {e}")))?;
    let Value::Object(messages) = value else {
        return Err(error(None, "must be an object of message groups".into()));
    };
    if let Some(key) = first_non_text("", &messages) {
        return Err(error(None, format!("`{key}` must be text or a group of texts")));
    }
    Ok(Some(messages))
}

/// The dotted key of the first value that is neither text nor a group of texts.
fn first_non_text(prefix: &str, group: &Map<String, Value>) -> Option<String> {
    group.iter().find_map(|(name, value)| {
        let key = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match value {
            Value::String(_) => None,
            Value::Object(inner) => first_non_text(&key, inner),
            _ => Some(key),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the repository's site-config.yaml and locales/ files `files` (path, text).
    fn site(files: &[(&str, &str)]) -> (tempfile::TempDir, SiteConfig) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let config = SiteConfig::parse(include_str!("../../site-config.yaml")).unwrap();
        (dir, config)
    }

    #[test]
    fn a_language_without_its_own_file_gets_the_default_languages() {
        let english = r#"{"errors": {"loginFailed": "Login failed"}}"#;
        let japanese = r#"{"errors": {"loginFailed": "ログインに失敗しました"}}"#;
        let (dir, config) = site(&[("en/api.json", english), ("ja/api.json", japanese)]);
        let languages = site_languages(&config, dir.path()).unwrap();
        let login_failed = |code: &str| {
            let language = languages.iter().find(|l| l.code == code).unwrap();
            language.api_messages["errors"]["loginFailed"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(login_failed("en"), "Login failed");
        assert_eq!(login_failed("zh"), "Login failed");
        assert_eq!(login_failed("ja"), "ログインに失敗しました");
        assert_eq!(languages.iter().find(|l| l.code == "zh").unwrap().tag, "zh-Hant");
    }

    #[test]
    fn broken_files_are_named_with_their_place() {
        let english = r#"{"errors": {"loginFailed": "Login failed"}}"#;
        let (dir, config) = site(&[("en/api.json", english), ("zh/api.json", "{\n  \"errors\": {,\n}")]);
        let error = site_languages(&config, dir.path()).unwrap_err();
        assert!(error.path.ends_with("zh/api.json"), "{error}");
        assert_eq!(error.line.map(|(line, _)| line), Some(2), "{error}");

        let (dir, config) = site(&[("en/api.json", r#"{"errors": {"loginFailed": 3}}"#)]);
        let error = site_languages(&config, dir.path()).unwrap_err();
        assert!(
            error.to_string().contains("`errors.loginFailed` must be text"),
            "{error}"
        );

        let (dir, config) = site(&[("ja/api.json", english)]);
        let error = site_languages(&config, dir.path()).unwrap_err();
        assert!(error.path.ends_with("en/api.json"), "{error}");
        assert!(error.message.contains("not found"), "{error}");
    }
}
