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

/// `{"build": 7, "errors": null}` after a good build, else the errors.
#[derive(Debug, Serialize, Deserialize)]
pub struct DevBuild {
    /// Counts builds, so every outcome is a change of the file.
    pub build: u64,
    pub errors: Option<Vec<BuildError>>,
}

impl DevBuild {
    /// The status in `dist_dir`, None when there is none (no watcher) or it cannot be read.
    pub fn read(dist_dir: &Path) -> Option<DevBuild> {
        let bytes = std::fs::read(dist_dir.join(DEV_BUILD_FILE)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }
}
