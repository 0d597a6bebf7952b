//! A page's old URLs (`aliases:` in its front matter, README "Writing content"): the generator
//! lists them in `_site.json` and in an nginx include, the server and nginx answer each with a
//! permanent redirect to the page.

use serde::{Deserialize, Serialize};

/// One old URL of a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alias {
    /// The old URL path, without a language prefix: `/notes/old-name`. It answers in every
    /// language (`/zh/notes/old-name` too).
    pub from: String,
    /// The page's route (English, unprefixed): `/notes/new-name`.
    pub route: String,
}

/// The nginx include the generator writes beside the pages (`dist/_aliases.nginx.conf`), which
/// `deploy/nginx-site.conf` includes; the server does not serve it.
pub const ALIASES_NGINX_FILE: &str = "_aliases.nginx.conf";

/// The same redirects for a static host that reads Netlify's `_redirects` file (Cloudflare Pages
/// does too), also beside the pages and not served by the server.
pub const REDIRECTS_FILE: &str = "_redirects";

/// Whether `path` can be an alias or a route: `/` then segments of letters, digits and `-._~`
/// (any script), no empty, `.` or `..` segment, no trailing slash. Nothing else can reach the
/// nginx include, so no value there can end a directive or start a variable.
pub fn is_plain_path(path: &str) -> bool {
    if path == "/" {
        return true;
    }
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    rest.split('/').all(|segment| {
        !segment.is_empty()
            && segment != "."
            && segment != ".."
            && segment.chars().all(|c| c.is_alphanumeric() || "-._~".contains(c))
    })
}

/// A plain path as a `Location` header carries it: the bytes of any non-ASCII letter
/// percent-encoded (`/筆記` is `/%E7%AD%86%E8%A8%98`).
pub fn location(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut bytes = [0; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{is_plain_path, location};

    #[test]
    fn locations_are_ascii() {
        assert_eq!(location("/zh/notes/new"), "/zh/notes/new");
        assert_eq!(location("/筆記"), "/%E7%AD%86%E8%A8%98");
    }

    #[test]
    fn plain_paths_have_nothing_nginx_or_a_url_would_read_otherwise() {
        for good in ["/", "/old", "/notes/old-name_2", "/筆記/舊", "/a.b~c"] {
            assert!(is_plain_path(good), "{good}");
        }
        for bad in [
            "", "old", "/old/", "//old", "/a/../b", "/.", "/a b", "/a;b", "/a{b", "/a$b", "/a?b", "/a#b", "/a%20b",
            "/a\"b", "/a\\b", "/a\nb",
        ] {
            assert!(!is_plain_path(bad), "{bad:?}");
        }
    }
}
