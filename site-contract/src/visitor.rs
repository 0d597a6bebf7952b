//! The language of a page at an unprefixed path: the `selectedLanguage` cookie, else
//! `Accept-Language`, else the site's default.

use crate::facts::Language;
use http::header::{ACCEPT_LANGUAGE, COOKIE};
use http::HeaderMap;

/// The cookie in which the UI keeps the visitor's choice of language.
pub const COOKIE_NAME: &str = "selectedLanguage";

/// The visitor's language by the site's one rule, for pages and the API's messages alike: the
/// `selectedLanguage` cookie, else the best-ranked `Accept-Language` range; `recognise` says
/// which language (if any) a value names.
pub fn visitor_language<T>(headers: &HeaderMap, recognise: impl Fn(&str) -> Option<T>) -> Option<T> {
    from_cookie(headers, &recognise).or_else(|| from_accept_language(headers, &recognise))
}

/// Index into `languages` of the visitor's language.
pub fn choose(headers: &HeaderMap, languages: &[Language], default: usize) -> usize {
    visitor_language(headers, |value| languages.iter().position(|l| matches(value, l))).unwrap_or(default)
}

fn from_cookie<T>(headers: &HeaderMap, recognise: impl Fn(&str) -> Option<T>) -> Option<T> {
    for value in headers.get_all(COOKIE) {
        let Ok(value) = value.to_str() else { continue };
        for pair in value.split(';') {
            let Some((name, v)) = pair.split_once('=') else {
                continue;
            };
            if name.trim() != COOKIE_NAME {
                continue;
            }
            // The UI may store the value JSON-quoted.
            if let Some(language) = recognise(v.trim().trim_matches('"')) {
                return Some(language);
            }
        }
    }
    None
}

fn from_accept_language<T>(headers: &HeaderMap, recognise: impl Fn(&str) -> Option<T>) -> Option<T> {
    let mut best: Option<(f32, T)> = None;
    for value in headers.get_all(ACCEPT_LANGUAGE) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let (range, q) = split_q(item);
            if q <= 0.0 || best.as_ref().is_some_and(|(best_q, _)| q <= *best_q) {
                continue;
            }
            if let Some(language) = recognise(range) {
                best = Some((q, language));
            }
        }
    }
    best.map(|(_, language)| language)
}

/// Splits `token;q=0.5` into the token and its weight (1 when absent, 0 when malformed).
pub fn split_q(item: &str) -> (&str, f32) {
    let mut parts = item.split(';');
    let token = parts.next().unwrap_or("").trim();
    let mut q = 1.0;
    for param in parts {
        let param = param.trim();
        if let Some(v) = param.strip_prefix("q=").or_else(|| param.strip_prefix("Q=")) {
            q = v
                .trim()
                .parse::<f32>()
                .ok()
                .filter(|q| (0.0..=1.0).contains(q))
                .unwrap_or(0.0);
        }
    }
    (token, q)
}

/// `zh`, `zh-TW`, `zh-Hant`, `zh-Hant-TW` all name the site's `zh`; `ja-JP` its `ja`.
fn matches(range: &str, language: &Language) -> bool {
    is_or_extends(range, &language.code) || is_or_extends(range, &language.tag)
}

fn is_or_extends(range: &str, tag: &str) -> bool {
    let (r, t) = (range.as_bytes(), tag.as_bytes());
    r.len() >= t.len() && r[..t.len()].eq_ignore_ascii_case(t) && (r.len() == t.len() || r[t.len()] == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn langs() -> Vec<Language> {
        [("en", "en"), ("zh", "zh-Hant"), ("ja", "ja")]
            .into_iter()
            .map(|(code, tag)| Language {
                code: code.into(),
                tag: tag.into(),
                ..Language::default()
            })
            .collect()
    }

    fn pick(cookie: Option<&str>, accept: Option<&str>) -> &'static str {
        let mut headers = HeaderMap::new();
        if let Some(c) = cookie {
            headers.insert(COOKIE, HeaderValue::from_str(c).unwrap());
        }
        if let Some(a) = accept {
            headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_str(a).unwrap());
        }
        ["en", "zh", "ja"][choose(&headers, &langs(), 0)]
    }

    #[test]
    fn cookie_then_accept_language_then_default() {
        assert_eq!(pick(Some("a=1; selectedLanguage=ja"), Some("zh-TW")), "ja");
        assert_eq!(pick(Some("selectedLanguage=fr"), Some("zh-TW")), "zh");
        assert_eq!(pick(None, Some("fr-FR, zh-Hant;q=0.8, ja;q=0.9")), "ja");
        assert_eq!(pick(None, Some("zh")), "zh");
        assert_eq!(pick(None, Some("ja-JP,en;q=0.5")), "ja");
        assert_eq!(pick(None, Some("zhx, jam")), "en");
        assert_eq!(pick(None, Some("ja;q=0, zh;q=0.1")), "zh");
        assert_eq!(pick(None, None), "en");
    }
}
