//! The photos pages show (`![alt](/images/beach.jpg)`, a file of `static/images/`): each JPEG or
//! PNG is decoded once, resized to a few widths no wider than itself, encoded as WebP and in its
//! own format, and named by the hash of its bytes under `/assets/photos/` (cached forever, as the
//! other hashed assets). What a source made is kept in a cache folder under the hash of the
//! source's bytes, so a build processes only new or changed photos (README "Writing content").

mod cache;
mod markup;

pub use markup::{fallback_src, picture_html, srcset, Place};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use site_photos::{self as encode, ImageFormat};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Where the processed photos are written below `dist/`.
pub const PHOTO_DIR: &str = "assets/photos";

/// Raster formats a browser could show but the build does not process: an error names them, so a
/// 20 MB TIFF or BMP is never served as it is.
const UNSUPPORTED: &[&str] = &["bmp", "tif", "tiff", "gif", "webp", "avif", "heic", "heif", "ico"];

/// One width of a photo: its WebP file and its file in the source's format, below `PHOTO_DIR`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Variant {
    pub width: u32,
    pub height: u32,
    pub webp: String,
    pub fallback: String,
}

/// A photo as pages show it: its widths, narrowest first, and the files they are.
#[derive(Debug, Serialize, Deserialize)]
pub struct Photo {
    /// The fallback files' type (`image/jpeg`, `image/png`).
    pub fallback_type: String,
    pub variants: Vec<Variant>,
    /// Every file's name and bytes.
    #[serde(skip)]
    pub files: Vec<(String, Vec<u8>)>,
}

impl Photo {
    /// The widest variant: the size the page reserves for the photo.
    pub fn largest(&self) -> &Variant {
        self.variants.last().expect("a photo has a variant")
    }
}

/// What a Markdown image's source is to the build.
enum Kind {
    /// Shown as it is: SVG, a page, another site's image.
    AsIs,
    Photo(ImageFormat),
    Unsupported(String),
}

fn kind_of(src: &str) -> Kind {
    if !src.starts_with("/images/") {
        return Kind::AsIs;
    }
    let ext = src
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "jpg" | "jpeg" => Kind::Photo(ImageFormat::Jpeg),
        "png" => Kind::Photo(ImageFormat::Png),
        e if UNSUPPORTED.contains(&e) => Kind::Unsupported(e.to_string()),
        _ => Kind::AsIs,
    }
}

type Outcome = Result<Arc<Photo>, String>;

/// The site's photos, each processed (or read from the cache) once per build, by the first page
/// that shows it; pages render in parallel, so the others wait for that one.
pub struct Photos {
    static_dir: PathBuf,
    cache: Option<PathBuf>,
    known: Mutex<HashMap<String, Arc<OnceLock<Outcome>>>>,
    processed: AtomicUsize,
}

impl Photos {
    /// Photos of `static_dir`, kept in `cache` between builds (None: processed on every build).
    pub fn new(static_dir: &Path, cache: Option<&Path>) -> Self {
        Photos {
            static_dir: static_dir.to_path_buf(),
            cache: cache.map(Path::to_path_buf),
            known: Mutex::new(HashMap::new()),
            processed: AtomicUsize::new(0),
        }
    }

    /// The photo `src` names (`/images/beach.jpg`), or None when the build shows `src` as it is
    /// (SVG, a page); an error says why it cannot be shown.
    pub fn get(&self, src: &str) -> Result<Option<Arc<Photo>>, String> {
        let format = match kind_of(src) {
            Kind::AsIs => return Ok(None),
            Kind::Photo(format) => format,
            Kind::Unsupported(ext) => {
                return Err(format!(
                    "image {src}: .{ext} files are not processed; save the photo as JPEG or PNG"
                ))
            }
        };
        let cell = self
            .known
            .lock()
            .expect("photos lock")
            .entry(src.to_string())
            .or_default()
            .clone();
        let outcome = cell.get_or_init(|| self.make(src, format).map(Arc::new));
        outcome.clone().map(Some).map_err(|e| format!("image {src}: {e}"))
    }

    /// Every photo `get` gave: those of this build, when `Photos` is new for each whole build.
    pub fn all(&self) -> Vec<Arc<Photo>> {
        let known = self.known.lock().expect("photos lock");
        known
            .values()
            .filter_map(|cell| cell.get()?.as_ref().ok().cloned())
            .collect()
    }

    /// A photo `get` gave before.
    pub fn known(&self, src: &str) -> Option<Arc<Photo>> {
        let known = self.known.lock().expect("photos lock");
        known.get(src)?.get()?.as_ref().ok().cloned()
    }

    /// How many photos this build decoded and encoded, rather than read from the cache.
    pub fn processed(&self) -> usize {
        self.processed.load(Ordering::Relaxed)
    }

    fn make(&self, src: &str, format: ImageFormat) -> Result<Photo, String> {
        let path = self.static_dir.join(src.trim_start_matches('/'));
        let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let key = cache::key(&bytes);
        if let Some(photo) = self.cache.as_deref().and_then(|dir| cache::read(dir, &key)) {
            return Ok(photo);
        }
        let photo = process(src, &bytes, format)
            .map_err(|e| format!("{} is not a valid {format:?} file: {e}", path.display()))?;
        self.processed.fetch_add(1, Ordering::Relaxed);
        if let Some(dir) = &self.cache {
            cache::write(dir, &key, &photo);
        }
        Ok(photo)
    }
}

/// Decodes `bytes` and makes each width's files, named `<name>-<width>-<hash>.<ext>`.
fn process(src: &str, bytes: &[u8], format: ImageFormat) -> Result<Photo, String> {
    let image = encode::decode(bytes, format)?;
    let encoded: Vec<encode::Encoded> = encode::widths(image.width())
        .into_par_iter()
        .map(|width| encode::encode(&image, width, format))
        .collect::<Result<_, _>>()?;
    let stem = file_stem(src);
    let ext = format.extensions_str()[0];
    let mut photo = Photo {
        fallback_type: format.to_mime_type().to_string(),
        variants: Vec::new(),
        files: Vec::new(),
    };
    for e in encoded {
        let name = |bytes: &[u8], ext: &str| format!("{stem}-{}-{}.{ext}", e.width, &hex(bytes)[..10]);
        let (webp, fallback) = (name(&e.webp, "webp"), name(&e.fallback, ext));
        photo.variants.push(Variant {
            width: e.width,
            height: e.height,
            webp: webp.clone(),
            fallback: fallback.clone(),
        });
        photo.files.extend([(webp, e.webp), (fallback, e.fallback)]);
    }
    Ok(photo)
}

/// The source's name as a file name part: letters, digits, `-` and `_` (a dot would end the part
/// the server reads the hash from).
fn file_stem(src: &str) -> String {
    let name = src.rsplit('/').next().unwrap_or(src);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    stem.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
