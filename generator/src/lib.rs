//! The site generator: `site-config.yaml`, `content/` and `locales/` in, `dist/` out.
//!
//! The modules, each on the ones before it: `diagnostics` (what the checks find, as data),
//! `model` (the site as its sources describe it), `output` (the files of `dist/` and their
//! formats), `render` (templates and islands), `plan` (the one render plan `build`, `check` and
//! `watch` run), `dev` (`site watch`), `authoring` (`site new`, `site translated`), `publish` (`site publish`).

mod authoring;
mod dev;
mod diagnostics;
mod model;
mod output;
mod plan;
pub mod publish;
mod render;

pub use authoring::new_page::{create as new_page, today};
pub use dev::{watch, STATUS_FILE};
pub use diagnostics::{describe_error, of_error as diagnostics_of, Diagnostic, Diagnostics};
pub use model::config::SiteConfig;
pub use model::site::Site;
pub use model::site_values::placeholder_warnings;
pub use output::files::MIN_COMPRESSED_SIZE;
pub use plan::{build, check, BuildOptions, BuildReport, CheckReport, Resident};
pub use site_contract::page_file;

/// A page file's front matter and body, as the build reads them (the examples test reads the
/// worked examples' figures from the front matter).
pub mod content {
    pub use crate::model::content::{parse_page, FrontMatter, PageFile};
}

/// The Markdown renderer, as the build renders each page.
pub mod markdown {
    pub use crate::model::markdown::phrases::{model as phrase_model, PhraseModel};
    pub use crate::model::markdown::{render, MarkdownError, RenderOptions, Rendered};
}

/// Where each page's translations stand, and recording that one is up to date.
pub mod translations {
    pub use crate::authoring::translated::record;
    pub use crate::model::translations::{table, Status, Translation};
}
