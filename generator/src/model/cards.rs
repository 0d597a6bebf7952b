//! Each page's link-preview card (`cards:` in site-config.yaml, README "Writing content"): its
//! title, its section and the site's name drawn in its language's font by `site-cards`, a PNG
//! under `assets/cards/` named by the hash of everything that changes its pixels. The page's
//! `og:image` names it (`render::views`) and the plan's `Job::Cards` writes it; a card whose hash
//! is in the cache (`model::kept`, beside the photos) is read rather than drawn again.

use crate::diagnostics::Diagnostic;
use crate::model::config::{CardsConfig, PreviewImage, SiteConfig};
use crate::model::kept;
use crate::model::layout::Frame;
use crate::model::locales::Locales;
use crate::model::pages::Page;
use anyhow::Result;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use site_cards::{Card, Fonts, Palette};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where the cards are written below `dist/`.
pub const CARD_DIR: &str = "assets/cards";
/// The kept card's file in its cache folder.
const CARD_FILE: &str = "card.png";

/// A page's card and the file it is written as (below `CARD_DIR`).
pub struct CardFile {
    pub name: String,
    pub card: Card,
    /// The cache key: the hash of the card's text, font file, colours and layout.
    key: String,
}

/// The fonts and colours of the site's cards, loaded once per build.
pub struct Cards {
    fonts: Fonts,
    /// The font file of each language, as `fonts` knows it.
    font_of: BTreeMap<String, String>,
    palette: Palette,
    cache: Option<PathBuf>,
    drawn: AtomicUsize,
}

impl Cards {
    /// The cards of `config`, or None when it has none; each font file read once. A missing or
    /// unreadable font file is an error naming its setting.
    pub fn load(root: &Path, config: &SiteConfig, cache: Option<&Path>) -> Result<Option<Cards>> {
        let Some(cards) = config.cards.as_ref().filter(|c| c.enabled) else {
            return Ok(None);
        };
        let font_of: BTreeMap<String, String> = (cards.fonts.iter())
            .map(|(lang, file)| (lang.clone(), root.join(file).to_string_lossy().into_owned()))
            .collect();
        let fonts = Fonts::load(font_of.values().map(String::as_str)).map_err(|e| {
            let lang = font_of.iter().find(|(_, path)| **path == e.path).map(|(lang, _)| lang);
            Diagnostic::in_file(
                &root.join("site-config.yaml"),
                format!(
                    "cards.fonts.{}: cannot use the font file {}: {} (the card fonts come with the UI's packages: run `npm --prefix ui ci`)",
                    lang.map_or("?", String::as_str),
                    e.path,
                    e.reason
                ),
            )
        })?;
        Ok(Some(Cards {
            fonts,
            font_of,
            palette: palette(cards),
            cache: cache.map(|dir| dir.join("cards")),
            drawn: AtomicUsize::new(0),
        }))
    }

    /// The card of `page`, or None when the page keeps another preview image: its own `image:`,
    /// or the site's `og_image` on a `bare` page (text alone, never shared as an article).
    pub fn of(&self, config: &SiteConfig, locales: &Locales, page: &Page) -> Option<CardFile> {
        let front = &page.source.front;
        if front.image.is_some() || config.frame(page.route()) == Frame::Bare {
            return None;
        }
        let lang = page.lang.as_str();
        let card = Card {
            title: front.title.clone(),
            section: section(locales, page.route(), lang).filter(|label| *label != front.title),
            site_name: config.owner.name.clone(),
            font: self.font_of.get(lang)?.clone(),
        };
        let key = self.key(&card)?;
        Some(CardFile {
            name: format!("{}-{}.png", stem(page.route(), lang), &key[..12]),
            card,
            key,
        })
    }

    /// What `og:image` says of a card: its absolute-to-be path and size.
    pub fn preview(file: &CardFile) -> PreviewImage {
        PreviewImage {
            src: format!("/{CARD_DIR}/{}", file.name),
            width: site_cards::WIDTH,
            height: site_cards::HEIGHT,
        }
    }

    /// Each card's name and PNG, drawn in parallel or read from the cache.
    pub fn draw(&self, files: &[CardFile]) -> Result<Vec<(String, Vec<u8>)>> {
        files
            .par_iter()
            .map(|file| {
                let kept = self
                    .cache
                    .as_deref()
                    .and_then(|dir| kept::read(dir, &file.key, CARD_FILE));
                let png = match kept {
                    Some(png) => png,
                    None => self.draw_one(file)?,
                };
                Ok((file.name.clone(), png))
            })
            .collect()
    }

    fn draw_one(&self, file: &CardFile) -> Result<Vec<u8>> {
        let png = site_cards::render(&self.fonts, &file.card, &self.palette)
            .map_err(|e| anyhow::anyhow!("Failed to draw the card {}: {e}", file.name))?;
        self.drawn.fetch_add(1, Ordering::Relaxed);
        if let Some(dir) = &self.cache {
            kept::write(dir, &file.key, [(CARD_FILE, png.as_slice())]);
        }
        Ok(png)
    }

    /// How many cards were drawn rather than read from the cache since the last call: what a
    /// build drew, as `site watch` keeps the site (and its cards) from one build to the next.
    pub fn take_drawn(&self) -> usize {
        self.drawn.swap(0, Ordering::Relaxed)
    }

    /// A warning for each card whose text has characters its font cannot draw: they would show
    /// as empty boxes or nothing.
    pub fn coverage_warning(&self, page: &Page, file: &CardFile) -> Option<String> {
        let card = &file.card;
        let text = format!(
            "{}{}{}",
            card.title,
            card.section.as_deref().unwrap_or_default(),
            card.site_name
        );
        let missing = self.fonts.missing(&card.font, &text).ok()?;
        (!missing.is_empty()).then(|| {
            format!(
                "{} ({}): the link-preview card's font {} has no glyph for {}; choose another font in cards.fonts.{} of site-config.yaml or other characters",
                page.source.path.display(),
                page.lang,
                card.font,
                missing.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "),
                page.lang
            )
        })
    }

    fn key(&self, card: &Card) -> Option<String> {
        let mut hash = Sha256::new();
        for part in [
            site_cards::LAYOUT_VERSION,
            &card.title,
            card.section.as_deref().unwrap_or("\u{0}"),
            &card.site_name,
            &self.palette.background,
            &self.palette.text,
            &self.palette.muted,
            &self.palette.accent,
        ] {
            hash.update(part.as_bytes());
            hash.update([0xff]);
        }
        hash.update(self.fonts.identity(&card.font).ok()?);
        Some(hash.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect())
    }
}

/// The part of a card's file name that names its page: `notes-liquidity-risk-ja` (letters,
/// digits, `-` and `_`; the hash after the last `-` is the rest).
pub fn stem(route: &str, lang: &str) -> String {
    let path = route.trim_matches('/').replace('/', "-");
    format!("{}-{lang}", if path.is_empty() { "home" } else { &path })
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
        .collect()
}

/// The stem of a card's file name (`stem`), None for another file.
pub fn stem_of(file: &Path) -> Option<&str> {
    let name = file.strip_prefix(CARD_DIR).ok()?.to_str()?;
    Some(name.strip_suffix(".png")?.rsplit_once('-')?.0)
}

/// The label of the section `route` is in, in `lang`: its first segment's breadcrumb label
/// (`breadcrumb.segments.<segment>`), none for the home page.
fn section(locales: &Locales, route: &str, lang: &str) -> Option<String> {
    let segment = route
        .trim_start_matches('/')
        .split('/')
        .next()
        .filter(|s| !s.is_empty())?;
    let key = format!("breadcrumb.segments.{segment}");
    locales.get(lang, "translation", &key).map(String::from)
}

fn palette(cards: &CardsConfig) -> Palette {
    let colors = &cards.colors;
    Palette {
        background: colors.background.clone(),
        text: colors.text.clone(),
        muted: colors.muted.clone(),
        accent: colors.accent.clone(),
    }
}
