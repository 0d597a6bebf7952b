//! The API's languages are site-config.yaml's (the one list the generator, the server and the UI
//! read): this writes `$OUT_DIR/languages.rs`, each language's code, BCP 47 tag, page prefix and
//! its `locales/<code>/api.json` compiled in (`i18n.rs` includes it). A language without an
//! `api.json` gets the default language's messages.

use std::fmt::Write;
use std::path::{Path, PathBuf};

#[derive(serde::Deserialize)]
struct Config {
    languages: Vec<Language>,
    default_language: String,
}

#[derive(serde::Deserialize)]
struct Language {
    code: String,
    tag: String,
}

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("api/ is in the repository");
    let config_path = repo.join("site-config.yaml");
    let locales = repo.join("locales");
    println!("cargo:rerun-if-changed={}", config_path.display());
    println!("cargo:rerun-if-changed={}", locales.display());
    let text = std::fs::read_to_string(&config_path).unwrap_or_else(|e| panic!("{}: {e}", config_path.display()));
    let config: Config = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", config_path.display()));
    let default = config
        .languages
        .iter()
        .position(|l| l.code == config.default_language)
        .unwrap_or_else(|| panic!("{}: default_language is not one of languages", config_path.display()));
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
