//! Processed photos kept between builds (`model::kept`), under the hash of the source's bytes
//! and of the settings that made them: a changed photo, or changed widths or qualities, get
//! another folder.

use super::{hex, Photo};
use crate::model::kept;
use site_photos::WIDTHS;
use std::path::Path;

/// Changes whenever the files made from a source would change (the encoders' settings).
const SETTINGS: &str = "photos-1 webp80 jpeg82 lanczos3";

/// The file that lists a kept photo's widths and names.
const PHOTO_JSON: &str = "photo.json";

pub(super) fn key(source: &[u8]) -> String {
    let mut keyed = format!("{SETTINGS} {WIDTHS:?}\n").into_bytes();
    keyed.extend_from_slice(source);
    hex(&keyed)[..32].to_string()
}

/// The photo kept under `key`, with its files; None when any part is missing or unreadable.
pub(super) fn read(dir: &Path, key: &str) -> Option<Photo> {
    let mut photo: Photo = serde_json::from_slice(&kept::read(dir, key, PHOTO_JSON)?).ok()?;
    for variant in &photo.variants {
        for name in [&variant.webp, &variant.fallback] {
            let bytes = kept::read(dir, key, name)?;
            photo.files.push((name.clone(), bytes));
        }
    }
    Some(photo)
}

/// Keeps `photo` under `key`: its files and `photo.json`, which `read` needs.
pub(super) fn write(dir: &Path, key: &str, photo: &Photo) {
    let Ok(listing) = serde_json::to_vec(photo) else {
        return;
    };
    let files = (photo.files.iter()).map(|(name, bytes)| (name.as_str(), bytes.as_slice()));
    kept::write(dir, key, files.chain([(PHOTO_JSON, listing.as_slice())]));
}
