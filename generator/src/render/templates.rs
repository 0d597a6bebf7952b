//! The Tera templates of `generator/templates/` with the site's functions: `t()` for UI text,
//! `island()` for the React islands and `island_text()` for the text they hydrate with.

use crate::model::locales::{Locales, TranslateFn};
use crate::render::islands::{IslandCalls, IslandFn, IslandTextFn};
use anyhow::{bail, Result};
use std::collections::HashMap;
use std::error::Error as _;
use std::path::Path;
use std::sync::Arc;
use tera::Tera;

/// A Tera error with its causes, which hold the useful part (the template and line).
pub fn describe(error: &tera::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!("\nReason: {cause}"));
        source = cause.source();
    }
    text
}

/// Escapes what can break out of text or a quoted attribute; Tera's default also escapes `/`,
/// which bloats every URL on the page for nothing.
fn escape_html(text: &str) -> String {
    html_escape::encode_quoted_attribute(text).into_owned()
}

/// The Tera function `url(route="/notes", lang=lang)`: a route's path in a language.
struct UrlFn {
    default_language: String,
}

impl tera::Function for UrlFn {
    fn call(&self, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
        let route = args
            .get("route")
            .and_then(|v| v.as_str())
            .ok_or("url() needs route=\"/...\"")?;
        let lang = args
            .get("lang")
            .and_then(|v| v.as_str())
            .ok_or("url() needs lang=lang")?;
        Ok(tera::Value::String(crate::model::config::localized_path(
            route,
            lang,
            &self.default_language,
        )))
    }

    fn is_safe(&self) -> bool {
        false
    }
}

pub fn load(dir: &Path, locales: Arc<Locales>, islands: Arc<IslandCalls>, default_language: &str) -> Result<Tera> {
    if !dir.is_dir() {
        bail!("the templates folder {} does not exist", dir.display());
    }
    let glob = format!("{}/**/*.html", dir.display());
    let mut tera = match Tera::new(&glob) {
        Ok(tera) => tera,
        Err(e) => bail!("Failed to load the templates in {}: {}", dir.display(), describe(&e)),
    };
    tera.autoescape_on(vec![".html"]);
    tera.set_escape_fn(escape_html);
    tera.register_function("island_text", IslandTextFn::new(&locales));
    tera.register_function("t", TranslateFn(locales));
    tera.register_function("island", IslandFn(islands));
    tera.register_function(
        "url",
        UrlFn {
            default_language: default_language.to_string(),
        },
    );
    Ok(tera)
}
