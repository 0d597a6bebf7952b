//! A photo's pixels: decoded (turned upright as its EXIF orientation says), resized to the
//! widths pages ask for with `fast_image_resize`, and encoded as lossy WebP and in the source's
//! own format for browsers without WebP. A crate of its own so that its code, the image crates'
//! generic code included, is compiled optimised in debug builds too (`make dev`, the tests):
//! unoptimised, resizing one phone photo took seconds.

use fast_image_resize::images::Image;
use fast_image_resize::{PixelType, Resizer};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
pub use image::ImageFormat;
use image::{DynamicImage, ExtendedColorType, ImageEncoder, ImageReader};
use std::io::Cursor;

/// The widths a photo is served at, those narrower than the photo itself, and its own width when
/// that is below the largest: a phone's column, a laptop's and a wide screen at 2x.
pub const WIDTHS: [u32; 3] = [480, 960, 1600];
/// libwebp's quality (0 to 100): about what Hugo and Astro use by default.
const WEBP_QUALITY: f32 = 80.0;
const JPEG_QUALITY: u8 = 82;

/// One width of a photo, encoded.
pub struct Encoded {
    pub width: u32,
    pub height: u32,
    pub webp: Vec<u8>,
    pub fallback: Vec<u8>,
}

/// The pixels of `bytes`, a `format` file, upright; a truncated or corrupt file is an error.
pub fn decode(bytes: &[u8], format: ImageFormat) -> Result<DynamicImage, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes));
    reader.set_format(format);
    let mut decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let orientation = image::ImageDecoder::orientation(&mut decoder).map_err(|e| e.to_string())?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// The widths `image` is served at, narrowest first.
pub fn widths(width: u32) -> Vec<u32> {
    let largest = width.min(WIDTHS[WIDTHS.len() - 1]);
    let mut widths: Vec<u32> = WIDTHS.into_iter().filter(|w| *w < largest).collect();
    widths.push(largest);
    widths
}

/// `image` at `width` (its height in proportion), as WebP and as `format`.
pub fn encode(image: &DynamicImage, width: u32, format: ImageFormat) -> Result<Encoded, String> {
    let alpha = image.color().has_alpha();
    let (pixels, pixel_type, color) = match alpha {
        true => (image.to_rgba8().into_raw(), PixelType::U8x4, ExtendedColorType::Rgba8),
        false => (image.to_rgb8().into_raw(), PixelType::U8x3, ExtendedColorType::Rgb8),
    };
    let height =
        ((image.height() as u64 * width as u64 + image.width() as u64 / 2) / image.width() as u64).max(1) as u32;
    let source = Image::from_vec_u8(image.width(), image.height(), pixels, pixel_type).map_err(|e| e.to_string())?;
    let mut resized = Image::new(width, height, pixel_type);
    Resizer::new()
        .resize(&source, &mut resized, None)
        .map_err(|e| e.to_string())?;
    let pixels = resized.buffer();
    let webp = match alpha {
        true => webp::Encoder::from_rgba(pixels, width, height),
        false => webp::Encoder::from_rgb(pixels, width, height),
    }
    .encode(WEBP_QUALITY)
    .to_vec();
    let mut fallback = Vec::new();
    match format {
        ImageFormat::Png => PngEncoder::new(&mut fallback).write_image(pixels, width, height, color),
        _ => JpegEncoder::new_with_quality(&mut fallback, JPEG_QUALITY).write_image(pixels, width, height, color),
    }
    .map_err(|e| e.to_string())?;
    Ok(Encoded {
        width,
        height,
        webp,
        fallback,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_width_is_wider_than_the_photo() {
        assert_eq!(widths(4000), [480, 960, 1600]);
        assert_eq!(widths(1200), [480, 960, 1200]);
        assert_eq!(widths(960), [480, 960]);
        assert_eq!(widths(300), [300]);
    }
}
