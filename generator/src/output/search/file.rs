//! One file of the index: its name, its bytes, and whether they changed since the last build.

use sha2::{Digest, Sha256};

/// One file of a language's index: its name, a digest of its bytes (the language's version is
/// made from them) and its bytes until they are written.
pub(super) struct IndexFile {
    pub(super) path: String,
    pub(super) digest: [u8; 32],
    pub(super) bytes: Option<Vec<u8>>,
}

impl IndexFile {
    pub(super) fn new(path: String, bytes: Vec<u8>) -> Self {
        IndexFile {
            path,
            digest: Sha256::digest(&bytes).into(),
            bytes: Some(bytes),
        }
    }

    /// Takes `new`'s place; nothing to write when its bytes are those already written.
    pub(super) fn replace(&mut self, new: IndexFile) {
        if self.path != new.path || self.digest != new.digest || self.bytes.is_some() {
            *self = new;
        }
    }
}

/// `file` as the `n`th of `files`, which holds files `0..n` at least.
pub(super) fn put(files: &mut Vec<IndexFile>, n: usize, file: IndexFile) {
    match files.get_mut(n) {
        Some(old) => old.replace(file),
        None => files.push(file),
    }
}

/// How many times its base size a file of the index is made on an index of `units` of that base
/// size: 1 up to `files` files, then the square root of the excess, so a large site gets far
/// fewer, larger files (every file costs the build a create, and a `.gz` and `.br` beside it),
/// while the bytes a query reads grow only as the square root of the site.
pub(super) fn growth(units: usize, files: usize) -> f64 {
    (units as f64 / files as f64).sqrt().max(1.0)
}
