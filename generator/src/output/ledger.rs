//! The files a build writes below `dist/`: written only when their bytes changed, and counted,
//! so a rebuild can say what changed and what is stale.

use crate::output::files::write_if_changed;
use anyhow::Result;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The files of this build below `dist/` (any other is stale) and how many of them changed.
pub(crate) struct Written {
    pub dir: PathBuf,
    pub files: HashSet<PathBuf>,
    pub changed: usize,
    /// The files whose bytes changed, relative to `dir`: what `site watch` tells the dev server
    /// to read again.
    pub changed_files: Vec<PathBuf>,
    /// Text files get `.gz` and `.br` siblings; not in a `--dev` build, which only a browser on
    /// this machine reads, and where compressing the large files (lists, feeds, the search
    /// index) again would be most of a one-page rebuild.
    pub compress: bool,
}

impl Written {
    pub fn new(dir: &Path, compress: bool) -> Self {
        Written {
            dir: dir.to_path_buf(),
            files: HashSet::new(),
            changed: 0,
            changed_files: Vec::new(),
            compress,
        }
    }

    /// Writes `relative` below `dist/` unless it holds these bytes already.
    pub fn write(&mut self, relative: PathBuf, bytes: &[u8]) -> Result<()> {
        if write_if_changed(&self.dir.join(&relative), bytes)? {
            self.record_changed(vec![self.dir.join(&relative)]);
        }
        self.files.insert(relative);
        Ok(())
    }

    /// Counts and keeps the files (paths below `dir`) a writer changed.
    pub fn record_changed(&mut self, paths: Vec<PathBuf>) {
        self.changed += paths.len();
        let relative = paths
            .into_iter()
            .filter_map(|p| p.strip_prefix(&self.dir).ok().map(Path::to_path_buf));
        self.changed_files.extend(relative);
    }
}

/// Removes a file of `dist/`, which may be gone already.
pub(crate) fn remove_file(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("Failed to remove {}", path.display())))
        }
        _ => Ok(()),
    }
}
