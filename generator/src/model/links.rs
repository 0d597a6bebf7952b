//! The build fails on an internal link to a page, heading or image that does not exist.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The pages a link can point at, and their headings.
pub trait Headings {
    /// Whether a page is written at `route` (in any language).
    fn has_page(&self, route: &str) -> bool;
    /// Whether the `lang` page at `route` has a heading with `id`.
    fn has_heading(&self, route: &str, lang: &str, id: &str) -> bool;
}

/// Every route with the heading ids of each language version.
impl Headings for BTreeMap<&str, BTreeMap<&str, HashSet<&str>>> {
    fn has_page(&self, route: &str) -> bool {
        self.contains_key(route)
    }

    fn has_heading(&self, route: &str, lang: &str, id: &str) -> bool {
        self.get(route)
            .and_then(|v| v.get(lang))
            .is_some_and(|ids| ids.contains(id))
    }
}

/// What a link can point at: pages with their headings, and the images of `static/`.
pub struct LinkTargets<'a, H> {
    pub headings: &'a H,
    pub static_dir: &'a Path,
}

impl<H: Headings> LinkTargets<'_, H> {
    /// None when `url` (as written in a page of `lang`) resolves; else what is wrong.
    pub fn problem(&self, url: &str, lang: &str) -> Option<String> {
        if let Some(file) = url.strip_prefix("/images/") {
            let file = file.split(['?', '#']).next().unwrap_or(file);
            return (!self.static_dir.join("images").join(file).is_file()).then(|| {
                format!(
                    "image {url} does not exist (put it in {}/images/)",
                    self.static_dir.display()
                )
            });
        }
        if site_contract::is_file_path(url) {
            return None;
        }
        let (path, anchor) = match url.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (url, None),
        };
        let path = path.split('?').next().unwrap_or(path);
        let path = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            path
        };
        if !self.headings.has_page(path) {
            return Some(format!("link to {url}: there is no page {path}"));
        }
        match anchor {
            Some(id) if !id.is_empty() && !self.headings.has_heading(path, lang, id) => Some(format!(
                "link to {url}: the {lang} page {path} has no heading with id `{id}`"
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_anchors_and_images_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("images")).unwrap();
        std::fs::write(dir.path().join("images/a.svg"), "<svg/>").unwrap();
        let mut headings = BTreeMap::new();
        headings.insert(
            "/valuation-models/dcf",
            BTreeMap::from([("en", HashSet::from(["formula"]))]),
        );
        headings.insert("/", BTreeMap::from([("en", HashSet::new())]));
        let targets = LinkTargets {
            headings: &headings,
            static_dir: dir.path(),
        };
        assert_eq!(targets.problem("/valuation-models/dcf#formula", "en"), None);
        assert_eq!(targets.problem("/", "en"), None);
        assert_eq!(targets.problem("/images/a.svg", "en"), None);
        assert_eq!(targets.problem("/api/feed", "en"), None);
        assert!(targets
            .problem("/valuation-models/dfc", "en")
            .unwrap()
            .contains("there is no page"));
        assert!(targets
            .problem("/valuation-models/dcf#nope", "en")
            .unwrap()
            .contains("no heading with id `nope`"));
        assert!(targets
            .problem("/images/b.svg", "en")
            .unwrap()
            .contains("image /images/b.svg"));
    }
}
