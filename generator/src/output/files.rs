//! Writing `dist/`: files are written only when their bytes change (so a warm rebuild touches
//! little), stale files are removed, and every text file large enough to gain from it gets `.gz`
//! and `.br` siblings.

use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

const TEXT_EXTENSIONS: &[&str] = &["html", "css", "js", "mjs", "json", "xml", "txt", "svg", "map"];
const COMPRESSED: &[&str] = &["gz", "br"];

/// Text files smaller than this get no compressed siblings; the server and nginx's
/// `gzip_static`/`brotli_static` send them as they are. Below one TCP segment (~1,400 bytes)
/// compression saves no round trip, only a few hundred bytes, while every sibling is a file to
/// create: on a large site most of the search index's files are this small, and the siblings of
/// small files were about half the files a cold build wrote (BENCHMARKS.md).
pub const MIN_COMPRESSED_SIZE: usize = 1024;

/// Whether a text file of `len` bytes gets siblings.
fn worth_compressing(len: usize) -> bool {
    len >= MIN_COMPRESSED_SIZE
}

/// Writes `bytes` to `path` unless it already holds them; true when it wrote.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_file(path, bytes)?;
    Ok(true)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("Failed to create {}", parent.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("Failed to write {}", path.display()))
}

fn is_text(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| TEXT_EXTENSIONS.contains(&e))
}

fn is_compressed_sibling(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| COMPRESSED.contains(&e))
}

fn sibling(path: &Path, ext: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

fn fresh(source: &Path, derived: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((modified(source), modified(derived)), (Some(s), Some(d)) if d >= s)
}

fn gzip_with(bytes: &[u8], level: i32) -> Result<Vec<u8>> {
    let level = libdeflater::CompressionLvl::new(level).map_err(|e| anyhow::anyhow!("gzip level {level}: {e:?}"))?;
    let mut compressor = libdeflater::Compressor::new(level);
    let mut out = vec![0; compressor.gzip_compress_bound(bytes.len())];
    let len = (compressor.gzip_compress(bytes, &mut out)).map_err(|e| anyhow::anyhow!("gzip: {e}"))?;
    out.truncate(len);
    Ok(out)
}

fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    gzip_with(bytes, 9)
}

/// Pages are compressed again whenever they change, and a site has thousands. On this site's
/// pages libdeflate's level 5 sends ~1.6% fewer bytes than zlib-rs's level 6 (the encoder
/// before it), in 0.7x its time; level 6 ~0.8% fewer again for 17% more time (BENCHMARKS.md,
/// "Optimisations").
fn gzip_page(bytes: &[u8]) -> Result<Vec<u8>> {
    gzip_with(bytes, 5)
}

/// Brotli quality of pages: on this site's pages quality 11 spends ~25 ms a page for ~9% fewer
/// bytes than quality 5 (~1 ms); 6 costs 2-5% more time for 0.5% fewer bytes, 7 a third more
/// for 1.6% fewer. Quality 5 sends ~6% fewer bytes than the pages' gzip (BENCHMARKS.md).
const PAGE_QUALITY: u8 = 5;

fn brotli_page(bytes: &[u8]) -> Result<Vec<u8>> {
    // A window no larger than the page keeps the encoder's buffers small (10 is brotli's
    // smallest; the files given siblings are larger anyway).
    let lgwin = (bytes.len().next_power_of_two().trailing_zeros()).clamp(10, 22) as u8;
    brotli_with(bytes, PAGE_QUALITY, lgwin)
}

fn brotli(bytes: &[u8]) -> Result<Vec<u8>> {
    // What a visitor's page loads gets quality 11: the UI's 263 KB entry script is 71.6 KB at 11
    // against 77.6 KB at 7, for 0.3 s once per UI build. Only a file of megabytes (a large file
    // in `static/`) would cost seconds at 11: on a 5.7 MB file quality 7 with the largest window
    // sends 5% more bytes than 9 in 40% of the time, and still 5% fewer than gzip -9 (BENCHMARKS.md).
    if bytes.len() > 1024 * 1024 {
        brotli_with(bytes, 7, 24)
    } else {
        brotli_with(bytes, 11, 22)
    }
}

fn brotli_with(bytes: &[u8], quality: u8, lgwin: u8) -> Result<Vec<u8>> {
    let quality = brotlic::Quality::new(quality).map_err(|e| anyhow::anyhow!("brotli quality {quality}: {e}"))?;
    let window = brotlic::WindowSize::new(lgwin).map_err(|e| anyhow::anyhow!("brotli window {lgwin}: {e}"))?;
    let bound = brotlic::compress_bound(bytes.len(), quality).context("brotli: no bound at this quality")?;
    let mut out = vec![0; bound];
    let len = brotlic::compress(bytes, &mut out, quality, window, brotlic::CompressionMode::Generic)
        .map_err(|e| anyhow::anyhow!("brotli: {e}"))?;
    out.truncate(len);
    Ok(out)
}

type Encoder = fn(&[u8]) -> Result<Vec<u8>>;

/// How hard a text file's siblings are compressed.
#[derive(Clone, Copy)]
pub enum Compression {
    /// Thousands of files rewritten on every build (pages, the search index's chunks), and the
    /// sitemap and feeds, which crawlers and feed readers fetch, never a visitor's page: fast
    /// settings, a few percent more bytes. (Quality 11 on the real site's 53 KB sitemap was the
    /// longest single task at the end of its build.)
    Many,
    /// What a visitor's page loads besides itself, made once per UI build or rarely (scripts,
    /// styles, the UI's text, images): the smallest bytes.
    Few,
}

impl Compression {
    /// Pages, the sitemap and the feeds are `Many`; any other file found on disk is `Few`.
    fn of(path: &Path) -> Self {
        if path.extension().is_some_and(|e| e == "html" || e == "xml") {
            Compression::Many
        } else {
            Compression::Few
        }
    }

    /// The `.gz` and `.br` encoders.
    fn encoders(self) -> [(&'static str, Encoder); 2] {
        match self {
            Compression::Many => [("gz", gzip_page), ("br", brotli_page)],
            Compression::Few => [("gz", gzip), ("br", brotli)],
        }
    }
}

/// The siblings of `file` (whose content is `bytes`) for the given encoders, both made at once:
/// after a one-page edit the search index is the largest file to compress. None for a file too
/// small to gain from them.
fn encode_siblings(file: &Path, bytes: &[u8], encoders: &[(&'static str, Encoder)]) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    if !worth_compressing(bytes.len()) {
        return Ok(Vec::new());
    }
    encoders
        .par_iter()
        .map(|(ext, encode)| Ok((sibling(file, ext), encode(bytes)?)))
        .collect()
}

fn write_all(files: &[(PathBuf, Vec<u8>)]) -> Result<()> {
    for (path, bytes) in files {
        std::fs::write(path, bytes).with_context(|| format!("Failed to write {}", path.display()))?;
    }
    Ok(())
}

/// Removes the siblings an earlier, larger version of `file` had: the server would send them in
/// place of the new text.
fn remove_siblings(file: &Path) -> Result<()> {
    for ext in COMPRESSED {
        let path = sibling(file, ext);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("Failed to remove {}", path.display()))
            }
            _ => {}
        }
    }
    Ok(())
}

/// A text file whose bytes changed, with its `.gz` and `.br` siblings made in memory.
pub struct Changed {
    path: PathBuf,
    bytes: Vec<u8>,
    /// Whether the file is one that gets siblings when it is large enough.
    compressed: bool,
    siblings: Vec<(PathBuf, Vec<u8>)>,
}

/// The file and its siblings to write, or None when `path` already holds `bytes`. It writes
/// nothing, so many run in parallel; the writes (`Changed::write`) go one after another, which the file
/// system serves faster than many writers creating files at once.
pub fn compress_if_changed(path: &Path, bytes: Vec<u8>, compression: Compression) -> Result<Option<Changed>> {
    let Some(mut changed) = changed_alone(path, bytes)? else {
        return Ok(None);
    };
    changed.siblings = encode_siblings(path, &changed.bytes, &compression.encoders())?;
    changed.compressed = true;
    Ok(Some(changed))
}

impl Changed {
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn write(&self) -> Result<()> {
        // Siblings after their original, so they are never older than it (`fresh`).
        write_file(&self.path, &self.bytes)?;
        if self.compressed && self.siblings.is_empty() {
            return remove_siblings(&self.path);
        }
        write_all(&self.siblings)
    }
}

/// The file alone to write (no siblings), or None when `path` already holds `bytes`.
pub fn changed_alone(path: &Path, bytes: Vec<u8>) -> Result<Option<Changed>> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(None);
    }
    Ok(Some(Changed {
        path: path.to_path_buf(),
        bytes,
        compressed: false,
        siblings: Vec::new(),
    }))
}

/// `write_if_changed` for a text file that also needs `.gz` and `.br` siblings, made from memory
/// (`compress_text_files` later finds them fresh).
pub fn write_with_siblings(path: &Path, bytes: Vec<u8>, compression: Compression) -> Result<bool> {
    let changed = compress_if_changed(path, bytes, compression)?;
    if let Some(changed) = &changed {
        changed.write()?;
    }
    Ok(changed.is_some())
}

/// Gives every text file below `dir` that is large enough up-to-date `.gz` and `.br` siblings, and
/// the others none; returns how many it made. The build's records (`_site.json`, ...) get none:
/// nothing serves them, and a static host's list of files would take their siblings for files of
/// their own.
pub fn compress_text_files(dir: &Path) -> Result<usize> {
    let files: Vec<PathBuf> = WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && is_text(e.path()))
        .map(|e| e.into_path())
        .collect();
    let made: Vec<usize> = files
        .par_iter()
        .map(|file| {
            let len = std::fs::metadata(file)
                .with_context(|| format!("Failed to read {}", file.display()))?
                .len();
            let record = (file.strip_prefix(dir).ok())
                .and_then(Path::to_str)
                .is_some_and(site_contract::is_build_record);
            if record || !worth_compressing(len as usize) {
                remove_siblings(file)?;
                return Ok(0);
            }
            let stale: Vec<(&'static str, Encoder)> = Compression::of(file)
                .encoders()
                .into_iter()
                .filter(|(ext, _)| !fresh(file, &sibling(file, ext)))
                .collect();
            if stale.is_empty() {
                return Ok(0);
            }
            let bytes = std::fs::read(file).with_context(|| format!("Failed to read {}", file.display()))?;
            write_all(&encode_siblings(file, &bytes, &stale)?)?;
            Ok(stale.len())
        })
        .collect::<Result<_>>()?;
    Ok(made.iter().sum())
}

/// Removes every `.gz` and `.br` file below `dir`: a build without them must not leave an older
/// build's, which the server would serve in place of the new text.
pub fn remove_compressed(dir: &Path) -> Result<()> {
    for entry in WalkDir::new(dir).into_iter().filter_map(|e| e.ok()) {
        if entry.file_type().is_file() && is_compressed_sibling(entry.path()) {
            std::fs::remove_file(entry.path())
                .with_context(|| format!("Failed to remove {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Removes files below `dir` that this build did not write, except below `keep_dirs` (another
/// build's output, such as the UI's `assets/`), and compressed siblings whose original is gone.
pub fn remove_stale(dir: &Path, written: &HashSet<PathBuf>, keep: impl Fn(&Path) -> bool) -> Result<usize> {
    let mut removed = 0;
    let files: Vec<PathBuf> = WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    let mut gone = HashSet::new();
    for file in files.iter().filter(|f| !is_compressed_sibling(f)) {
        let relative = file.strip_prefix(dir).expect("walked below dir");
        if !written.contains(relative) && !keep(relative) {
            std::fs::remove_file(file).with_context(|| format!("Failed to remove {}", file.display()))?;
            gone.insert(file.clone());
            removed += 1;
        }
    }
    for file in files.iter().filter(|f| is_compressed_sibling(f)) {
        let original = file.with_extension("");
        if gone.contains(&original) || !original.exists() {
            std::fs::remove_file(file).with_context(|| format!("Failed to remove {}", file.display()))?;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn siblings_decompress_to_the_original_and_are_only_made_once() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("a/index.html");
        let html = "<p>hello hello hello</p>".repeat(50);
        write_if_changed(&page, html.as_bytes()).unwrap();
        std::fs::write(dir.path().join("a/photo.png"), [0u8, 1, 2]).unwrap();
        assert_eq!(compress_text_files(dir.path()).unwrap(), 2);
        assert!(!dir.path().join("a/photo.png.gz").exists());
        let gz = std::fs::read(sibling(&page, "gz")).unwrap();
        let mut text = vec![0; html.len()];
        let len = libdeflater::Decompressor::new()
            .gzip_decompress(&gz, &mut text)
            .unwrap();
        assert_eq!(&text[..len], html.as_bytes());
        let mut out = Vec::new();
        let br = std::fs::read(sibling(&page, "br")).unwrap();
        brotlic::DecompressorReader::new(&br[..]).read_to_end(&mut out).unwrap();
        assert_eq!(out, html.as_bytes());
        assert_eq!(compress_text_files(dir.path()).unwrap(), 0);
        assert!(!write_if_changed(&page, html.as_bytes()).unwrap());
    }

    #[test]
    fn small_text_files_get_no_siblings_and_lose_the_ones_they_had() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("search/p1.json");
        write_if_changed(&small, &[b'1'; MIN_COMPRESSED_SIZE - 1]).unwrap();
        assert_eq!(compress_text_files(dir.path()).unwrap(), 0);
        assert!(!sibling(&small, "gz").exists() && !sibling(&small, "br").exists());

        let page = dir.path().join("a/index.html");
        let large = "<p>hello</p>".repeat(200);
        assert!(write_with_siblings(&page, large.into_bytes(), Compression::Many).unwrap());
        assert!(sibling(&page, "gz").exists() && sibling(&page, "br").exists());
        // Shrunk below the size, the page must not be sent as its old, larger siblings.
        assert!(write_with_siblings(&page, b"<p>hello</p>".to_vec(), Compression::Many).unwrap());
        assert!(!sibling(&page, "gz").exists() && !sibling(&page, "br").exists());

        let index = dir.path().join("search/index.json");
        std::fs::write(&index, "[1]".repeat(400)).unwrap();
        assert_eq!(compress_text_files(dir.path()).unwrap(), 2);
        std::fs::write(&index, "[1]").unwrap();
        assert_eq!(compress_text_files(dir.path()).unwrap(), 0);
        assert!(!sibling(&index, "gz").exists() && !sibling(&index, "br").exists());
    }

    #[test]
    fn the_builds_records_get_no_siblings_however_large() {
        let dir = tempfile::tempdir().unwrap();
        let facts = dir.path().join(site_contract::SITE_FACTS_FILE);
        std::fs::write(&facts, "[1]".repeat(4000)).unwrap();
        assert_eq!(compress_text_files(dir.path()).unwrap(), 0);
        assert!(!sibling(&facts, "gz").exists() && !sibling(&facts, "br").exists());
    }

    #[test]
    fn stale_files_and_their_siblings_go_kept_dirs_stay() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "old/index.html",
            "old/index.html.gz",
            "new/index.html",
            "assets/x.js",
            "new/index.html.br",
        ] {
            write_if_changed(&dir.path().join(f), b"x").unwrap();
        }
        let written = HashSet::from([PathBuf::from("new/index.html")]);
        assert_eq!(
            remove_stale(dir.path(), &written, |p| p.starts_with("assets")).unwrap(),
            1
        );
        assert!(!dir.path().join("old/index.html.gz").exists());
        assert!(dir.path().join("assets/x.js").exists() && dir.path().join("new/index.html.br").exists());
    }
}
