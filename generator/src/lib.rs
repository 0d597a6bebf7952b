//! The site generator: `site-config.yaml`, `content/` and `locales/` in, `dist/` out.

pub mod config;
pub mod content;
pub mod layout;
pub mod locales;
pub mod markdown;
