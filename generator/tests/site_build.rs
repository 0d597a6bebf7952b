//! Whole-site builds of the fixture site in `tests/fixtures/site` with the real templates: the
//! output is compared with `tests/fixtures/site-expected` (regenerate with `UPDATE_GOLDEN=1`),
//! and broken sources fail with the file and line, in `site check` as in `site build`.

mod common;

use generator::site::{build, check, BuildOptions};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    manifest_dir().join("tests/fixtures/site")
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Build options for a site at `root` into a fresh `out` holding the fixture's UI manifest.
fn options(root: &Path, out: &Path) -> BuildOptions {
    std::fs::create_dir_all(out.join("assets")).unwrap();
    std::fs::copy(fixture().join("assets/manifest.json"), out.join("assets/manifest.json")).unwrap();
    BuildOptions {
        root: root.to_path_buf(),
        out: out.to_path_buf(),
        templates: manifest_dir().join("templates"),
        server_bundle: fixture().join("ui/render.mjs"),
        dev: false,
        island_cache: None,
    }
}

fn outputs(out: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = WalkDir::new(out)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(out).unwrap().to_path_buf())
        .filter(|p| !matches!(p.extension().and_then(|e| e.to_str()), Some("gz" | "br")))
        .filter(|p| p != Path::new("assets/manifest.json"))
        .collect();
    files.sort();
    files
}

#[test]
fn fixture_site_matches_golden_output() {
    let out = tempfile::tempdir().unwrap();
    let report = build(&options(&fixture(), out.path())).unwrap();
    assert_eq!(report.pages, 3 * 11, "11 routes in 3 languages");
    assert!(
        report
            .summary()
            .starts_with("Built 33 pages in 3 languages (en, zh, ja) in "),
        "{}",
        report.summary()
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("guide/a.en.md: no zh version yet")),
        "{:?}",
        report.warnings
    );
    assert!(report
        .warnings
        .iter()
        .any(|w| w == "locales/ja/translation: list.empty is missing (English is used)"));

    let expected_dir = manifest_dir().join("tests/fixtures/site-expected");
    let produced = outputs(out.path());
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&expected_dir);
        for file in &produced {
            let target = expected_dir.join(file);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(out.path().join(file), target).unwrap();
        }
    }
    let expected = outputs(&expected_dir);
    assert_eq!(produced, expected, "the set of files differs from the golden output");
    for file in &produced {
        let got = std::fs::read_to_string(out.path().join(file)).unwrap();
        let want = std::fs::read_to_string(expected_dir.join(file)).unwrap();
        assert_eq!(
            got,
            want,
            "{} differs from the golden output (UPDATE_GOLDEN=1 to accept)",
            file.display()
        );
    }
}

#[test]
fn every_text_file_has_siblings_that_decompress_to_it() {
    let out = tempfile::tempdir().unwrap();
    build(&options(&fixture(), out.path())).unwrap();
    for file in outputs(out.path()) {
        let original = std::fs::read(out.path().join(&file)).unwrap();
        let path = out.path().join(&file);
        let mut gz = Vec::new();
        flate2::read::GzDecoder::new(&std::fs::read(format!("{}.gz", path.display())).unwrap()[..])
            .read_to_end(&mut gz)
            .unwrap();
        assert_eq!(gz, original, "{}.gz", file.display());
        let mut br = Vec::new();
        brotli::BrotliDecompress(
            &mut &std::fs::read(format!("{}.br", path.display())).unwrap()[..],
            &mut br,
        )
        .unwrap();
        assert_eq!(br, original, "{}.br", file.display());
    }
}

#[test]
fn a_warm_rebuild_writes_nothing_and_an_edit_rewrites_little() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    let first = build(&options).unwrap();
    assert!(first.written > 33);
    assert_eq!(build(&options).unwrap().written, 0);
    let note = root.path().join("content/notes/first.ja.md");
    let text = std::fs::read_to_string(&note)
        .unwrap()
        .replace("日本語の本文。", "日本語の本文を直した。");
    std::fs::write(&note, text).unwrap();
    let search_files = || -> BTreeMap<String, Vec<u8>> {
        WalkDir::new(out.path().join("assets/search"))
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json"))
            .map(|e| {
                let path = e.path().strip_prefix(out.path()).unwrap().display().to_string();
                (path, std::fs::read(e.path()).unwrap())
            })
            .collect()
    };
    let before = search_files();
    // The page, the Japanese feed (which holds the note in full), the search index's manifest and
    // the Japanese index files that hold the page's words change; nothing else does.
    let written = build(&options).unwrap().written;
    let after = search_files();
    assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>());
    let changed: Vec<&String> = after.keys().filter(|k| before[*k] != after[*k]).collect();
    assert!(
        !changed.is_empty() && changed.iter().all(|n| n.starts_with("assets/search/ja/")),
        "{changed:?}"
    );
    assert!(changed.len() < after.len() / 3, "{changed:?}");
    assert_eq!(written, 3 + changed.len());
    let page = std::fs::read_to_string(out.path().join("ja/notes/first/index.html")).unwrap();
    assert!(page.contains("日本語の本文を直した。"));
    let feed = std::fs::read_to_string(out.path().join("ja/atom.xml")).unwrap();
    assert!(feed.contains("日本語の本文を直した。"));
}

#[test]
fn stale_pages_are_removed() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    build(&options).unwrap();
    assert!(out.path().join("notes/older/index.html.br").exists());
    std::fs::remove_file(root.path().join("content/notes/older.en.md")).unwrap();
    build(&options).unwrap();
    assert!(!out.path().join("notes/older/index.html").exists());
    assert!(!out.path().join("notes/older/index.html.br").exists());
    assert!(out.path().join("assets/manifest.json").exists(), "the UI's files stay");
}

/// The error of building the fixture site after `edit`, which `site check` must give too.
fn build_error(edit: impl FnOnce(&Path)) -> String {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    edit(root.path());
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    let checked = check(&options).map(|report| report.summary());
    let error = generator::describe_error(&build(&options).unwrap_err());
    let checked = checked.map_err(|e| generator::describe_error(&e));
    assert_eq!(
        checked,
        Err(error.clone()),
        "site check rejects what site build rejects"
    );
    error
}

/// The error of building the fixture site with `file` (below the site's root) holding `text`.
fn error_with_page(file: &str, text: &str) -> String {
    build_error(|root| std::fs::write(root.join(file), text).unwrap())
}

#[test]
fn a_broken_link_fails_the_build_with_file_and_line() {
    let err = build_error(|root| {
        let page = root.join("content/notes/first.zh.md");
        let text = std::fs::read_to_string(&page).unwrap() + "\n見 [估值](/valuation-models/dcf)。\n";
        std::fs::write(page, text).unwrap();
    });
    assert!(
        err.contains("content/notes/first.zh.md:12: link to /valuation-models/dcf: there is no page"),
        "{err}"
    );
}

#[test]
fn a_missing_anchor_fails_the_build() {
    let err = build_error(|root| {
        let page = root.join("content/_index.en.md");
        let text = std::fs::read_to_string(&page)
            .unwrap()
            .replace("/notes/first#math", "/notes/first#maths");
        std::fs::write(page, text).unwrap();
    });
    assert!(err.contains("content/_index.en.md:7: link to /notes/first#maths: the en page /notes/first has no heading with id `maths`"), "{err}");
}

#[test]
fn bad_front_matter_names_the_file_and_line() {
    let err = error_with_page(
        "content/guide/b.en.md",
        "---\ntitle: B\ndescription: d\nweight: heavy\n---\nB.\n",
    );
    assert!(err.contains("content/guide/b.en.md:4"), "{err}");
    assert!(err.contains("invalid front matter"), "{err}");
}

#[test]
fn bad_math_names_the_file_line() {
    let err = error_with_page(
        "content/guide/b.en.md",
        "---\ntitle: B\ndescription: d\n---\nB.\n\n$\\frac{1}$\n",
    );
    assert!(err.contains("content/guide/b.en.md:7: invalid math"), "{err}");
}

#[test]
fn an_unknown_template_is_named_with_the_line_of_its_key() {
    let err = error_with_page(
        "content/guide/b.en.md",
        "---\ntitle: B\ndescription: d\nweight: 2\ntemplate: fancy.html\n---\nB.\n",
    );
    assert!(
        err.contains("content/guide/b.en.md:5: unknown template `fancy.html` (there are: base.html, collection.html,"),
        "{err}"
    );
}

#[test]
fn an_island_missing_from_the_ui_bundle_is_named_with_the_file_and_line() {
    let err = error_with_page(
        "content/guide/b.en.md",
        "---\ntitle: B\ndescription: d\nisland: Calculator\n---\nB.\n",
    );
    assert!(
        err.contains("content/guide/b.en.md:4: unknown island `Calculator` (the UI bundle has LoginForm, ProfileImage, Sidebar, TopBar, Welcome;"),
        "{err}"
    );
}

#[test]
fn a_date_that_is_not_a_date_is_named_with_the_file_and_line() {
    let err = error_with_page(
        "content/notes/later.en.md",
        "---\ntitle: Later\ndescription: d\ndate: next tuesday\n---\nSoon.\n",
    );
    assert!(
        err.contains(
            "content/notes/later.en.md:4:7: invalid front matter: date: `next tuesday` is not YYYY-MM-DD or YYYY-MM"
        ),
        "{err}"
    );
}

#[test]
fn an_island_only_a_template_places_must_be_in_the_ui_bundle() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    let manifest = out.path().join("assets/manifest.json");
    let text = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("\"Sidebar\"", "\"Sidebar2\"");
    std::fs::write(&manifest, text).unwrap();
    for err in [check(&options).unwrap_err(), build(&options).unwrap_err()] {
        let err = generator::describe_error(&err);
        assert!(err.contains("the UI bundle has no island named Sidebar "), "{err}");
    }
}

#[test]
fn a_template_error_names_the_template() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let templates = tempfile::tempdir().unwrap();
    copy_dir(&manifest_dir().join("templates"), templates.path());
    let page = templates.path().join("section.html");
    let text = std::fs::read_to_string(&page)
        .unwrap()
        .replace("{{ page.content | safe }}", "{{ page.contents | safe }}");
    std::fs::write(page, text).unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut options = options(root.path(), out.path());
    options.templates = templates.path().to_path_buf();
    for err in [check(&options).unwrap_err(), build(&options).unwrap_err()] {
        let err = generator::describe_error(&err);
        assert!(
            err.contains("with section.html") && err.contains("page.contents"),
            "{err}"
        );
    }
}

/// The fixture site with an `apps` collection whose entries have no pages of their own (like
/// the app projects): the list shows them whole.
fn site_with_apps() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let config = root.path().join("site-config.yaml");
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("collections:\n", "collections:\n  apps: { entry_pages: false }\n");
    std::fs::write(&config, text).unwrap();
    let apps = root.path().join("content/apps");
    std::fs::create_dir_all(&apps).unwrap();
    std::fs::write(
        apps.join("_index.en.md"),
        "---\ntitle: Apps\ndescription: The apps.\nkeywords: [apps]\n---\nApps I made.\n",
    )
    .unwrap();
    std::fs::write(
        apps.join("pocket-tool.en.md"),
        "---\ntitle: Pocket Tool\ndescription: A tool.\ndate: 2025-09\nkeywords: [gadget]\n---\nIt fits in a [pocket](/notes).\n",
    )
    .unwrap();
    root
}

#[test]
fn entries_without_pages_are_only_in_their_list_and_nowhere_else() {
    let root = site_with_apps();
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    let checked = check(&options).unwrap();
    let report = build(&options).unwrap();
    assert_eq!(
        report.pages,
        3 * 12,
        "12 routes in 3 languages: the apps list, not its entry"
    );
    assert_eq!(checked.pages, report.pages, "site check counts what site build writes");
    assert_eq!(checked.summary(), "Checked 36 pages: no errors");

    let built = common::built_urls(out.path(), &["zh", "ja"]);
    assert_eq!(built.len(), report.pages);
    assert!(
        built.contains("/ja/apps") && !built.iter().any(|u| u.contains("pocket-tool")),
        "{built:?}"
    );
    assert_eq!(common::sitemap_urls(out.path(), "https://fixture.example"), built);
    assert_eq!(common::search_index_urls(out.path()), built);

    let list = std::fs::read_to_string(out.path().join("zh/apps/index.html")).unwrap();
    assert!(
        list.contains("Pocket Tool") && list.contains("<a href=\"/zh/notes\">pocket</a>"),
        "{list}"
    );
    // The list is where the entry is read, so searching for it finds the list.
    let index = common::search_index(out.path());
    let apps = index.iter().find(|e| e["url"] == "/zh/apps").unwrap();
    assert_eq!(apps["text"], "Apps I made. Pocket Tool It fits in a pocket.");
    assert_eq!(apps["keywords"], serde_json::json!(["apps", "gadget"]));
}

#[test]
fn a_link_to_an_entry_without_a_page_is_broken() {
    let root = site_with_apps();
    let page = root.path().join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&page).unwrap() + "\nSee [the tool](/apps/pocket-tool).\n";
    std::fs::write(&page, text).unwrap();
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    for err in [check(&options).unwrap_err(), build(&options).unwrap_err()] {
        let err = generator::describe_error(&err);
        assert!(
            err.contains("content/notes/first.en.md:25: link to /apps/pocket-tool: there is no page /apps/pocket-tool"),
            "{err}"
        );
    }
}

#[test]
fn check_counts_the_pages_build_writes_and_writes_nothing() {
    let out = tempfile::tempdir().unwrap();
    let options = options(&fixture(), out.path());
    let checked = check(&options).unwrap();
    assert_eq!(checked.summary(), "Checked 33 pages: no errors");
    let written: Vec<_> = WalkDir::new(out.path())
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .collect();
    assert_eq!(written.len(), 1, "only the UI manifest: {written:?}");
    assert_eq!(build(&options).unwrap().pages, checked.pages);
    let built = common::built_urls(out.path(), &["zh", "ja"]);
    assert_eq!(common::sitemap_urls(out.path(), "https://fixture.example"), built);
    assert_eq!(common::search_index_urls(out.path()), built);
}

#[test]
fn a_pages_own_preview_image_replaces_the_sites_and_must_exist() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    let note = root.path().join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&note).unwrap();
    let with_image = |src: &str| {
        text.replacen(
            "---\n",
            &format!("---\nimage: {{ src: {src}, width: 400, height: 400 }}\n"),
            1,
        )
    };
    std::fs::write(&note, with_image("/images/favicon.svg")).unwrap();
    build(&options).unwrap();
    let page = std::fs::read_to_string(out.path().join("notes/first/index.html")).unwrap();
    assert!(page.contains("<meta property=\"og:image\" content=\"https://fixture.example/images/favicon.svg\">"));
    assert!(page.contains("<meta property=\"og:image:width\" content=\"400\">"));
    assert!(
        page.contains("<meta name=\"twitter:card\" content=\"summary\">"),
        "a square image gets the small card"
    );

    std::fs::write(&note, with_image("/images/missing.png")).unwrap();
    let err = build(&options).unwrap_err().to_string();
    assert!(
        err.contains("notes/first.en.md:2: image `/images/missing.png` is not a file of"),
        "{err}"
    );
}
