//! What the build makes from its sources and keeps between builds: one folder of files per key,
//! the key a hash of everything that changes the files (the processed photos, the link-preview
//! cards), or one file holding a map, read only when its fingerprint (what the entries depend on
//! besides their keys) is this build's (the islands' HTML, the pages' rendered Markdown). Each is
//! written whole under another name and renamed into place, so a build reading beside the one
//! writing it never sees half of it. Losing it only makes a build slower, so neither reading nor
//! writing ever fails a build.
//!
//! The caches live in the temp dir, which other users of the machine share. What is read must be
//! this user's (what another user put where a cache goes would otherwise end up in this site's
//! pages), and what is written goes into a file or folder the build has just created, never one
//! that was there (a link there could point at any of this user's files).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The file `name` kept under `key`, if any.
pub fn read(dir: &Path, key: &str, name: &str) -> Option<Vec<u8>> {
    let folder = dir.join(key);
    (ours(dir) && ours(&folder)).then(|| std::fs::read(folder.join(name)).ok())?
}

/// Keeps `files` (names and bytes) under `key`.
pub fn write<'a>(dir: &Path, key: &str, files: impl IntoIterator<Item = (&'a str, &'a [u8])>) {
    let partial = dir.join(format!("{key}.partial-{}", std::process::id()));
    // What another build (a thread of this process, in tests) or another user is writing there
    // is theirs: only a folder this call created is cleaned up.
    if std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::create_dir(&partial))
        .is_err()
    {
        return;
    }
    let written = (|| -> std::io::Result<()> {
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
    (ours(file).then(|| std::fs::read(file).ok()).flatten())
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
    // As in `write`: only a file this call created is cleaned up.
    let Ok(created) = std::fs::File::options().write(true).create_new(true).open(&partial) else {
        return;
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 20, created);
    let written = serde_json::to_writer(&mut out, &kept).is_ok() && std::io::Write::flush(&mut out).is_ok();
    drop(out);
    if !written || std::fs::rename(&partial, file).is_err() {
        let _ = std::fs::remove_file(&partial);
    }
}

/// Whether `path` is this user's own (not a link): `owned_by` the effective user.
fn ours(path: &Path) -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    owned_by(path, unsafe { libc::geteuid() })
}

fn owned_by(path: &Path, user: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.uid() == user && !meta.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn only_what_this_user_made_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("map");
        write_map(&file, "f", &HashMap::from([("k", "v")]));
        assert_eq!(read_map::<String>(&file, "f")["k"], "v");
        let me = std::fs::metadata(&file).unwrap().uid();
        assert!(owned_by(&file, me));
        assert!(!owned_by(&file, me + 1), "another user's file");
        // A link is not read, even to this user's own file.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(read_map::<String>(&link, "f").is_empty());
        write(dir.path(), "key", [("a", b"bytes".as_slice())]);
        assert_eq!(read(dir.path(), "key", "a").as_deref(), Some(b"bytes".as_slice()));
        std::os::unix::fs::symlink(dir.path().join("key"), dir.path().join("linked")).unwrap();
        assert_eq!(read(dir.path(), "linked", "a"), None);
    }

    #[test]
    fn builds_writing_one_cache_at_once_leave_one_whole_file_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("map");
        std::thread::scope(|scope| {
            for writer in 0..8 {
                let file = &file;
                scope.spawn(move || {
                    for round in 0..25 {
                        let value = format!("{writer}-{round}-{}", "x".repeat(50_000));
                        write_map(file, "f", &HashMap::from([("k", value)]));
                        write(file.parent().unwrap(), "key", [("a", b"bytes".as_slice())]);
                    }
                });
            }
        });
        let map = read_map::<String>(&file, "f");
        assert!(map["k"].ends_with(&"x".repeat(50_000)), "a whole file");
        assert_eq!(read(dir.path(), "key", "a").as_deref(), Some(b"bytes".as_slice()));
        let left: Vec<_> = (std::fs::read_dir(dir.path()).unwrap())
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.contains("partial"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_cache_is_never_written_through_what_was_there() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("someone-elses");
        std::fs::write(&target, "kept as it was").unwrap();
        let file = dir.path().join("map");
        let partial = file.with_extension(format!("{}.partial", std::process::id()));
        std::os::unix::fs::symlink(&target, &partial).unwrap();
        write_map(&file, "f", &HashMap::from([("k", "v")]));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept as it was");
        assert!(read_map::<String>(&file, "f").is_empty(), "nothing written");
        assert!(partial.is_symlink(), "what was there is not this build's to remove");
    }
}
