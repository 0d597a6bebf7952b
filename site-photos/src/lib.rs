//! A photo's pixels: decoded (turned upright as its EXIF orientation says), resized to the
//! widths pages ask for with `fast_image_resize`, and encoded as lossy WebP and in the source's
//! own format for browsers without WebP. A crate of its own so that its code, the image crates'
//! generic code included, is compiled optimised in debug builds too (`make dev`, the tests):
//! unoptimised, resizing one phone photo took seconds.

use fast_image_resize::images::{TypedImage, TypedImageRef};
use fast_image_resize::pixels::U8x4;
use fast_image_resize::{ResizeOptions, Resizer};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
pub use image::ImageFormat;
use image::{DynamicImage, ExtendedColorType, ImageEncoder, ImageReader, RgbaImage};
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

/// A decoded photo, upright, as RGBA: the one pixel type `resize` handles.
pub struct Photo {
    pixels: RgbaImage,
    alpha: bool,
}

impl Photo {
    pub fn width(&self) -> u32 {
        self.pixels.width()
    }
}

/// The pixels of `bytes`, a `format` file, upright; a truncated or corrupt file is an error.
pub fn decode(bytes: &[u8], format: ImageFormat) -> Result<Photo, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes));
    reader.set_format(format);
    let mut decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let orientation = image::ImageDecoder::orientation(&mut decoder).map_err(|e| e.to_string())?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    image.apply_orientation(orientation);
    Ok(Photo {
        alpha: image.color().has_alpha(),
        pixels: image.into_rgba8(),
    })
}

/// The widths `image` is served at, narrowest first.
pub fn widths(width: u32) -> Vec<u32> {
    let largest = width.min(WIDTHS[WIDTHS.len() - 1]);
    let mut widths: Vec<u32> = WIDTHS.into_iter().filter(|w| *w < largest).collect();
    widths.push(largest);
    widths
}

/// `photo` at `width` (its height in proportion), as WebP and as `format`.
pub fn encode(photo: &Photo, width: u32, format: ImageFormat) -> Result<Encoded, String> {
    let (source_width, source_height) = photo.pixels.dimensions();
    let height = ((source_height as u64 * width as u64 + source_width as u64 / 2) / source_width as u64).max(1) as u32;
    let rgba = resize(photo, width, height)?;
    let (pixels, color) = match photo.alpha {
        true => (rgba, ExtendedColorType::Rgba8),
        false => (
            rgba.chunks_exact(4).flat_map(|pixel| &pixel[..3]).copied().collect(),
            ExtendedColorType::Rgb8,
        ),
    };
    let pixels = &pixels[..];
    let webp = match photo.alpha {
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

/// `photo` resized to `width` x `height`, as RGBA bytes. Always RGBA, and typed: the untyped
/// `Resizer::resize` compiles the resizer for each of the 13 pixel types it knows (SIMD variants
/// of every one), which made this crate the longest step of a release build (62.8 CPU-s); one
/// type compiles in about 15. An opaque photo is resized without the alpha arithmetic, which
/// gives the bytes the three-channel resize gave.
fn resize(photo: &Photo, width: u32, height: u32) -> Result<Vec<u8>, String> {
    let (source_width, source_height) = photo.pixels.dimensions();
    let source = TypedImageRef::<U8x4>::from_buffer(source_width, source_height, photo.pixels.as_raw())
        .map_err(|e| e.to_string())?;
    let mut resized = vec![0; width as usize * height as usize * 4];
    let mut target = TypedImage::<U8x4>::from_buffer(width, height, &mut resized).map_err(|e| e.to_string())?;
    let options = ResizeOptions::new().use_alpha(photo.alpha);
    Resizer::new()
        .resize_typed(&source, &mut target, &options)
        .map_err(|e| e.to_string())?;
    Ok(resized)
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
