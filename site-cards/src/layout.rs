//! The card as SVG: the section in the accent colour at the top, the title large below it (up to
//! three lines, smaller when it needs more than two), the site's name under a rule at the bottom,
//! and an accent band down the left edge.

use crate::fonts::{text_width, Fonts};
use crate::wrap::wrap;
use crate::{Card, Palette, HEIGHT, WIDTH};

const MARGIN: f32 = 96.0;
const BAND: f32 = 24.0;
const LABEL_SIZE: f32 = 36.0;
/// The title's size when it fits in two lines, and when it needs three.
const TITLE_LARGE: f32 = 76.0;
const TITLE_SMALL: f32 = 62.0;
const LINE_HEIGHT: f32 = 1.3;
/// Where the title's lines go: between the section label and the rule above the site's name.
const TITLE_TOP: f32 = 180.0;
const TITLE_BOTTOM: f32 = 480.0;
const RULE_Y: f32 = 512.0;
/// How far a line's baseline is below its top, as a share of the size (Noto Sans' ascent).
const ASCENT: f32 = 0.88;

pub(crate) fn svg(fonts: &Fonts, card: &Card, palette: &Palette) -> Result<String, String> {
    let family = escape(fonts.family(&card.font)?);
    let max = WIDTH as f32 - 2.0 * MARGIN;
    let (size, lines, section, site_name) = fonts.measure(&card.font, |face| {
        let one_line = |text: &str| wrap(text, max, 1, |t| text_width(face, t, LABEL_SIZE)).join("");
        let section = card.section.as_deref().map(one_line);
        let large = wrap(&card.title, max, usize::MAX, |t| text_width(face, t, TITLE_LARGE));
        let (size, lines) = match large.len() <= 2 {
            true => (TITLE_LARGE, large),
            false => (
                TITLE_SMALL,
                wrap(&card.title, max, 3, |t| text_width(face, t, TITLE_SMALL)),
            ),
        };
        (size, lines, section, one_line(&card.site_name))
    })?;
    let line_height = size * LINE_HEIGHT;
    let top = TITLE_TOP + (TITLE_BOTTOM - TITLE_TOP - line_height * lines.len() as f32) / 2.0;
    let text = |x: f32, y: f32, size: f32, fill: &str, content: &str| {
        format!(
            r#"<text x="{x}" y="{y:.1}" font-family="{family}" font-weight="700" font-size="{size}" fill="{}">{}</text>"#,
            escape(fill),
            escape(content)
        )
    };
    let mut parts = vec![
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}">"#
        ),
        format!(
            r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="{}"/>"#,
            escape(&palette.background)
        ),
        format!(
            r#"<rect width="{BAND}" height="{HEIGHT}" fill="{}"/>"#,
            escape(&palette.accent)
        ),
    ];
    if let Some(section) = &section {
        parts.push(text(MARGIN, 120.0, LABEL_SIZE, &palette.accent, section));
    }
    for (n, line) in lines.iter().enumerate() {
        let y = top + line_height * n as f32 + (line_height - size) / 2.0 + size * ASCENT;
        parts.push(text(MARGIN, y, size, &palette.text, line));
    }
    parts.push(format!(
        r#"<rect x="{MARGIN}" y="{RULE_Y}" width="{max}" height="3" fill="{}"/>"#,
        escape(&palette.muted)
    ));
    parts.push(text(MARGIN, 576.0, LABEL_SIZE, &palette.muted, &site_name));
    parts.push("</svg>".into());
    Ok(parts.join("\n"))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
