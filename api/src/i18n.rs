//! The API's own texts (errors, emails) in the site's languages: the languages a built site's
//! `_site.json` lists, each with its messages (`locales/<code>/api.json`, which the generator
//! puts there), read when the server starts.

use anyhow::{bail, Context};
use poem::Request;
use serde_json::Value;
use site_contract::{localized_path, visitor_language, SiteConfig, SiteFacts, SITE_CONFIG_FILE};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// The site's languages with their messages, in the order site-config.yaml lists them.
#[derive(PartialEq)]
pub struct Languages {
    entries: Vec<Entry>,
    default: usize,
}

#[derive(PartialEq)]
struct Entry {
    code: String,
    tag: String,
    messages: Value,
}

impl Languages {
    /// The languages of a built site (`SiteFacts`, read from its `_site.json`).
    pub fn from_facts(facts: &SiteFacts) -> anyhow::Result<&'static Languages> {
        Languages::new(&facts.languages, &facts.default_language)
            .with_context(|| format!("reading the API's languages from {}", site_contract::SITE_FACTS_FILE))
    }

    /// The languages of a site's sources (its site-config.yaml and `locales/`) read as the
    /// generator reads them for `_site.json`: for the API without a built site (its tests and
    /// benchmark).
    pub fn from_sources(site_root: &Path) -> anyhow::Result<&'static Languages> {
        let config = SiteConfig::load(&site_root.join(SITE_CONFIG_FILE))?;
        let languages = site_contract::site_languages(&config, &site_root.join("locales"))?;
        Languages::new(&languages, &config.default_language)
    }

    fn new(languages: &[site_contract::Language], default_language: &str) -> anyhow::Result<&'static Languages> {
        let Some(default) = languages.iter().position(|l| l.code == default_language) else {
            bail!("the default language `{default_language}` is not one of the languages");
        };
        let mut entries = Vec::new();
        for language in languages {
            if language.api_messages.is_empty() {
                bail!(
                    "`{}` has no API messages: the site was built by an older `site build`; build it again (`make build`)",
                    language.code
                );
            }
            entries.push(Entry {
                code: language.code.clone(),
                tag: language.tag.clone(),
                messages: Value::Object(language.api_messages.clone()),
            });
        }
        Ok(keep(Languages { entries, default }))
    }

    /// Every language of the site, in the config's order.
    pub fn all(&'static self) -> impl Iterator<Item = Lang> {
        (0..self.entries.len()).map(move |index| Lang { languages: self, index })
    }

    /// site-config.yaml's `default_language`.
    pub fn default_language(&'static self) -> Lang {
        Lang {
            languages: self,
            index: self.default,
        }
    }

    /// Reads a language tag or code: `zh`, `zh-Hant`, `zh-TW`, `ja-JP`, `en-GB`.
    pub fn from_tag(&'static self, tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?;
        self.all().find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// The language of a request: the `selectedLanguage` cookie, else Accept-Language, else
    /// the default language — the rule the pages follow too.
    pub fn of_request(&'static self, req: &Request) -> Lang {
        visitor_language(req.headers(), |tag| self.from_tag(tag)).unwrap_or_else(|| self.default_language())
    }

    /// The body's `preferredLanguage` when it names one we have, else the request's language.
    pub fn preferred(&'static self, body: Option<&str>, req: &Request) -> Lang {
        body.and_then(|tag| self.from_tag(tag))
            .unwrap_or_else(|| self.of_request(req))
    }
}

/// Keeps `languages` for the life of the process, so a `Lang` is a plain copy that may outlive
/// the request it came from (mail is sent after the answer). Each distinct set is kept once:
/// a process that builds many apps on the same site (the tests) holds one.
fn keep(languages: Languages) -> &'static Languages {
    static KEPT: Mutex<Vec<&'static Languages>> = Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(same) = kept.iter().find(|k| ***k == languages) {
        return same;
    }
    let languages: &'static Languages = Box::leak(Box::new(languages));
    kept.push(languages);
    languages
}

/// A language of the site, by its place in site-config.yaml's list.
#[derive(Clone, Copy)]
pub struct Lang {
    languages: &'static Languages,
    index: usize,
}

impl PartialEq for Lang {
    fn eq(&self, other: &Lang) -> bool {
        std::ptr::eq(self.languages, other.languages) && self.index == other.index
    }
}

impl Eq for Lang {}

impl std::fmt::Debug for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lang({})", self.code())
    }
}

impl Lang {
    fn entry(self) -> &'static Entry {
        &self.languages.entries[self.index]
    }

    pub fn code(self) -> &'static str {
        &self.entry().code
    }

    /// The BCP 47 tag (`zh-Hant`: Chinese here is Traditional).
    pub fn tag(self) -> &'static str {
        &self.entry().tag
    }

    /// The URL path of the site's page at `route` (`/login?error=…`) in this language.
    pub fn page(self, route: &str) -> String {
        let default = self.languages.default_language();
        localized_path(route, self.code(), default.code())
    }

    fn lookup(self, key: &str) -> Option<&'static str> {
        let root = &self.entry().messages;
        key.split('.').try_fold(root, |node, part| node.get(part))?.as_str()
    }
}

/// The text for `key` ("errors.loginFailed") in `lang`, falling back to the default language,
/// then to the key.
pub fn t(lang: Lang, key: &str) -> String {
    lang.lookup(key)
        .or_else(|| lang.languages.default_language().lookup(key))
        .unwrap_or(key)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn repository() -> &'static Languages {
        Languages::from_sources(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()).expect("the repository's site")
    }

    fn messages(lang: Lang) -> &'static Map<String, Value> {
        lang.entry().messages.as_object().expect("made from an object")
    }

    fn leaves(prefix: &str, group: &Map<String, Value>, out: &mut Vec<String>) {
        for (name, value) in group {
            let key = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            match value {
                Value::Object(inner) => leaves(&key, inner, out),
                _ => out.push(key),
            }
        }
    }

    #[test]
    fn every_language_has_every_key() {
        let languages = repository();
        let mut english = Vec::new();
        leaves("", messages(languages.default_language()), &mut english);
        english.sort();
        assert!(english.len() > 20);
        for lang in languages.all() {
            let mut keys = Vec::new();
            leaves("", messages(lang), &mut keys);
            keys.sort();
            assert_eq!(
                english,
                keys,
                "locales/{}/api.json keys differ from English",
                lang.code()
            );
        }
    }

    #[test]
    fn accept_language_respects_quality() {
        let languages = repository();
        let code = |header: &str| {
            let mut headers = poem::http::HeaderMap::new();
            headers.insert(poem::http::header::ACCEPT_LANGUAGE, header.parse().unwrap());
            visitor_language(&headers, |tag| languages.from_tag(tag)).map(Lang::code)
        };
        assert_eq!(code("fr, ja;q=0.5, zh-TW;q=0.8"), Some("zh"));
        assert_eq!(code("ja-JP,en;q=0.9"), Some("ja"));
        assert_eq!(code("fr"), None);
        assert_eq!(code("zh;q=0, en"), Some("en"));
    }

    #[test]
    fn the_languages_are_site_config_yamls() {
        let config =
            site_contract::SiteConfig::parse(include_str!("../../site-config.yaml")).expect("site-config.yaml");
        let codes: Vec<&str> = config.language_codes().collect();
        let languages = repository();
        assert_eq!(languages.all().map(Lang::code).collect::<Vec<_>>(), codes);
        assert_eq!(languages.default_language().code(), config.default_language);
        assert_eq!(languages.from_tag("zh-TW").map(Lang::tag), Some("zh-Hant"));
        assert_eq!(
            languages.from_tag("ja").map(|l| l.page("/login")).as_deref(),
            Some("/ja/login")
        );
        assert_eq!(languages.default_language().page("/login"), "/login");
    }

    #[test]
    fn the_same_site_is_kept_once_and_a_site_without_messages_is_refused() {
        assert!(std::ptr::eq(repository(), repository()));
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let config = SiteConfig::load(&root.join(SITE_CONFIG_FILE)).unwrap();
        let mut languages = site_contract::site_languages(&config, &root.join("locales")).unwrap();
        languages[1].api_messages.clear();
        let error = Languages::new(&languages, &config.default_language)
            .err()
            .expect("refused");
        assert!(error.to_string().contains("build it again"), "{error}");
    }
}
