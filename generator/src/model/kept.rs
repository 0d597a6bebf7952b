//! What the build makes from its sources and keeps between builds: one folder of files per key,
//! the key a hash of everything that changes the files (the processed photos, the link-preview
//! cards), or one file holding a map, read only when its fingerprint (what the entries depend on
//! besides their keys) is this build's (the islands' HTML, the pages' rendered Markdown). Each is
//! written whole under another name and renamed into place, so a build reading beside the one
//! writing it never sees half of it. Losing it only makes a build slower, so neither reading nor
//! writing ever fails a build.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The file `name` kept under `key`, if any.
pub fn read(dir: &Path, key: &str, name: &str) -> Option<Vec<u8>> {
    std::fs::read(dir.join(key).join(name)).ok()
}

/// Keeps `files` (names and bytes) under `key`.
pub fn write<'a>(dir: &Path, key: &str, files: impl IntoIterator<Item = (&'a str, &'a [u8])>) {
    let partial = dir.join(format!("{key}.partial-{}", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(&partial)?;
        for (name, bytes) in files {
            std::fs::write(partial.join(name), bytes)?;
        }
        std::fs::rename(&partial, dir.join(key))
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&partial);
    }
}

/// A map kept in one file.
#[derive(Serialize, Deserialize)]
pub struct MapFile<M> {
    pub fingerprint: String,
    pub entries: M,
}

/// The entries of `file`, or none when it is missing, unreadable or of another fingerprint.
pub fn read_map<V: DeserializeOwned>(file: &Path, fingerprint: &str) -> HashMap<String, V> {
    std::fs::read(file)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<MapFile<HashMap<String, V>>>(&bytes).ok())
        .filter(|kept| kept.fingerprint == fingerprint)
        .map(|kept| kept.entries)
        .unwrap_or_default()
}

/// Replaces `file` with `entries` (a map of key to value).
pub fn write_map(file: &Path, fingerprint: &str, entries: &impl Serialize) {
    let kept = MapFile {
        fingerprint: fingerprint.to_string(),
        entries,
    };
    let partial = file.with_extension(format!("{}.partial", std::process::id()));
    let written = std::fs::File::create(&partial).is_ok_and(|f| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, f);
        serde_json::to_writer(&mut out, &kept).is_ok() && std::io::Write::flush(&mut out).is_ok()
    });
    if !written || std::fs::rename(&partial, file).is_err() {
        let _ = std::fs::remove_file(&partial);
    }
}
