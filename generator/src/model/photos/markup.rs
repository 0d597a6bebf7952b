//! A photo as HTML: `<picture>` with a WebP `<source>` and an `<img>` in the source's format,
//! both with every width in `srcset`, and the `width` and `height` that reserve its box before
//! it loads.

use super::{Photo, PHOTO_DIR};
use html_escape::encode_double_quoted_attribute as attr;

/// The width the photo takes: the article column (`.article > p`, at most 40em), or the screen's
/// width on a phone.
const SIZES: &str = "(min-width: 45em) 40em, 100vw";

/// `photo` with `alt`; `first` is the page's largest paint, fetched at once and first.
pub fn picture_html(photo: &Photo, alt: &str, first: bool) -> String {
    let srcset = |name: fn(&super::Variant) -> &str| {
        (photo.variants.iter())
            .map(|v| format!("/{PHOTO_DIR}/{} {}w", name(v), v.width))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let largest = photo.largest();
    let loading = match first {
        true => r#"loading="eager" decoding="async" fetchpriority="high""#,
        false => r#"loading="lazy" decoding="async""#,
    };
    format!(
        r#"<picture><source type="image/webp" srcset="{webp}" sizes="{SIZES}"><img src="/{PHOTO_DIR}/{src}" srcset="{fallback}" sizes="{SIZES}" width="{w}" height="{h}" alt="{alt}" {loading}></picture>"#,
        webp = srcset(|v| &v.webp),
        fallback = srcset(|v| &v.fallback),
        src = largest.fallback,
        w = largest.width,
        h = largest.height,
        alt = attr(alt),
    )
}
