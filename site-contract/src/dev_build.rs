//! `dist/.dev-build.json`: `site watch`'s outcome of its last build, written after every other
//! file of the build, which the dev server reloads on and shows open pages (never served).

use serde::{Deserialize, Serialize};
use std::path::Path;

pub const DEV_BUILD_FILE: &str = ".dev-build.json";

/// One error of a failed build as the overlay shows it: `content/x.en.md:12: message`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildError {
    /// None for a line that names no file (a heading such as "broken internal links:").
    pub file: Option<String>,
    pub line: Option<usize>,
    pub message: String,
}

/// `{"build": 7, "errors": null, "files": [...]}` after a good build, else the errors.
#[derive(Debug, Serialize, Deserialize)]
pub struct DevBuild {
    /// Counts builds, so every outcome is a change of the file.
    pub build: u64,
    pub errors: Option<Vec<BuildError>>,
    /// The files below `dist/` a one-page rebuild wrote or removed; None after a whole build.
    /// The server reads these again rather than trusting its own file watch, which loses events
    /// on a large site (its kernel queue overflows with the opens of the server's own reads).
    #[serde(default)]
    pub files: Option<Vec<String>>,
}

impl DevBuild {
    /// The status in `dist_dir`, None when there is none (no watcher) or it cannot be read.
    pub fn read(dist_dir: &Path) -> Option<DevBuild> {
        let bytes = std::fs::read(dist_dir.join(DEV_BUILD_FILE)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }
}
