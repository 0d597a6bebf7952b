//! The API's languages are site-config.yaml's, read with site-contract's `SiteConfig` (the one
//! schema of that file): this writes `$OUT_DIR/languages.rs`, each language's code, BCP 47 tag,
//! page prefix and its `locales/<code>/api.json` compiled in (`i18n.rs` includes it). A language without an
//! `api.json` gets the default language's messages.

use site_contract::SiteConfig;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("api/ is in the repository");
    let config_path = repo.join("site-config.yaml");
    let locales = repo.join("locales");
    println!("cargo:rerun-if-changed={}", config_path.display());
    println!("cargo:rerun-if-changed={}", locales.display());
    let config = SiteConfig::load(&config_path).unwrap_or_else(|e| panic!("{e:#}"));
    let default = config.default_index();
    let catalog = |code: &str| -> PathBuf { locales.join(code).join("api.json") };
    let mut out = String::from("pub(crate) const LANGUAGES: &[LanguageEntry] = &[\n");
    for (i, language) in config.languages.iter().enumerate() {
        let own = catalog(&language.code);
        println!("cargo:rerun-if-changed={}", own.display());
        let file = if own.exists() {
            own
        } else {
            catalog(&config.languages[default].code)
        };
        let prefix = if i == default {
            String::new()
        } else {
            format!("/{}", language.code)
        };
        writeln!(
            out,
            "    LanguageEntry {{ code: {:?}, tag: {:?}, page_prefix: {:?}, catalog: include_str!({:?}) }},",
            language.code, language.tag, prefix, file
        )
        .unwrap();
    }
    writeln!(out, "];\npub(crate) const DEFAULT_LANGUAGE: usize = {default};").unwrap();
    let target = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("languages.rs");
    std::fs::write(target, out).unwrap();
}
