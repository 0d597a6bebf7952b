//! The API's own texts (errors, emails) in en, zh and ja, from locales/*/api.json.

use poem::Request;
use serde_json::Value;
use site_contract::visitor_language;
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
    Ja,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
            Lang::Ja => "ja",
        }
    }

    /// The BCP 47 tag (Chinese here is Traditional).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-Hant",
            Lang::Ja => "ja",
        }
    }

    /// Reads a language tag or code: `zh`, `zh-Hant`, `zh-TW`, `ja-JP`, `en-GB`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            "ja" => Some(Lang::Ja),
            _ => None,
        }
    }

    /// The path prefix of pages in this language (English pages have none).
    pub fn page_prefix(self) -> &'static str {
        match self {
            Lang::En => "",
            Lang::Zh => "/zh",
            Lang::Ja => "/ja",
        }
    }

    /// The language of a request: the `selectedLanguage` cookie, else Accept-Language, else
    /// English — the rule the pages follow too.
    pub fn of_request(req: &Request) -> Lang {
        visitor_language(req.headers(), Lang::from_tag).unwrap_or(Lang::En)
    }

    /// The body's `preferredLanguage` when it names one we have, else the request's language.
    pub fn preferred(body: Option<&str>, req: &Request) -> Lang {
        body.and_then(Lang::from_tag).unwrap_or_else(|| Lang::of_request(req))
    }
}

/// The value of a cookie of the request.
pub fn cookie(req: &Request, name: &str) -> Option<String> {
    req.headers()
        .get_all(poem::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|header| {
            header.split(';').find_map(|pair| {
                let (k, v) = pair.trim().split_once('=')?;
                (k == name).then(|| v.trim_matches('"').to_string())
            })
        })
}

const SOURCES: [(Lang, &str); 3] = [
    (Lang::En, include_str!("../../locales/en/api.json")),
    (Lang::Zh, include_str!("../../locales/zh/api.json")),
    (Lang::Ja, include_str!("../../locales/ja/api.json")),
];

fn catalog() -> &'static [(Lang, Value)] {
    static CATALOG: OnceLock<Vec<(Lang, Value)>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(lang, text)| {
                (
                    *lang,
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

/// The text for `key` ("errors.loginFailed") in `lang`, falling back to English, then to the key.
pub fn t(lang: Lang, key: &str) -> String {
    lookup(lang, key)
        .or_else(|| lookup(Lang::En, key))
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
        assert_eq!(from_accept_language("fr, ja;q=0.5, zh-TW;q=0.8"), Some(Lang::Zh));
        assert_eq!(from_accept_language("ja-JP,en;q=0.9"), Some(Lang::Ja));
        assert_eq!(from_accept_language("fr"), None);
        assert_eq!(from_accept_language("zh;q=0, en"), Some(Lang::En));
    }
}
