//! `site-config.yaml`: the owner's site-wide settings. The type is site-contract's, the one every
//! reader of the file parses; this reads it with the generator's diagnostics.

use crate::diagnostics::Diagnostic;
use anyhow::{Context, Result};
use std::path::Path;

pub use site_contract::config::{CardsConfig, MenuItem, Operator, PreviewImage, ReadingSpeed, SiteConfig};
pub use site_contract::localized_path;

/// The settings at `path`; a mistake is a diagnostic at its line and column when known.
pub fn load(path: &Path) -> Result<SiteConfig> {
    let text = std::fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
    SiteConfig::parse(&text).map_err(|e| match e.line {
        Some((line, column)) => Diagnostic::at_column(path, line, column, e.message).into(),
        None => Diagnostic::in_file(path, e.message).into(),
    })
}
