//! Processed photos kept between builds, in one folder per source under the hash of the
//! source's bytes and of the settings that made them: a changed photo, or changed widths or
//! qualities, get another folder. Losing the cache only makes a build slower.

use super::{hex, Photo};
use site_photos::WIDTHS;
use std::path::Path;

/// Changes whenever the files made from a source would change (the encoders' settings).
const SETTINGS: &str = "photos-1 webp80 jpeg82 lanczos3";

pub(super) fn key(source: &[u8]) -> String {
    let mut keyed = format!("{SETTINGS} {WIDTHS:?}\n").into_bytes();
    keyed.extend_from_slice(source);
    hex(&keyed)[..32].to_string()
}

/// The photo kept under `key`, with its files; None when any part is missing or unreadable.
pub(super) fn read(dir: &Path, key: &str) -> Option<Photo> {
    let folder = dir.join(key);
    let mut photo: Photo = serde_json::from_slice(&std::fs::read(folder.join("photo.json")).ok()?).ok()?;
    for variant in &photo.variants {
        for name in [&variant.webp, &variant.fallback] {
            let bytes = std::fs::read(folder.join(name)).ok()?;
            photo.files.push((name.clone(), bytes));
        }
    }
    Some(photo)
}

/// Keeps `photo` under `key`: its files, then `photo.json`, which `read` needs, last, in a
/// folder renamed into place so a build reading beside this one never sees half of it.
pub(super) fn write(dir: &Path, key: &str, photo: &Photo) {
    let partial = dir.join(format!("{key}.partial-{}", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(&partial)?;
        for (name, bytes) in &photo.files {
            std::fs::write(partial.join(name), bytes)?;
        }
        std::fs::write(partial.join("photo.json"), serde_json::to_vec(photo)?)?;
        std::fs::rename(&partial, dir.join(key))
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&partial);
    }
}
