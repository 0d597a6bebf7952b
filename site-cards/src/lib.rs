//! A page's link-preview card: its title, section and the site's name laid out as SVG in the
//! fonts of its language, rendered with `resvg` and encoded as PNG. A crate of its own so that
//! debug builds compile it optimised (root Cargo.toml), as they do `site-photos`.

mod fonts;
mod layout;
mod wrap;

pub use fonts::{FontError, Fonts};

/// The card's size in pixels: what link previews show as a large image (1.91:1).
pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

/// Changes whenever the same text and fonts would give other pixels: the layout below, the
/// renderer's version, the PNG settings. Part of every card's cache key and file name.
pub const LAYOUT_VERSION: &str = "cards-1 resvg-0.49 png-fast";

/// What a card shows, and in which font (a path given to `Fonts::load`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Card {
    pub title: String,
    /// The page's section (a collection or a top-level page), None for the home page.
    pub section: Option<String>,
    pub site_name: String,
    pub font: String,
}

/// The card's colours, as CSS hex colours (`#1f5fbf`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Palette {
    pub background: String,
    pub text: String,
    pub muted: String,
    pub accent: String,
}

/// The card as PNG bytes.
pub fn render(fonts: &Fonts, card: &Card, palette: &Palette) -> Result<Vec<u8>, String> {
    let svg = layout::svg(fonts, card, palette)?;
    let options = resvg::usvg::Options {
        fontdb: fonts.database(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(&svg, &options).map_err(|e| format!("card layout: {e}"))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or("card size")?;
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    encode_png(pixmap.data())
}

/// Opaque RGB at fast compression: a card is drawn on a solid background, and deflating it
/// hard saves a few kilobytes for several times the time.
fn encode_png(rgba: &[u8]) -> Result<Vec<u8>, String> {
    let rgb: Vec<u8> = rgba.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(bytes)
}
