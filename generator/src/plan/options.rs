//! What a caller asks of a build, and what it gets back.

use crate::model::publishing::{self, HeldBack, Publishing};
use crate::model::site::Site;
use crate::model::translations::Translation;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub struct BuildOptions {
    /// The site's folder: `site-config.yaml`, `content/`, `locales/`, `static/`.
    pub root: PathBuf,
    pub out: PathBuf,
    pub templates: PathBuf,
    /// The UI's server bundle that renders islands (`ui/.ssr/render.mjs`).
    pub server_bundle: PathBuf,
    /// Pages load the live-reload script of `make dev`.
    pub dev: bool,
    /// Show the drafts (`site build --drafts`; a `dev` build always does).
    pub drafts: bool,
    /// Show the pages dated after today (`site build --future`; a `dev` build always does).
    pub future: bool,
    /// Where the islands' HTML is kept between builds, so a rebuild renders only islands whose
    /// props changed; None renders every island on every build.
    pub island_cache: Option<PathBuf>,
    /// Where processed photos and link-preview cards are kept between builds (the cards in its
    /// `cards/` folder), so a build processes only new or changed photos and draws only changed
    /// cards; None processes every photo and draws every card on every build.
    pub photo_cache: Option<PathBuf>,
    /// Where the pages' rendered Markdown is kept between builds, so a build renders only the
    /// pages whose text changed; None renders every page on every build.
    pub markdown_cache: Option<PathBuf>,
}

impl BuildOptions {
    /// The usual layout of a site folder.
    pub fn for_root(root: &Path) -> Self {
        BuildOptions {
            root: root.to_path_buf(),
            out: root.join("dist"),
            templates: root.join("generator/templates"),
            server_bundle: root.join("ui/.ssr/render.mjs"),
            dev: false,
            drafts: false,
            future: false,
            island_cache: Some(cache_path(root, "islands")),
            photo_cache: Some(cache_path(root, "photos")),
            markdown_cache: Some(cache_path(root, "markdown")),
        }
    }
}

impl BuildOptions {
    /// What the build shows of the pages not published yet, as of today.
    pub(crate) fn publishing(&self) -> Publishing {
        Publishing {
            drafts: self.drafts || self.dev,
            future: self.future || self.dev,
            today: publishing::today(),
        }
    }
}

/// Where the site's builds keep `kind` (the islands' HTML or the rendered Markdown, a file; the
/// photos, a folder): in the temp dir, not in `dist/` (which holds what is served) nor in the
/// site's folder. Losing it only makes a build slower.
fn cache_path(root: &Path, kind: &str) -> PathBuf {
    use sha2::{Digest, Sha256};
    // `site build` in the site's folder has the empty root, which does not canonicalize: every
    // site built that way shared one cache, each build evicting the other sites' islands.
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let hash = format!("{:x}", Sha256::digest(root.to_string_lossy().as_bytes()));
    std::env::temp_dir().join(format!("site-{kind}-{}", &hash[..16]))
}

#[derive(Debug)]
pub struct BuildReport {
    pub pages: usize,
    pub languages: Vec<String>,
    pub written: usize,
    pub warnings: Vec<String>,
    pub elapsed: Duration,
    /// The pages rendered again by a one-page rebuild of `site watch` (None: a whole build).
    pub rerendered: Option<usize>,
    /// The files below `dist/` a one-page rebuild wrote or removed (None: a whole build).
    pub touched: Option<Vec<String>>,
    /// The photos this build decoded and encoded; the others came from the photo cache.
    pub photos_processed: usize,
    /// The link-preview cards this build drew; the others came from the cache.
    pub cards_drawn: usize,
}

impl BuildReport {
    pub(crate) fn of(site: &Site, written: usize, started: Instant) -> Self {
        BuildReport {
            pages: site.page_count(),
            languages: site.languages.clone(),
            written,
            warnings: site.warnings.clone(),
            elapsed: started.elapsed(),
            rerendered: None,
            touched: None,
            photos_processed: site.photos.processed(),
            cards_drawn: site.cards.as_ref().map_or(0, |cards| cards.take_drawn()),
        }
    }

    pub fn summary(&self) -> String {
        if let Some(rerendered) = self.rerendered {
            return format!(
                "Rebuilt {rerendered} of {} pages in {:.3}s; {} files changed",
                self.pages,
                self.elapsed.as_secs_f64(),
                self.written
            );
        }
        format!(
            "Built {} pages in {} languages ({}) in {:.2}s; {} files changed",
            self.pages,
            self.languages.len(),
            self.languages.join(", "),
            self.elapsed.as_secs_f64(),
            self.written
        )
    }
}

/// What `site check` found: the pages a build would write, and the warnings.
#[derive(Debug)]
pub struct CheckReport {
    pub pages: usize,
    pub warnings: Vec<String>,
    /// Where each page's translation into each language stands (`site check --translations`).
    pub translations: Vec<Translation>,
    /// The files left out as drafts or scheduled (listed by `site check --translations`).
    pub held_back: Vec<HeldBack>,
}

impl CheckReport {
    pub fn summary(&self) -> String {
        format!("Checked {} pages: no errors", self.pages)
    }

    /// The translation table, then the files left out as drafts or scheduled.
    pub fn translations_table(&self) -> String {
        let table = crate::model::translations::table(&self.translations);
        table + &publishing::table(&self.held_back)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_site_folder_has_its_own_caches_however_it_is_named() {
        let here = std::env::current_dir().unwrap();
        let other = tempfile::tempdir().unwrap();
        for kind in ["islands", "photos"] {
            assert_eq!(
                cache_path(Path::new(""), kind),
                cache_path(&here, kind),
                "the empty root is the cwd"
            );
            assert_ne!(cache_path(Path::new(""), kind), cache_path(other.path(), kind));
        }
    }
}
