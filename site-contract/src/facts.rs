//! `dist/_site.json`: the build facts the generator leaves for the server.

use crate::aliases::{is_plain_path, Alias};
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::path::Path;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Language {
    /// URL prefix and cookie value: `en`, `zh`, `ja`.
    pub code: String,
    /// BCP 47 tag sent as `Content-Language`: `zh-Hant`.
    pub tag: String,
    /// The membership API's messages and emails in this language, by group and key
    /// (`{"errors": {"loginFailed": "…"}}`): `locales/<code>/api.json`, or the default language's
    /// (`crate::site_languages`). Empty in a `_site.json` written before the API read them here.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub api_messages: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
// Fields in name order, the order `_site.json` has always had.
pub struct SiteFacts {
    /// The pages' old URLs, each answered with a permanent redirect.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Alias>,
    pub default_language: String,
    #[serde(default)]
    pub dev: bool,
    pub languages: Vec<Language>,
    /// CSP hashes (`sha256-...`) of the inline head script.
    #[serde(default)]
    pub script_hashes: Vec<String>,
}

/// The name of the facts file in `dist/`.
pub const SITE_FACTS_FILE: &str = "_site.json";

impl SiteFacts {
    pub fn load(dist_dir: &Path) -> anyhow::Result<Self> {
        let path = dist_dir.join(SITE_FACTS_FILE);
        let text = match std::fs::read(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!("dist/ is not built: run `make build` ({} is missing)", path.display())
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let facts: SiteFacts = serde_json::from_slice(&text).with_context(|| format!("parsing {}", path.display()))?;
        facts
            .validate()
            .with_context(|| format!("checking {}", path.display()))?;
        Ok(facts)
    }

    fn validate(&self) -> anyhow::Result<()> {
        if self.languages.is_empty() {
            bail!("`languages` is empty");
        }
        if self.default_index().is_none() {
            bail!(
                "`default_language` {:?} is not one of `languages`",
                self.default_language
            );
        }
        for lang in &self.languages {
            // Codes become URL segments and header values; keep them plain.
            if lang.code.is_empty() || !lang.code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                bail!("language code {:?} is not a plain tag", lang.code);
            }
        }
        let mut seen = HashSet::new();
        for alias in &self.aliases {
            if !is_plain_path(&alias.from) || alias.from == "/" || !is_plain_path(&alias.route) {
                bail!("alias {alias:?} is not two plain paths");
            }
            if !seen.insert(&alias.from) {
                bail!("alias {:?} is listed twice", alias.from);
            }
        }
        for hash in &self.script_hashes {
            if !hash.bytes().all(|b| b.is_ascii_alphanumeric() || b"-+/=".contains(&b)) {
                bail!("hash {hash:?} is not a CSP hash source");
            }
        }
        Ok(())
    }

    pub fn default_index(&self) -> Option<usize> {
        self.languages.iter().position(|l| l.code == self.default_language)
    }
}
