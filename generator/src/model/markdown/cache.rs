//! Rendered Markdown kept between builds (`BuildOptions::markdown_cache`), so a build renders only
//! the pages whose text changed. A render reads its text, its options and the generator itself
//! (syntect's grammars, BudouX's model, the math renderer are compiled in): the key hashes the first
//! two, the file's fingerprint names the generator's binary. A page that shows an image of the
//! site's files (a cover, a photo, a diagram) is rendered on every build: what it shows follows
//! those files, not its text.

use super::{RenderOptions, Rendered};
use crate::model::kept;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

pub struct RenderCache {
    /// None: nothing is read or kept.
    file: Option<PathBuf>,
    /// The generator's binary (`generator_identity`), which the file must name.
    fingerprint: String,
    /// The earlier build's renders by key, each taken by the first page that asks for it (a
    /// second page of the same text and options finds its slot empty and renders again).
    known: HashMap<String, Mutex<Option<Rendered>>>,
    /// This build's renders that can be kept and that the file did not hold.
    misses: AtomicUsize,
}

impl RenderCache {
    /// No cache: every page is rendered, nothing is kept.
    pub fn none() -> Self {
        Self::open(None)
    }

    /// What `file` holds from an earlier build by this same generator (an empty cache when it
    /// is missing, unreadable or from another build of the generator).
    pub fn open(file: Option<&Path>) -> Self {
        let fingerprint = file.map(|_| generator_identity()).unwrap_or_default();
        let known: HashMap<String, Rendered> = match file {
            Some(file) => kept::read_map(file, &fingerprint),
            None => HashMap::new(),
        };
        RenderCache {
            file: file.map(Path::to_path_buf),
            fingerprint,
            known: (known.into_iter())
                .map(|(key, rendered)| (key, Mutex::new(Some(rendered))))
                .collect(),
            misses: AtomicUsize::new(0),
        }
    }

    /// `render()`, which renders `body` with `options`, or what an earlier build rendered of the
    /// same; with the key to keep it under (None: the page is rendered on every build).
    pub fn render<E>(
        &self,
        body: &str,
        options: &RenderOptions,
        render: impl FnOnce() -> Result<Rendered, E>,
    ) -> Result<(Rendered, Option<String>), E> {
        if self.file.is_none() {
            return Ok((render()?, None));
        }
        let key = key(body, options);
        let slot = self.known.get(&key);
        let taken = slot.and_then(|slot| slot.lock().expect("no render panicked").take());
        let rendered = match taken {
            Some(rendered) => rendered,
            None => render()?,
        };
        let keep = !rendered.shows_site_images && !options.photo_above;
        if keep && slot.is_none() {
            self.misses.fetch_add(1, Ordering::Relaxed);
        }
        Ok((rendered, keep.then_some(key)))
    }

    /// Replaces the file with this build's renders (by key), unless it holds exactly those.
    pub fn keep<'a>(self, renders: impl Iterator<Item = (&'a str, &'a Rendered)>) {
        let Some(file) = self.file else { return };
        let renders: HashMap<&str, &Rendered> = renders.collect();
        if self.misses.into_inner() > 0 || renders.len() != self.known.len() {
            kept::write_map(&file, &self.fingerprint, &renders);
        }
    }
}

fn key(body: &str, options: &RenderOptions) -> String {
    let mut hash = Sha256::new();
    for part in [options.lang, options.default_language] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.update([
        u8::from(options.line_breaks),
        u8::from(options.photo_above),
        u8::from(options.phrases.is_some()),
    ]);
    hash.update(body.as_bytes());
    format!("{:x}", hash.finalize())
}

/// The running generator's binary, by its path, size and time: a new build of it may render
/// differently.
fn generator_identity() -> String {
    let exe = std::env::current_exe().unwrap_or_default();
    let meta = std::fs::metadata(&exe).ok();
    let modified = (meta.as_ref())
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .unwrap_or_default();
    let len = meta.map_or(0, |m| m.len());
    format!("{} {len} {}", exe.display(), modified.as_nanos())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::markdown::render;

    fn options(lang: &str) -> RenderOptions<'_> {
        RenderOptions {
            lang,
            default_language: "en",
            ..Default::default()
        }
    }

    /// `body` rendered through `cache`, failing if the cache has to render it.
    fn from_cache(cache: &RenderCache, body: &str, lang: &str) -> Result<Rendered, &'static str> {
        Ok(cache.render(body, &options(lang), || Err("rendered again"))?.0)
    }

    fn through(cache: &RenderCache, body: &str, lang: &str) -> (Rendered, Option<String>) {
        let options = options(lang);
        (cache.render(body, &options, || render(body, &options))).unwrap()
    }

    #[test]
    fn the_next_build_takes_what_this_one_rendered_and_renders_only_changed_text() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("markdown");
        let first = RenderCache::open(Some(&file));
        let (page, key) = through(&first, "# Title\n\nSome *text* and [a link](/notes).\n", "en");
        let (other, other_key) = through(&first, "Other text.\n", "ja");
        first.keep(
            [
                (key.as_deref().unwrap(), &page),
                (other_key.as_deref().unwrap(), &other),
            ]
            .into_iter(),
        );

        let second = RenderCache::open(Some(&file));
        let kept = from_cache(&second, "# Title\n\nSome *text* and [a link](/notes).\n", "en").unwrap();
        assert_eq!(kept.html, page.html);
        assert_eq!(kept.text, page.text);
        assert_eq!(kept.links, page.links);
        assert_eq!(kept.headings, page.headings);
        // An edited text, or the same text for another language, is rendered.
        assert!(from_cache(&second, "# Title\n\nSome *text*.\n", "en").is_err());
        assert!(from_cache(&second, "Other text.\n", "en").is_err());
        assert!(from_cache(&second, "Other text.\n", "ja").is_ok());
    }

    #[test]
    fn a_page_showing_the_sites_images_is_never_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = RenderCache::open(Some(&dir.path().join("markdown")));
        let (rendered, key) = through(&cache, "A diagram: ![flow](/images/flow.svg)\n", "en");
        assert!(rendered.shows_site_images);
        assert_eq!(key, None);
        let (_, key) = through(&cache, "An image elsewhere: ![x](https://example.com/x.png)\n", "en");
        assert!(key.is_some());
    }

    /// One build of a page that is kept and one that shows an image, through `file`'s cache.
    fn build_with_an_image_page(file: &Path) {
        let cache = RenderCache::open(Some(file));
        let (page, key) = through(&cache, "Text.\n", "en");
        through(&cache, "A diagram: ![flow](/images/flow.svg)\n", "en");
        cache.keep([(key.as_deref().unwrap(), &page)].into_iter());
    }

    #[test]
    fn a_build_that_changed_nothing_kept_leaves_the_file_as_it_was() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("markdown");
        build_with_an_image_page(&file);
        let written = std::fs::metadata(&file).unwrap().ino();
        // The page with an image renders again, but nothing kept changed: no new file.
        build_with_an_image_page(&file);
        assert_eq!(std::fs::metadata(&file).unwrap().ino(), written);
    }

    #[test]
    fn a_file_of_another_generator_or_no_file_is_an_empty_cache() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("markdown");
        let body = "Text.\n";
        let (rendered, key) = through(&RenderCache::none(), body, "en");
        assert_eq!(key, None, "no file: nothing to keep");
        let entries = HashMap::from([(super::key(body, &options("en")), rendered)]);
        kept::write_map(&file, "another build of the generator", &entries);
        assert!(from_cache(&RenderCache::open(Some(&file)), body, "en").is_err());
        std::fs::write(&file, "not JSON").unwrap();
        assert!(from_cache(&RenderCache::open(Some(&file)), body, "en").is_err());
        kept::write_map(&file, &generator_identity(), &entries);
        assert!(from_cache(&RenderCache::open(Some(&file)), body, "en").is_ok());
    }
}
