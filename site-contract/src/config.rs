//! `site-config.yaml`: the owner's site-wide settings, in the one type every reader parses (the
//! generator, the server's settings and the API's tests). README, "Configuration", describes each
//! field.

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The name of the settings file at the repository's root.
pub const SITE_CONFIG_FILE: &str = "site-config.yaml";

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub base_url: String,
    pub owner: Owner,
    pub languages: Vec<Language>,
    pub default_language: String,
    pub sidebar: Vec<MenuItem>,
    /// The top bar's sections, in order; the one at `/` is its home button.
    pub top_bar: Vec<NavLink>,
    /// The footer's links, after the owner's line.
    pub footer: Vec<NavLink>,
    #[serde(default)]
    pub collections: BTreeMap<String, Collection>,
    /// Routes whose pages get another frame than the full one (`form`, `bare`).
    #[serde(default)]
    pub frames: BTreeMap<String, Frame>,
    pub feed_url: String,
    /// Route prefixes whose pages end with the "education, not investment advice" notice.
    #[serde(default)]
    pub not_advice: Vec<String>,
    /// The link-preview image of pages without an `image:` of their own (the owner's image when
    /// absent).
    #[serde(default)]
    pub og_image: Option<PreviewImage>,
    /// Each page's own link-preview card (the generator's `model::cards`); absent, pages use
    /// `og_image`.
    #[serde(default)]
    pub cards: Option<CardsConfig>,
    /// Who provides the mobile app, as its legal pages name them (`{{operator.email}}` in content).
    #[serde(default)]
    pub operator: Option<Operator>,
}

/// The frame around a page's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Frame {
    /// Top bar, sidebar, page header and footer.
    #[default]
    Full,
    /// The member forms: no sidebar and no page header.
    Form,
    /// The app's legal and support pages: the text alone, no scripts.
    Bare,
}

/// The app's provider and how to reach them: the legal pages must name a real one.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Operator {
    pub name: String,
    pub email: String,
    pub postal_address: String,
}

/// The link-preview cards drawn for each page (README "Writing content").
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CardsConfig {
    /// `false` keeps the section but draws no card: pages use `og_image`.
    #[serde(default = "enabled")]
    pub enabled: bool,
    /// The font file each language's cards are drawn with, by language code, relative to the
    /// site's folder.
    pub fonts: BTreeMap<String, String>,
    pub colors: CardColors,
}

fn enabled() -> bool {
    true
}

/// The cards' colours, CSS hex colours such as `#1f5fbf` (the stylesheet's light palette).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CardColors {
    pub background: String,
    pub text: String,
    pub muted: String,
    pub accent: String,
}

/// An image for link previews (`og:image`): a file of `static/` and its size in pixels.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PreviewImage {
    /// `/images/name.png`, a file under `static/`.
    pub src: String,
    pub width: u32,
    pub height: u32,
}

impl PreviewImage {
    /// Wide enough for a large preview card (Twitter/X shows those at about 2:1).
    pub fn is_wide(&self) -> bool {
        u64::from(self.width) * 2 >= u64::from(self.height) * 3
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Owner {
    pub name: String,
    pub image: String,
    #[serde(default)]
    pub links: Vec<ContactLink>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContactLink {
    /// Key under `contact.` in locales/*/translation.json, the link's visible label.
    pub key: String,
    pub url: String,
    pub icon: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// The code used in paths and locale folders: `en`, `zh`, `ja`.
    pub code: String,
    /// The BCP 47 tag for `lang`, `hreflang` and `Content-Language`: `zh-Hant` for Traditional Chinese.
    pub tag: String,
    pub og_locale: String,
    /// How fast its readers read: the articles' reading time.
    pub reading: ReadingSpeed,
    /// Text written without spaces between words gets its phrase boundaries marked, so lines
    /// break between phrases in every browser (`japanese`).
    #[serde(default)]
    pub phrase_breaks: Option<PhraseModel>,
}

/// The phrase model of a language (`phrase_breaks:`): the generator marks its boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PhraseModel {
    Japanese,
}

/// Silent reading speeds; text in Chinese and Japanese is counted by characters (it has no spaces
/// between words), the Latin words in any text by words.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReadingSpeed {
    pub words_per_minute: usize,
    pub characters_per_minute: usize,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MenuItem {
    #[serde(rename = "titleKey")]
    pub title_key: String,
    pub link: String,
    pub icon: String,
    #[serde(rename = "subMenu", default, skip_serializing_if = "Vec::is_empty")]
    pub sub_menu: Vec<MenuItem>,
}

/// A link of the top bar or the footer to one of the site's pages.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NavLink {
    /// Its label: a key under `topbar.` (top bar) or `footer.` (footer) in locales/*/translation.json.
    pub key: String,
    /// The English route of the page it links to, such as `/investment-basics`.
    pub link: String,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Collection {
    /// Whether each entry gets a page of its own (notes, web projects) or only a place in the list.
    pub entry_pages: bool,
    /// Translation key of the message shown for an unknown entry slug.
    #[serde(default)]
    pub not_found_key: Option<String>,
    /// Keep single line breaks as `<br>` (the web projects' light markup).
    #[serde(default)]
    pub line_breaks: bool,
}

impl SiteConfig {
    /// The settings in `text`, checked; a YAML or type error keeps its line and column.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let config: SiteConfig = serde_yaml::from_str(text).map_err(|e| ConfigError {
            line: e.location().map(|l| (l.line(), l.column())),
            message: e.to_string(),
        })?;
        config.check().map_err(|e| ConfigError {
            line: None,
            message: e.to_string(),
        })?;
        Ok(config)
    }

    /// The settings in the file at `path`, for readers that only need to report where it failed.
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
        Self::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    fn check(&self) -> anyhow::Result<()> {
        if !self.languages.iter().any(|l| l.code == self.default_language) {
            bail!("default_language `{}` is not one of `languages`", self.default_language);
        }
        self.check_cards()
    }

    fn check_cards(&self) -> anyhow::Result<()> {
        let Some(cards) = self.cards.as_ref().filter(|c| c.enabled) else {
            return Ok(());
        };
        if let Some(lang) = self.language_codes().find(|code| !cards.fonts.contains_key(*code)) {
            bail!("cards.fonts has no font file for `{lang}`: name one for every language of `languages`");
        }
        let colors = &cards.colors;
        for (name, value) in [
            ("background", &colors.background),
            ("text", &colors.text),
            ("muted", &colors.muted),
            ("accent", &colors.accent),
        ] {
            let hex = value.strip_prefix('#').unwrap_or_default();
            if !matches!(hex.len(), 3 | 6) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                bail!("cards.colors.{name} `{value}` is not a hex colour such as `#1f5fbf`");
            }
        }
        Ok(())
    }

    pub fn language(&self, code: &str) -> &Language {
        self.languages
            .iter()
            .find(|l| l.code == code)
            .expect("language codes come from the config")
    }

    /// The default language's place in `languages` (`parse` checked that it is there).
    pub fn default_index(&self) -> usize {
        self.languages
            .iter()
            .position(|l| l.code == self.default_language)
            .expect("checked by parse")
    }

    /// The frame of the page at `route` (an English route such as `/login`).
    pub fn frame(&self, route: &str) -> Frame {
        self.frames.get(route).copied().unwrap_or_default()
    }

    pub fn language_codes(&self) -> impl Iterator<Item = &str> {
        self.languages.iter().map(|l| l.code.as_str())
    }

    /// The URL path of `route` (an English route such as `/notes`) in `lang`.
    pub fn localized_path(&self, route: &str, lang: &str) -> String {
        crate::localized_path(route, lang, &self.default_language)
    }
}

/// Why `site-config.yaml` could not be read: the message, and where in the file when known.
#[derive(Debug)]
pub struct ConfigError {
    /// Line and column, both from 1.
    pub line: Option<(usize, usize)>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::{PreviewImage, SiteConfig};

    #[test]
    fn only_wide_images_get_the_large_card() {
        let image = |width, height| PreviewImage {
            src: "/images/x.png".into(),
            width,
            height,
        };
        assert!(image(1200, 630).is_wide());
        assert!(image(320, 180).is_wide());
        assert!(!image(400, 400).is_wide());
        assert!(!image(500, 400).is_wide());
    }

    /// The repository's site-config.yaml with its `cards:` section replaced by `cards`.
    fn with_cards(cards: &str) -> Result<SiteConfig, super::ConfigError> {
        let text = include_str!("../../site-config.yaml");
        let start = text.find("\ncards:\n").expect("the site has cards") + 1;
        let end = start + text[start..].find("\n\n").unwrap_or(text.len() - start);
        SiteConfig::parse(&format!("{}{cards}{}", &text[..start], &text[end..]))
    }

    #[test]
    fn cards_need_a_font_for_every_language_and_hex_colours() {
        let colors = "  colors: { background: \"#fff\", text: \"#1c2330\", muted: \"#566173\", accent: \"#1f5fbf\" }";
        let fonts = |langs: &[&str]| langs.iter().map(|l| format!("    {l}: f.ttf\n")).collect::<String>();
        with_cards(&format!("cards:\n  fonts:\n{}{colors}", fonts(&["en", "zh", "ja"]))).unwrap();
        let error = with_cards(&format!("cards:\n  fonts:\n{}{colors}", fonts(&["en", "zh"]))).unwrap_err();
        assert!(
            error.message.contains("cards.fonts has no font file for `ja`"),
            "{error}"
        );
        let red = colors.replace("#fff", "red");
        let error = with_cards(&format!("cards:\n  fonts:\n{}{red}", fonts(&["en", "zh", "ja"]))).unwrap_err();
        assert!(error.message.contains("cards.colors.background `red`"), "{error}");
        // Turned off, the section is not checked further.
        with_cards(&format!("cards:\n  enabled: false\n  fonts: {{}}\n{colors}")).unwrap();
    }

    #[test]
    fn the_repository_settings_parse() {
        let config = SiteConfig::parse(include_str!("../../site-config.yaml")).expect("site-config.yaml");
        assert_eq!(config.languages[config.default_index()].code, config.default_language);
    }

    #[test]
    fn a_default_language_outside_the_list_is_refused() {
        let text = include_str!("../../site-config.yaml").replace("default_language: en", "default_language: fr");
        let error = SiteConfig::parse(&text).unwrap_err();
        assert!(error.message.contains("default_language `fr`"), "{error}");
    }

    #[test]
    fn an_unknown_field_is_refused_with_its_place() {
        let text = format!("{}\nfeed_ur1: x\n", include_str!("../../site-config.yaml"));
        let error = SiteConfig::parse(&text).unwrap_err();
        assert!(error.message.contains("feed_ur1"), "{error}");
        assert!(error.line.is_some());
    }
}
