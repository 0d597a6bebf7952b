//! Writing `dist/`: files are written only when their bytes change (so a warm rebuild touches
//! little), stale files are removed, and every text file gets `.gz` and `.br` siblings.

use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

const TEXT_EXTENSIONS: &[&str] = &["html", "css", "js", "mjs", "json", "xml", "txt", "svg", "map"];
const COMPRESSED: &[&str] = &["gz", "br"];

/// Writes `bytes` to `path` unless it already holds them; true when it wrote.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("Failed to create {}", parent.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("Failed to write {}", path.display()))?;
    Ok(true)
}

fn is_text(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| TEXT_EXTENSIONS.contains(&e))
}

fn is_compressed_sibling(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| COMPRESSED.contains(&e))
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

fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

/// Brotli quality of pages. Every page is compressed again whenever it changes, and a site has
/// thousands: on this site's pages quality 11 spends ~25 ms a page for ~9% fewer bytes than
/// quality 6 (~0.5 ms), which still sends ~9% fewer bytes than gzip -9 (BENCHMARKS.md).
const PAGE_QUALITY: i32 = 6;

fn brotli_page(bytes: &[u8]) -> Result<Vec<u8>> {
    // A window no larger than the page keeps the encoder's buffers small; below 17 the brotli
    // crate falls back to a hasher with large tables, ten times slower.
    let lgwin = (bytes.len().next_power_of_two().trailing_zeros() as i32).clamp(17, 22);
    brotli_with(bytes, brotli::enc::BrotliEncoderParams { quality: PAGE_QUALITY, lgwin, size_hint: bytes.len(), ..Default::default() })
}

fn brotli(bytes: &[u8]) -> Result<Vec<u8>> {
    // Quality 11 costs seconds on the large search index for little gain over 9 on big files.
    // (Lower qualities of this crate send more bytes than gzip -9 on a multi-megabyte index.)
    let quality = if bytes.len() > 256 * 1024 { 9 } else { 11 };
    brotli_with(bytes, brotli::enc::BrotliEncoderParams { quality, lgwin: 22, ..Default::default() })
}

fn brotli_with(bytes: &[u8], params: brotli::enc::BrotliEncoderParams) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)?;
    Ok(out)
}

/// Gives every text file below `dir` up-to-date `.gz` and `.br` siblings; returns how many it made.
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
            let is_page = file.extension().is_some_and(|e| e == "html");
            let brotli = if is_page { brotli_page as fn(&[u8]) -> Result<Vec<u8>> } else { brotli };
            let stale: Vec<(PathBuf, fn(&[u8]) -> Result<Vec<u8>>)> = [("gz", gzip as fn(&[u8]) -> Result<Vec<u8>>), ("br", brotli)]
                .into_iter()
                .map(|(ext, encode)| (sibling(file, ext), encode))
                .filter(|(target, _)| !fresh(file, target))
                .collect();
            if stale.is_empty() {
                return Ok(0);
            }
            let bytes = std::fs::read(file).with_context(|| format!("Failed to read {}", file.display()))?;
            // Both encodings at once: after a one-page edit the search index is the largest file to compress.
            stale
                .par_iter()
                .map(|(target, encode)| {
                    std::fs::write(target, encode(&bytes)?).with_context(|| format!("Failed to write {}", target.display()))
                })
                .collect::<Result<Vec<()>>>()?;
            Ok(stale.len())
        })
        .collect::<Result<_>>()?;
    Ok(made.iter().sum())
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
        write_if_changed(&page, "<p>hello hello hello</p>".as_bytes()).unwrap();
        std::fs::write(dir.path().join("a/photo.png"), [0u8, 1, 2]).unwrap();
        assert_eq!(compress_text_files(dir.path()).unwrap(), 2);
        assert!(!dir.path().join("a/photo.png.gz").exists());
        let mut text = String::new();
        flate2::read::GzDecoder::new(&std::fs::read(sibling(&page, "gz")).unwrap()[..]).read_to_string(&mut text).unwrap();
        assert_eq!(text, "<p>hello hello hello</p>");
        let mut out = Vec::new();
        brotli::BrotliDecompress(&mut &std::fs::read(sibling(&page, "br")).unwrap()[..], &mut out).unwrap();
        assert_eq!(out, b"<p>hello hello hello</p>");
        assert_eq!(compress_text_files(dir.path()).unwrap(), 0);
        assert!(!write_if_changed(&page, "<p>hello hello hello</p>".as_bytes()).unwrap());
    }

    #[test]
    fn stale_files_and_their_siblings_go_kept_dirs_stay() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["old/index.html", "old/index.html.gz", "new/index.html", "assets/x.js", "new/index.html.br"] {
            write_if_changed(&dir.path().join(f), b"x").unwrap();
        }
        let written = HashSet::from([PathBuf::from("new/index.html")]);
        assert_eq!(remove_stale(dir.path(), &written, |p| p.starts_with("assets")).unwrap(), 1);
        assert!(!dir.path().join("old/index.html.gz").exists());
        assert!(dir.path().join("assets/x.js").exists() && dir.path().join("new/index.html.br").exists());
    }
}
