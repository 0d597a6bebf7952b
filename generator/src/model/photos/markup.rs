//! A photo as HTML: `<picture>` with a WebP `<source>` and an `<img>` in the source's format,
//! both with every width in `srcset`, and the `width` and `height` that reserve its box before
//! it loads.

use super::{Photo, Variant, PHOTO_DIR};
use html_escape::encode_double_quoted_attribute as attr;

/// `photo`'s files of one format (`name` picks it) as a `srcset`: `/assets/photos/x-480-….webp 480w, …`.
pub fn srcset(photo: &Photo, name: fn(&Variant) -> &str) -> String {
    (photo.variants.iter())
        .map(|v| format!("/{PHOTO_DIR}/{} {}w", name(v), v.width))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The URL of `photo`'s widest fallback file: the `src` of browsers without `srcset`.
pub fn fallback_src(photo: &Photo) -> String {
    format!("/{PHOTO_DIR}/{}", photo.largest().fallback)
}

/// Where a photo stands on its page, which says how wide it is and how soon it is needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Above the text, the article's width (`--content-width`, 46rem): the largest paint.
    Cover,
    /// The first photo of a text without a cover: the largest paint.
    FirstInText,
    InText,
}

/// `photo` with `alt` at `place`: the largest paint is fetched at once and first, the others
/// when the reader scrolls near them.
pub fn picture_html(photo: &Photo, alt: &str, place: Place) -> String {
    // A photo in the text is as wide as its paragraph (`.article > p`, at most 40em).
    let sizes = match place {
        Place::Cover => "(min-width: 46rem) 46rem, 100vw",
        _ => "(min-width: 40em) 40em, 100vw",
    };
    let largest = photo.largest();
    let loading = match place != Place::InText {
        true => r#"loading="eager" decoding="async" fetchpriority="high""#,
        false => r#"loading="lazy" decoding="async""#,
    };
    format!(
        r#"<picture><source type="image/webp" srcset="{webp}" sizes="{sizes}"><img src="{src}" srcset="{fallback}" sizes="{sizes}" width="{w}" height="{h}" alt="{alt}" {loading}></picture>"#,
        webp = srcset(photo, |v| &v.webp),
        fallback = srcset(photo, |v| &v.fallback),
        src = fallback_src(photo),
        w = largest.width,
        h = largest.height,
        alt = attr(alt),
    )
}
