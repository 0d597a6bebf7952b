//! Which stored representation a client accepts (`Accept-Encoding`), and conditional requests.

use poem::http::header::{ACCEPT_ENCODING, IF_NONE_MATCH};
use poem::http::{HeaderMap, HeaderValue};
use site_contract::split_q;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

impl Encoding {
    pub fn sibling_suffix(self) -> &'static str {
        match self {
            Encoding::Identity => "",
            Encoding::Gzip => ".gz",
            Encoding::Brotli => ".br",
        }
    }

    pub fn header_value(self) -> Option<HeaderValue> {
        match self {
            Encoding::Identity => None,
            Encoding::Gzip => Some(HeaderValue::from_static("gzip")),
            Encoding::Brotli => Some(HeaderValue::from_static("br")),
        }
    }
}

/// The best encoding among those stored: the highest q-value wins, brotli before gzip on a tie,
/// identity when the client accepts neither.
pub fn choose(headers: &HeaderMap, has_gzip: bool, has_brotli: bool) -> Encoding {
    if !has_gzip && !has_brotli {
        return Encoding::Identity;
    }
    let (mut q_br, mut q_gz, mut q_star): (Option<f32>, Option<f32>, Option<f32>) = (None, None, None);
    for value in headers.get_all(ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let (coding, q) = split_q(item);
            if coding.eq_ignore_ascii_case("br") {
                q_br = Some(q);
            } else if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
                q_gz = Some(q);
            } else if coding == "*" {
                q_star = Some(q);
            }
        }
    }
    let q_br = if has_brotli {
        q_br.or(q_star).unwrap_or(0.0)
    } else {
        0.0
    };
    let q_gz = if has_gzip { q_gz.or(q_star).unwrap_or(0.0) } else { 0.0 };
    if q_br > 0.0 && q_br >= q_gz {
        Encoding::Brotli
    } else if q_gz > 0.0 {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

/// `If-None-Match` names the representation the client holds (weak comparison, RFC 9110 13.1.2).
pub fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    headers.get_all(IF_NONE_MATCH).iter().any(|value| {
        value.as_bytes().split(|&b| b == b',').any(|candidate| {
            let candidate = candidate.trim_ascii();
            let candidate = candidate.strip_prefix(b"W/").unwrap_or(candidate);
            candidate == b"*" || candidate == etag
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_ENCODING, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn prefers_brotli_then_gzip_by_weight() {
        assert_eq!(choose(&with("gzip, deflate, br, zstd"), true, true), Encoding::Brotli);
        assert_eq!(choose(&with("gzip, br;q=0.5"), true, true), Encoding::Gzip);
        assert_eq!(choose(&with("br;q=0, gzip"), true, true), Encoding::Gzip);
        assert_eq!(choose(&with("gzip;q=0, br;q=0"), true, true), Encoding::Identity);
        assert_eq!(choose(&with("*"), true, true), Encoding::Brotli);
        assert_eq!(choose(&with("br"), true, false), Encoding::Identity);
        assert_eq!(choose(&HeaderMap::new(), true, true), Encoding::Identity);
    }

    #[test]
    fn if_none_match_lists_and_weak_tags() {
        let etag = HeaderValue::from_static("\"abc\"");
        let mut headers = HeaderMap::new();
        headers.insert(IF_NONE_MATCH, HeaderValue::from_static("\"x\", W/\"abc\""));
        assert!(not_modified(&headers, &etag));
        headers.insert(IF_NONE_MATCH, HeaderValue::from_static("\"abcd\""));
        assert!(!not_modified(&headers, &etag));
    }
}
