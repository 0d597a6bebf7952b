//! The API's own texts (errors, emails) in the site's languages, from locales/*/api.json.

use poem::Request;
use serde_json::Value;
use site_contract::visitor_language;
use std::sync::OnceLock;

/// One of site-config.yaml's languages, compiled in by build.rs with its messages.
pub(crate) struct LanguageEntry {
    code: &'static str,
    tag: &'static str,
    page_prefix: &'static str,
    catalog: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/languages.rs"));

/// A language of the site, by its place in site-config.yaml's list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Lang(usize);

impl std::fmt::Debug for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lang({})", self.code())
    }
}

impl Lang {
    /// site-config.yaml's `default_language`.
    pub const DEFAULT: Lang = Lang(DEFAULT_LANGUAGE);

    /// Every language of the site, in the config's order.
    pub fn all() -> impl Iterator<Item = Lang> {
        (0..LANGUAGES.len()).map(Lang)
    }

    fn entry(self) -> &'static LanguageEntry {
        &LANGUAGES[self.0]
    }

    pub fn code(self) -> &'static str {
        self.entry().code
    }

    /// The BCP 47 tag (`zh-Hant`: Chinese here is Traditional).
    pub fn tag(self) -> &'static str {
        self.entry().tag
    }

    /// Reads a language tag or code: `zh`, `zh-Hant`, `zh-TW`, `ja-JP`, `en-GB`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?;
        Lang::all().find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// The path prefix of pages in this language (the default language's pages have none).
    pub fn page_prefix(self) -> &'static str {
        self.entry().page_prefix
    }

    /// The language of a request: the `selectedLanguage` cookie, else Accept-Language, else
    /// the default language — the rule the pages follow too.
    pub fn of_request(req: &Request) -> Lang {
        visitor_language(req.headers(), Lang::from_tag).unwrap_or(Lang::DEFAULT)
    }

    /// The body's `preferredLanguage` when it names one we have, else the request's language.
    pub fn preferred(body: Option<&str>, req: &Request) -> Lang {
        body.and_then(Lang::from_tag).unwrap_or_else(|| Lang::of_request(req))
    }
}

fn catalog() -> &'static [(Lang, Value)] {
    static CATALOG: OnceLock<Vec<(Lang, Value)>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        Lang::all()
            .map(|lang| {
                let text = lang.entry().catalog;
                (
                    lang,
                    serde_json::from_str(text).expect("locales/*/api.json is valid JSON"),
                )
            })
            .collect()
    })
}

fn lookup(lang: Lang, key: &str) -> Option<&'static str> {
    let (_, root) = catalog().iter().find(|(l, _)| *l == lang)?;
    key.split('.').try_fold(root, |node, part| node.get(part))?.as_str()
}

/// The text for `key` ("errors.loginFailed") in `lang`, falling back to the default language,
/// then to the key.
pub fn t(lang: Lang, key: &str) -> String {
    lookup(lang, key)
        .or_else(|| lookup(Lang::DEFAULT, key))
        .unwrap_or(key)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(prefix: &str, value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    leaves(&key, v, out);
                }
            }
            Value::String(_) => out.push(prefix.to_string()),
            other => panic!("{prefix}: only strings and objects allowed, found {other}"),
        }
    }

    #[test]
    fn every_language_has_every_key() {
        let mut english = Vec::new();
        leaves("", &catalog()[0].1, &mut english);
        assert!(english.len() > 20);
        for (lang, value) in &catalog()[1..] {
            let mut keys = Vec::new();
            leaves("", value, &mut keys);
            english.sort();
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
        let from_accept_language = |header: &str| {
            let mut headers = poem::http::HeaderMap::new();
            headers.insert(poem::http::header::ACCEPT_LANGUAGE, header.parse().unwrap());
            visitor_language(&headers, Lang::from_tag)
        };
        let code = |header: &str| from_accept_language(header).map(Lang::code);
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
        assert_eq!(Lang::all().map(Lang::code).collect::<Vec<_>>(), codes);
        assert_eq!(Lang::DEFAULT.code(), config.default_language);
        assert_eq!(Lang::from_tag("zh-TW").map(Lang::tag), Some("zh-Hant"));
        assert_eq!(Lang::from_tag("ja").map(Lang::page_prefix), Some("/ja"));
        assert_eq!(Lang::DEFAULT.page_prefix(), "");
    }
}
