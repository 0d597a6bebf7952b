//! What the build makes from its sources and keeps between builds (the processed photos, the
//! link-preview cards): one folder of files per key, the key a hash of everything that changes
//! the files. A folder is written whole under another name and renamed into place, so a build
//! reading beside the one writing it never sees half of it. Losing the folder only makes a build
//! slower.

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
