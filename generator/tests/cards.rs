//! Link-preview cards: a page's `og:image` is its own card, a 1200x630 PNG drawn in its
//! language's font (the CJK titles with their glyphs), named by a hash and kept in the cache so
//! a rebuild draws only the cards whose text changed; a font that cannot draw a title is a
//! warning naming the page, and a missing font file an error saying how to install it.

mod common;

use generator::{build, BuildOptions};
use image::{GenericImageView, ImageFormat};
use std::path::{Path, PathBuf};

const BASE_URL: &str = "https://fixture.example";

fn font(package: &str, file: &str) -> PathBuf {
    let path = common::manifest_dir()
        .join("../ui/node_modules/@expo-google-fonts")
        .join(package)
        .join(file);
    assert!(
        path.is_file(),
        "{} is missing: run `npm --prefix ui ci`",
        path.display()
    );
    path
}

/// The cards section of site-config.yaml with the fonts of the UI's packages (absolute paths:
/// the site is a copy in a temporary folder).
fn cards_config(ja_font: &Path) -> String {
    let tc = font("noto-sans-tc", "700Bold/NotoSansTC_700Bold.ttf");
    format!(
        "\ncards:\n  fonts:\n    en: {tc}\n    zh: {tc}\n    ja: {ja}\n  colors: {{ background: \"#f7f8fa\", text: \"#1c2330\", muted: \"#566173\", accent: \"#1f5fbf\" }}\n",
        tc = tc.display(),
        ja = ja_font.display()
    )
}

fn jp_font() -> PathBuf {
    font("noto-sans-jp", "700Bold/NotoSansJP_700Bold.ttf")
}

/// A copy of the fixture site whose config has `cards` with `ja_font` for Japanese.
fn site_with_cards(ja_font: &Path) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    common::copy_dir(&common::fixture(), root.path());
    let config = root.path().join("site-config.yaml");
    let text = std::fs::read_to_string(&config).unwrap() + &cards_config(ja_font);
    std::fs::write(config, text).unwrap();
    root
}

fn options(root: &Path, out: &Path, cache: Option<&Path>) -> BuildOptions {
    BuildOptions {
        photo_cache: cache.map(Path::to_path_buf),
        ..common::options(root, out)
    }
}

/// The `content` of `<meta property|name="key" …>` in the page's head.
fn meta(html: &str, key: &str) -> Option<String> {
    let at = html
        .find(&format!("property=\"{key}\" content=\""))
        .or_else(|| html.find(&format!("name=\"{key}\" content=\"")))?;
    let rest = &html[at..];
    let start = rest.find("content=\"")? + "content=\"".len();
    Some(rest[start..start + rest[start..].find('"')?].to_string())
}

/// Pixels of the title's area (between the section label and the rule) that are not the
/// background: the ink of the title's glyphs.
fn title_ink(png: &[u8]) -> usize {
    let image = image::load_from_memory_with_format(png, ImageFormat::Png)
        .unwrap()
        .to_rgb8();
    let background = image::Rgb([0xf7, 0xf8, 0xfa]);
    (180..480)
        .flat_map(|y| (96..1104).map(move |x| (x, y)))
        .filter(|&(x, y)| *image.get_pixel(x, y) != background)
        .count()
}

/// The card a page's head names: checked as the file it points at in `out`, a PNG of the size
/// the head states. Gives the PNG's bytes.
fn card_of(out: &Path, page: &str, title: &str) -> Vec<u8> {
    let html = std::fs::read_to_string(out.join(page)).unwrap();
    let src = meta(&html, "og:image").unwrap_or_else(|| panic!("{page} has no og:image"));
    let path = src
        .strip_prefix(BASE_URL)
        .unwrap_or_else(|| panic!("{src} is not absolute"));
    assert!(
        path.starts_with("/assets/cards/") && path.ends_with(".png"),
        "{page}: {src}"
    );
    assert!(
        site_contract::headers::is_content_hashed(path.trim_start_matches('/')),
        "{path}"
    );
    assert_eq!(meta(&html, "twitter:image").as_deref(), Some(src.as_str()), "{page}");
    assert_eq!(
        meta(&html, "twitter:card").as_deref(),
        Some("summary_large_image"),
        "{page}"
    );
    assert_eq!(meta(&html, "og:image:width").as_deref(), Some("1200"), "{page}");
    assert_eq!(meta(&html, "og:image:height").as_deref(), Some("630"), "{page}");
    assert_eq!(meta(&html, "og:image:alt").as_deref(), Some(title), "{page}");
    let png = std::fs::read(out.join(path.trim_start_matches('/'))).unwrap();
    let image = image::load_from_memory_with_format(&png, ImageFormat::Png).unwrap();
    assert_eq!(image.dimensions(), (1200, 630), "{path}");
    png
}

#[test]
fn each_language_s_page_shows_its_own_card_with_its_title_drawn() {
    let root = site_with_cards(&jp_font());
    let out = tempfile::tempdir().unwrap();
    let report = build(&options(root.path(), out.path(), None)).unwrap();
    assert!(
        report.warnings.iter().all(|w| !w.contains("glyph")),
        "{:?}",
        report.warnings
    );
    let en = card_of(out.path(), "notes/first/index.html", "First note");
    let zh = card_of(out.path(), "zh/notes/first/index.html", "第一篇筆記");
    let ja = card_of(out.path(), "ja/notes/first/index.html", "最初のノート");
    assert!(en != zh && zh != ja && en != ja);
    // A title of a few characters at the card's size covers thousands of pixels; a font that drew
    // nothing for them would leave the area blank.
    for (lang, png) in [("en", &en), ("zh", &zh), ("ja", &ja)] {
        assert!(
            title_ink(png) > 3000,
            "{lang}: the title's area has {} ink pixels",
            title_ink(png)
        );
    }
    // Another page of the same language and section has another card.
    assert_ne!(card_of(out.path(), "notes/older/index.html", "Older note"), en);
}

#[test]
fn pages_with_their_own_image_and_bare_pages_keep_the_configured_image() {
    let root = site_with_cards(&jp_font());
    let page = root.path().join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&page).unwrap();
    let own = "image: { src: /images/dot.svg, width: 1200, height: 630 }\n";
    std::fs::write(&page, text.replacen("---\n", &format!("---\n{own}"), 1)).unwrap();
    let out = tempfile::tempdir().unwrap();
    build(&options(root.path(), out.path(), None)).unwrap();
    let html = std::fs::read_to_string(out.path().join("notes/first/index.html")).unwrap();
    assert_eq!(meta(&html, "og:image").unwrap(), format!("{BASE_URL}/images/dot.svg"));
    assert_eq!(meta(&html, "og:image:alt"), None);
    let bare = std::fs::read_to_string(out.path().join("climbers-deal-privacy/index.html")).unwrap();
    assert!(!meta(&bare, "og:image").unwrap().contains("/assets/cards/"));
    // The Japanese page keeps its card.
    card_of(out.path(), "ja/notes/first/index.html", "最初のノート");
}

#[test]
fn the_cache_keeps_the_cards_so_a_rebuild_draws_only_a_changed_title() {
    let root = site_with_cards(&jp_font());
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = build(&options(root.path(), out.path(), Some(cache.path()))).unwrap();
    assert!(first.cards_drawn >= 3, "{}", first.cards_drawn);
    let out_again = tempfile::tempdir().unwrap();
    let warm = build(&options(root.path(), out_again.path(), Some(cache.path()))).unwrap();
    assert_eq!(warm.cards_drawn, 0);
    let before = card_of(out_again.path(), "notes/first/index.html", "First note");
    let page = root.path().join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &page,
        text.replacen("title: First note", "title: The first note, renamed", 1),
    )
    .unwrap();
    let changed = build(&options(root.path(), out_again.path(), Some(cache.path()))).unwrap();
    assert_eq!(changed.cards_drawn, 1);
    let after = card_of(out_again.path(), "notes/first/index.html", "The first note, renamed");
    assert_ne!(before, after);
    // The old card is gone from the output.
    let cards = std::fs::read_dir(out_again.path().join("assets/cards"))
        .unwrap()
        .count();
    assert_eq!(
        cards,
        std::fs::read_dir(out.path().join("assets/cards")).unwrap().count()
    );
}

#[test]
fn a_title_the_font_cannot_draw_is_a_warning_naming_the_page_and_the_characters() {
    // A private-use character, which no Noto Sans has, stands for any the font lacks.
    let root = site_with_cards(&jp_font());
    let page = root.path().join("content/notes/first.ja.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &page,
        text.replacen("title: 最初のノート", "title: 最初のノート \u{E000}", 1),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let report = build(&options(root.path(), out.path(), None)).unwrap();
    let warning = (report.warnings.iter())
        .find(|w| w.contains("no glyph"))
        .unwrap_or_else(|| panic!("no glyph warning in {:?}", report.warnings));
    assert!(
        warning.contains("first.ja.md") && warning.contains('\u{E000}'),
        "{warning}"
    );
    assert!(warning.contains("cards.fonts.ja"), "{warning}");
}

#[test]
fn a_missing_font_file_fails_the_build_saying_how_to_install_it() {
    let root = site_with_cards(Path::new("ui/node_modules/missing/NotoSansJP.ttf"));
    let out = tempfile::tempdir().unwrap();
    let error = format!("{:#}", build(&options(root.path(), out.path(), None)).unwrap_err());
    assert!(error.contains("cards.fonts.ja"), "{error}");
    assert!(error.contains("NotoSansJP.ttf"), "{error}");
    assert!(error.contains("npm --prefix ui ci"), "{error}");
    assert!(!out.path().join("index.html").exists());
}

/// The card files below `out`.
fn card_files(out: &Path) -> std::collections::BTreeSet<String> {
    match std::fs::read_dir(out.join("assets/cards")) {
        Ok(dir) => dir.map(|e| e.unwrap().file_name().into_string().unwrap()).collect(),
        Err(_) => Default::default(),
    }
}

#[test]
fn make_dev_draws_a_page_s_card_again_when_its_title_changes_and_drops_the_old_one() {
    let root = site_with_cards(&jp_font());
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // As `make dev`, with the cache: the other pages the edit renders again keep their cards.
    let dev = |out: &Path| BuildOptions {
        dev: true,
        ..options(root.path(), out, Some(cache.path()))
    };
    let mut resident = generator::Resident::new(dev(out.path()));
    resident.build_all().unwrap();
    let page = root.path().join("content/notes/first.ja.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, text.replacen("title: 最初のノート", "title: 二番目の題名", 1)).unwrap();
    let report = resident.rebuild(std::slice::from_ref(&page)).unwrap();
    assert!(report.rerendered.is_some(), "a one-page rebuild");
    assert_eq!(report.cards_drawn, 1);
    let card = card_of(out.path(), "ja/notes/first/index.html", "二番目の題名");
    let touched = report.touched.unwrap();
    assert!(
        touched.iter().any(|f| f.starts_with("assets/cards/notes-first-ja-")),
        "{touched:?}"
    );
    // The same cards as a whole build of the edited site: the old one is gone.
    let clean = tempfile::tempdir().unwrap();
    build(&dev(clean.path())).unwrap();
    assert_eq!(card_files(out.path()), card_files(clean.path()));
    assert_eq!(card, card_of(clean.path(), "ja/notes/first/index.html", "二番目の題名"));
}
