//! Photos at build time: a JPEG or PNG shown by a page becomes a `<picture>` of resized WebP and
//! fallback files with content-hashed names, the largest paint fetched first and the others
//! lazily; the photo cache keeps what a build made; a broken photo fails with file and line.
//! The photos are made here (gradients), so no binary file sits in the fixtures.

mod common;

use generator::{build, check, BuildOptions};
use image::{ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// A copy of the fixture site in a temporary folder.
fn fixture_copy() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    common::copy_dir(&common::fixture(), root.path());
    root
}

/// Build options for the site at `root` into `out`, with the fixture's UI manifest.
fn options(root: &Path, out: &Path, photo_cache: Option<&Path>) -> BuildOptions {
    BuildOptions {
        photo_cache: photo_cache.map(Path::to_path_buf),
        ..common::options(root, out)
    }
}

/// A `width` x `height` gradient photo, as a phone's camera would not make it but a decoder
/// reads it the same.
fn gradient_jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = RgbImage::from_fn(width, height, |x, y| {
        Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, 128])
    });
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, ImageFormat::Jpeg).unwrap();
    bytes.into_inner()
}

fn translucent_png(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_fn(width, height, |x, _| Rgba([200, 40, 40, (x * 255 / width) as u8]));
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, ImageFormat::Png).unwrap();
    bytes.into_inner()
}

/// Puts `bytes` at `static/images/<name>` and appends `markdown` to the English first note.
fn add_photo(root: &Path, name: &str, bytes: &[u8], markdown: &str) {
    std::fs::write(root.join("static/images").join(name), bytes).unwrap();
    let page = root.join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&page).unwrap() + "\n" + markdown + "\n";
    std::fs::write(page, text).unwrap();
}

/// Every `<picture>…</picture>` of the page file.
fn pictures(out: &Path, page: &str) -> Vec<String> {
    let html = std::fs::read_to_string(out.join(page)).unwrap();
    html.split("<picture>")
        .skip(1)
        .map(|rest| rest.split_once("</picture>").expect("a closed picture").0.to_string())
        .collect()
}

fn attribute<'a>(tag: &'a str, name: &str) -> &'a str {
    let start = tag
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        + name.len()
        + 3;
    &tag[start..start + tag[start..].find('"').unwrap()]
}

/// `srcset`'s URLs and widths.
fn candidates(srcset: &str) -> Vec<(String, u32)> {
    srcset
        .split(", ")
        .map(|c| {
            let (url, width) = c.split_once(' ').unwrap();
            (url.to_string(), width.trim_end_matches('w').parse().unwrap())
        })
        .collect()
}

/// The width and height a lossy WebP file states in its VP8 frame header.
fn webp_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(
        (&bytes[..4], &bytes[8..16]),
        (&b"RIFF"[..], &b"WEBPVP8 "[..]),
        "a lossy WebP"
    );
    let read = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]) as u32 & 0x3fff;
    (read(26), read(28))
}

fn dimensions(path: &Path) -> (u32, u32) {
    image::image_dimensions(path).unwrap()
}

#[test]
fn a_photo_becomes_a_picture_of_resized_hashed_files() {
    let root = fixture_copy();
    add_photo(
        root.path(),
        "beach.jpg",
        &gradient_jpeg(2000, 1200),
        "![A beach at dusk](/images/beach.jpg)",
    );
    add_photo(
        root.path(),
        "mark.png",
        &translucent_png(600, 400),
        "Below: ![The \"mark\"](/images/mark.png)",
    );
    let out = tempfile::tempdir().unwrap();
    build(&options(root.path(), out.path(), None)).unwrap();
    let shown = pictures(out.path(), "notes/first/index.html");
    assert_eq!(shown.len(), 2, "{shown:?}");

    let (source, img) = shown[0].split_once("<img").unwrap();
    assert_eq!(attribute(source, "type"), "image/webp");
    let webp = candidates(attribute(source, "srcset"));
    let jpeg = candidates(attribute(img, "srcset"));
    let widths = |set: &[(String, u32)]| set.iter().map(|c| c.1).collect::<Vec<_>>();
    assert_eq!(widths(&webp), [480, 960, 1600]);
    assert_eq!(widths(&jpeg), [480, 960, 1600]);
    assert_eq!((attribute(img, "width"), attribute(img, "height")), ("1600", "960"));
    assert_eq!(attribute(img, "alt"), "A beach at dusk");
    assert_eq!(attribute(img, "sizes"), attribute(source, "sizes"));
    assert_eq!(attribute(img, "src"), jpeg[2].0);
    // The page's first photo is its largest paint: fetched at once and before the others.
    assert_eq!(attribute(img, "loading"), "eager");
    assert_eq!(attribute(img, "fetchpriority"), "high");
    for ((webp_url, width), (jpeg_url, _)) in webp.iter().zip(&jpeg) {
        let height = width * 1200 / 2000;
        assert!(
            webp_url.starts_with("/assets/photos/beach-") && webp_url.ends_with(".webp"),
            "{webp_url}"
        );
        let hash = webp_url.rsplit('-').next().unwrap().trim_end_matches(".webp");
        assert!(
            hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
            "{webp_url}"
        );
        let bytes = std::fs::read(out.path().join(&webp_url[1..])).unwrap();
        assert_eq!(webp_size(&bytes), (*width, height), "{webp_url}");
        assert_eq!(
            dimensions(&out.path().join(&jpeg_url[1..])),
            (*width, height),
            "{jpeg_url}"
        );
        let jpeg_bytes = std::fs::read(out.path().join(&jpeg_url[1..])).unwrap();
        assert!(
            bytes.len() < jpeg_bytes.len() * 2,
            "WebP is lossy: {} bytes",
            bytes.len()
        );
    }

    let (_, img) = shown[1].split_once("<img").unwrap();
    let png = candidates(attribute(img, "srcset"));
    assert_eq!(widths(&png), [480, 600], "no width above the photo's own");
    assert_eq!((attribute(img, "width"), attribute(img, "height")), ("600", "400"));
    assert_eq!(attribute(img, "alt"), "The &quot;mark&quot;");
    assert_eq!(attribute(img, "loading"), "lazy");
    assert_eq!(attribute(img, "decoding"), "async");
    assert!(!img.contains("fetchpriority"), "{img}");
    let fallback = image::open(out.path().join(&png[0].0[1..])).unwrap();
    assert_eq!((fallback.width(), fallback.height()), (480, 320));
    assert!(fallback.color().has_alpha(), "a PNG keeps its transparency");

    // The source files are copied as `static/` is, but no page asks for them.
    let html = std::fs::read_to_string(out.path().join("notes/first/index.html")).unwrap();
    assert!(!html.contains("/images/beach.jpg"), "{html}");
}

#[test]
fn the_photo_cache_keeps_what_a_build_made() {
    let root = fixture_copy();
    add_photo(
        root.path(),
        "beach.jpg",
        &gradient_jpeg(1000, 500),
        "![Beach](/images/beach.jpg)",
    );
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let first = build(&options(root.path(), out.path(), Some(cache.path()))).unwrap();
    assert_eq!(first.photos_processed, 1);
    let cold_dist = tempfile::tempdir().unwrap();
    let second = build(&options(root.path(), cold_dist.path(), Some(cache.path()))).unwrap();
    assert_eq!(second.photos_processed, 0, "the cache had it");
    let files = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let photos = dir.join("assets/photos");
        let mut files: Vec<_> = (WalkDir::new(&photos).into_iter().map(Result::unwrap))
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                (
                    e.path().strip_prefix(&photos).unwrap().to_path_buf(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    assert_eq!(files(out.path()).len(), 6, "three widths, two formats");
    assert_eq!(files(out.path()), files(cold_dist.path()));
    assert_eq!(
        pictures(out.path(), "notes/first/index.html"),
        pictures(cold_dist.path(), "notes/first/index.html")
    );

    // A changed photo is processed again and its files get other names.
    std::fs::write(root.path().join("static/images/beach.jpg"), gradient_jpeg(1000, 600)).unwrap();
    let third = build(&options(root.path(), out.path(), Some(cache.path()))).unwrap();
    assert_eq!(third.photos_processed, 1);
    let shown = pictures(out.path(), "notes/first/index.html");
    assert!(shown[0].contains(r#"width="1000" height="600""#), "{shown:?}");
    assert!(
        files(out.path())
            .iter()
            .all(|(name, _)| !files(cold_dist.path()).iter().any(|(old, _)| old == name)),
        "the old files are stale and gone"
    );
}

/// The error of `site build` (and `site check`, which must agree) of the fixture site with
/// `name` holding `bytes` and shown at the end of the English first note (line 27).
fn photo_error(name: &str, bytes: Option<&[u8]>) -> String {
    let root = fixture_copy();
    add_photo(root.path(), "placeholder.jpg", &gradient_jpeg(8, 8), "");
    std::fs::remove_file(root.path().join("static/images/placeholder.jpg")).unwrap();
    if let Some(bytes) = bytes {
        std::fs::write(root.path().join("static/images").join(name), bytes).unwrap();
    }
    let page = root.path().join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&page).unwrap() + &format!("![Broken](/images/{name})\n");
    std::fs::write(page, text).unwrap();
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path(), None);
    let checked = check(&options)
        .map(|report| report.summary())
        .map_err(|e| generator::describe_error(&e));
    let error = generator::describe_error(&build(&options).unwrap_err());
    assert_eq!(
        checked,
        Err(error.clone()),
        "site check rejects what site build rejects"
    );
    error
}

#[test]
fn a_broken_or_unsupported_photo_fails_the_build_with_file_and_line() {
    let at = "content/notes/first.en.md:28: image /images/";
    let missing = photo_error("gone.jpg", None);
    assert!(missing.contains(&format!("{at}gone.jpg: cannot read ")), "{missing}");
    let whole = gradient_jpeg(64, 64);
    let truncated = photo_error("cut.jpg", Some(&whole[..whole.len() / 2]));
    assert!(truncated.contains(&format!("{at}cut.jpg: ")), "{truncated}");
    assert!(truncated.contains("is not a valid Jpeg file"), "{truncated}");
    let bitmap = photo_error("old.bmp", Some(b"BM"));
    assert!(
        bitmap.contains(&format!(
            "{at}old.bmp: .bmp files are not processed; save the photo as JPEG or PNG"
        )),
        "{bitmap}"
    );
}

/// Gives the English first note `cover` as its front matter's `cover:` line (line 2).
fn set_cover(root: &Path, cover: &str) {
    let page = root.join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&page)
        .unwrap()
        .replacen("---\n", &format!("---\ncover: {cover}\n"), 1);
    std::fs::write(page, text).unwrap();
}

#[test]
fn a_cover_photo_is_the_largest_paint_and_the_photos_of_the_text_wait() {
    let root = fixture_copy();
    add_photo(
        root.path(),
        "beach.jpg",
        &gradient_jpeg(800, 600),
        "![Beach](/images/beach.jpg)",
    );
    std::fs::write(root.path().join("static/images/harbour.jpg"), gradient_jpeg(1200, 500)).unwrap();
    set_cover(root.path(), "{ src: /images/harbour.jpg, alt: The harbour at dawn }");
    let out = tempfile::tempdir().unwrap();
    build(&options(root.path(), out.path(), None)).unwrap();
    let shown = pictures(out.path(), "notes/first/index.html");
    assert_eq!(shown.len(), 2, "{shown:?}");
    let (cover, text) = (
        shown[0].split_once("<img").unwrap().1,
        shown[1].split_once("<img").unwrap().1,
    );
    assert_eq!(attribute(cover, "alt"), "The harbour at dawn");
    assert_eq!((attribute(cover, "width"), attribute(cover, "height")), ("1200", "500"));
    assert_eq!(attribute(cover, "fetchpriority"), "high");
    assert_eq!(attribute(text, "alt"), "Beach");
    assert_eq!(attribute(text, "loading"), "lazy");
    // The cover is as wide as the article; a photo in the text as its paragraph.
    assert_eq!(attribute(cover, "sizes"), "(min-width: 46rem) 46rem, 100vw");
    assert_eq!(attribute(text, "sizes"), "(min-width: 40em) 40em, 100vw");
    let html = std::fs::read_to_string(out.path().join("notes/first/index.html")).unwrap();
    let (before_text, _) = html.split_once("A line with").unwrap();
    assert!(before_text.contains("harbour"), "the cover comes before the text");
    let url = candidates(attribute(cover, "srcset")).pop().unwrap().0;
    assert_eq!(dimensions(&out.path().join(&url[1..])), (1200, 500));
}

#[test]
fn a_cover_that_is_not_a_photo_is_named_with_the_line_of_its_key() {
    let root = fixture_copy();
    set_cover(root.path(), "{ src: /images/dot.svg, alt: A dot }");
    let out = tempfile::tempdir().unwrap();
    let error = generator::describe_error(&build(&options(root.path(), out.path(), None)).unwrap_err());
    assert!(
        error
            .contains("content/notes/first.en.md:2: cover /images/dot.svg: a cover is a JPEG or PNG of static/images/"),
        "{error}"
    );
}

/// Sets the fixture's `owner.image` to `src`.
fn set_portrait(root: &Path, src: &str) {
    let config = root.join("site-config.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("image: "))
        .expect("owner.image")
        .to_string();
    std::fs::write(&config, text.replacen(&line, &format!("  image: {src}"), 1)).unwrap();
}

#[test]
fn a_portrait_photo_reaches_the_profile_island_with_its_widths() {
    let root = fixture_copy();
    std::fs::write(root.path().join("static/images/me.jpg"), gradient_jpeg(700, 700)).unwrap();
    set_portrait(root.path(), "/images/me.jpg");
    let out = tempfile::tempdir().unwrap();
    build(&options(root.path(), out.path(), None)).unwrap();
    let home = std::fs::read_to_string(out.path().join("index.html")).unwrap();
    let props = home
        .split("data-island=\"ProfileImage\"")
        .nth(1)
        .expect("the profile island");
    let props = html_escape::decode_html_entities(attribute(props, "data-props")).to_string();
    let props: serde_json::Value = serde_json::from_str(&props).unwrap();
    let webp = candidates(props["photo"]["webp"].as_str().unwrap());
    let fallback = candidates(props["photo"]["fallback"].as_str().unwrap());
    assert_eq!(webp.iter().map(|c| c.1).collect::<Vec<_>>(), [480, 700]);
    assert_eq!(props["photo"]["sizes"], "224px");
    assert_eq!(props["src"], fallback[1].0.as_str());
    for (url, width) in webp.iter().chain(&fallback) {
        let path = out.path().join(&url[1..]);
        assert!(path.is_file(), "{url}");
        if url.ends_with(".jpg") {
            assert_eq!(dimensions(&path), (*width, *width));
        }
    }
}

#[test]
fn a_broken_portrait_names_the_setting() {
    let root = fixture_copy();
    std::fs::write(root.path().join("static/images/me.png"), b"\x89PNG\r\n\x1a\nnot really").unwrap();
    set_portrait(root.path(), "/images/me.png");
    let out = tempfile::tempdir().unwrap();
    let error = generator::describe_error(&build(&options(root.path(), out.path(), None)).unwrap_err());
    assert!(
        error.contains("site-config.yaml: owner.image: image /images/me.png: "),
        "{error}"
    );
    assert!(error.contains("is not a valid Png file"), "{error}");
}

#[test]
fn a_photo_added_under_make_dev_is_written_by_the_one_page_rebuild() {
    let root = fixture_copy();
    std::fs::write(root.path().join("static/images/beach.jpg"), gradient_jpeg(900, 600)).unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut dev = options(root.path(), out.path(), None);
    dev.dev = true;
    let mut resident = generator::Resident::new(dev);
    resident.build_all().unwrap();
    assert!(!out.path().join("assets/photos").exists(), "no page shows a photo yet");
    add_photo(
        root.path(),
        "beach.jpg",
        &gradient_jpeg(900, 600),
        "![Beach](/images/beach.jpg)",
    );
    let page = root.path().join("content/notes/first.en.md");
    let report = resident.rebuild(std::slice::from_ref(&page)).unwrap();
    assert!(report.rerendered.is_some(), "a one-page rebuild");
    let touched = report.touched.unwrap();
    let shown = pictures(out.path(), "notes/first/index.html");
    let (_, img) = shown[0].split_once("<img").unwrap();
    for (url, _) in candidates(attribute(img, "srcset")) {
        assert!(out.path().join(&url[1..]).is_file(), "{url}");
        assert!(
            touched.contains(&url[1..].to_string()),
            "the dev server is told of {url}: {touched:?}"
        );
    }
}
