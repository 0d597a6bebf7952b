//! `dist/_aliases.nginx.conf`: the pages' old URLs as nginx `location` blocks, which
//! `deploy/nginx-site.conf` includes, so nginx answers them without asking the server.

use crate::model::config::SiteConfig;
use site_contract::{location, Alias};

/// One exact `location` per alias and language (with and without a trailing slash), each a
/// permanent redirect to the page in that language. The unprefixed alias goes to the unprefixed
/// page, where the server answers in the visitor's language (cookie, then `Accept-Language`).
/// Aliases are plain paths (`site_contract::is_plain_path`): nothing in them can end a directive.
pub fn nginx_include(config: &SiteConfig, aliases: &[Alias]) -> String {
    let mut text = String::from(
        "# Made by `site build` from the pages' `aliases:` (README, \"Writing content\"); included by\n\
         # deploy/nginx-site.conf. Each old URL answers with a permanent redirect to its page.\n",
    );
    for alias in aliases {
        for lang in config.language_codes() {
            let from = config.localized_path(&alias.from, lang);
            let to = location(&config.localized_path(&alias.route, lang));
            for from in [from.clone(), format!("{from}/")] {
                text.push_str(&format!("location = {from} {{ return 301 {to}; }}\n"));
            }
        }
    }
    text
}

/// The same redirects as a static host's `_redirects` file (Netlify's form, which Cloudflare
/// Pages reads too): `FROM TO 301`, per alias and language, with and without a trailing slash.
pub fn redirects_file(config: &SiteConfig, aliases: &[Alias]) -> String {
    let mut text = String::from(
        "# Made by `site build` from the pages' `aliases:` (README, \"Writing content\"), for a static\n\
         # host; each old URL answers with a permanent redirect to its page.\n",
    );
    for alias in aliases {
        for lang in config.language_codes() {
            let from = location(&config.localized_path(&alias.from, lang));
            let to = location(&config.localized_path(&alias.route, lang));
            text.push_str(&format!("{from} {to} 301\n{from}/ {to} 301\n"));
        }
    }
    text
}
