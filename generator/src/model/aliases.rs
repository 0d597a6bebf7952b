//! The pages' old URLs (`aliases:` in the front matter, README "Writing content"): each answers
//! with a permanent redirect to its page, from the server (`_site.json`) and from nginx
//! (`output::aliases`), and is listed nowhere else. An alias that is not a plain path, has a
//! language prefix, or is already a page's route or another page's alias is a build error.

use crate::diagnostics::fail_on;
use crate::model::site::Site;
use anyhow::Result;
use site_contract::{is_plain_path, Alias, FILE_ONLY_ROOTS};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Every alias of the site's pages, sorted, or every problem with one as an error naming the
/// file and line of its `aliases:`.
pub fn of(site: &Site) -> Result<Vec<Alias>> {
    // Each alias's page, and the file and line that first named it.
    let mut taken: BTreeMap<String, (String, PathBuf, usize)> = BTreeMap::new();
    let mut errors = Vec::new();
    for (route, files) in &site.sources {
        for file in files.values() {
            for written in &file.front.aliases {
                let from = normalized(written);
                let problem = |message: String| file.problem_at_key("aliases", message);
                if let Some(message) = unusable(&from, site) {
                    errors.push(problem(format!("alias `{written}` {message}")));
                } else if let Some(page) = (site.pages.kind_of(&from)).and_then(|_| page_file(site, &from)) {
                    errors.push(problem(format!("alias `{written}` is the route of the page {page}")));
                } else if let Some((other, path, line)) = taken.get(&from).filter(|(other, ..)| other != route) {
                    let at = format!("{}:{line}", path.display());
                    errors.push(problem(format!(
                        "alias `{written}` is already an alias of `{other}` ({at})"
                    )));
                } else if site
                    .pages
                    .get(route, &site.config.default_language)
                    .is_some_and(|p| !p.gets_page)
                {
                    errors.push(problem(format!("`{route}` has no page of its own to redirect to")));
                } else {
                    let line = file.key_line("aliases");
                    taken.entry(from).or_insert((route.clone(), file.path.clone(), line));
                }
            }
        }
    }
    fail_on(errors)?;
    Ok((taken.into_iter())
        .map(|(from, (route, ..))| Alias { from, route })
        .collect())
}

/// `/old/` and `/old` are one URL to the server; the alias is kept without the slash.
fn normalized(alias: &str) -> String {
    match alias.trim_end_matches('/') {
        "" => "/".to_string(),
        trimmed => trimmed.to_string(),
    }
}

/// Why `from` cannot be an alias, if it cannot.
fn unusable(from: &str, site: &Site) -> Option<String> {
    if !is_plain_path(from) {
        return Some("is not a path of letters, digits and `-._~` starting with `/`".to_string());
    }
    let first = from.trim_start_matches('/').split('/').next().unwrap_or_default();
    if site.languages.iter().any(|lang| lang == first) {
        return Some(format!(
            "starts with the language `{first}`: write it without, it answers in every language"
        ));
    }
    if FILE_ONLY_ROOTS.contains(&first) {
        return Some(format!("is below `/{first}`, which holds files, not pages"));
    }
    None
}

/// The file of `route`'s default-language page (the page an alias collides with).
fn page_file(site: &Site, route: &str) -> Option<String> {
    let page = site.pages.get(route, &site.config.default_language)?;
    Some(match page.is_generated() {
        true => format!("`{route}` (made by the build)"),
        false => format!("`{route}` ({})", page.source.path.display()),
    })
}
