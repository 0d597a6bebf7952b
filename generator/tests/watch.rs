//! `site watch`'s rebuilds against a clean build: after every edit, addition, rename, deletion,
//! tag and title change of pages of a copy of the fixture site, the watched output equals a whole
//! `site build --dev` of the same sources byte for byte (pages, tag pages, neighbours, feeds,
//! sitemap, search index files), and a one-page edit renders only the pages it touches. The real
//! watcher (the `site` binary) is checked the same way, and its status file carries a failed
//! build's file, line and message, cleared by the next good build; its terminal shows each error
//! and warning once.

use generator::Resident;
use generator::STATUS_FILE;
use generator::{build, BuildOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};
use walkdir::WalkDir;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    manifest_dir().join("tests/fixtures/site")
}

/// A copy of the fixture site in `root`, its UI's server bundle where a site keeps it.
fn copy_fixture(root: &Path) {
    for entry in WalkDir::new(fixture()) {
        let entry = entry.unwrap();
        let target = root.join(entry.path().strip_prefix(fixture()).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
    std::fs::create_dir_all(root.join("ui/.ssr")).unwrap();
    std::fs::copy(fixture().join("ui/render.mjs"), root.join("ui/.ssr/render.mjs")).unwrap();
    write(
        &root.join("content/search.en.md"),
        "---\ntitle: Search\ndescription: Search the site.\nisland: Search\n---\n",
    );
}

/// A temporary folder with a copy of the fixture site (`site/`) and where to build it (`out/`).
fn fixture_copy() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let site = tempfile::tempdir().unwrap();
    let root = site.path().join("site");
    copy_fixture(&root);
    let out = site.path().join("out");
    (site, root, out)
}

/// Dev build options for the site at `root` into `out`, which gets the fixture's UI manifest
/// and a search island (the copy of the site has a search page), and two rules its pages leave to
/// their islands' stylesheet (`output/styles`): one for what no page has, one for quotes, which a
/// page with a quote inlines.
fn options(root: &Path, out: &Path) -> BuildOptions {
    std::fs::create_dir_all(out.join("assets")).unwrap();
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture().join("assets/manifest.json")).unwrap()).unwrap();
    manifest["islands"]["Search"] = serde_json::json!(["/assets/Search-T.js"]);
    let css = format!(
        "{}blockquote{{margin:0}}.drawn-later{{color:red}}",
        manifest["inlineCss"].as_str().unwrap()
    );
    manifest["inlineCss"] = serde_json::json!(css);
    std::fs::write(out.join("assets/manifest.json"), manifest.to_string()).unwrap();
    BuildOptions {
        root: root.to_path_buf(),
        out: out.to_path_buf(),
        templates: manifest_dir().join("templates"),
        server_bundle: root.join("ui/.ssr/render.mjs"),
        dev: true,
        drafts: false,
        future: false,
        island_cache: None,
        photo_cache: None,
        markdown_cache: None,
    }
}

/// Every file below `out` but the watcher's status, with its bytes.
fn files(out: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    WalkDir::new(out)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(out).unwrap().to_path_buf(), e.into_path()))
        .filter(|(relative, _)| relative != Path::new(STATUS_FILE))
        .map(|(relative, path)| (relative, std::fs::read(path).unwrap()))
        .collect()
}

/// What differs between the watched output and a clean build of the same sources (empty when
/// they are equal).
fn differences(root: &Path, watched: &Path) -> Vec<String> {
    let clean = tempfile::tempdir().unwrap();
    build(&options(root, clean.path())).unwrap();
    let (expected, actual) = (files(clean.path()), files(watched));
    let mut problems = Vec::new();
    for (file, bytes) in &expected {
        match actual.get(file) {
            None => problems.push(format!("missing {}", file.display())),
            Some(got) if got != bytes => problems.push(format!("differs: {}", file.display())),
            _ => {}
        }
    }
    problems.extend(
        actual
            .keys()
            .filter(|f| !expected.contains_key(*f))
            .map(|f| format!("stale: {}", f.display())),
    );
    problems
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn replace(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from}", path.display());
    std::fs::write(path, text.replace(from, to)).unwrap();
}

fn append(path: &Path, text: &str) {
    let old = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, old + text).unwrap();
}

const NEW_NOTE: &str = "---\ntitle: A new note\ndescription: Added while watching.\ndate: 2025-12-01\n---\nNew text with a [link](/notes/first).\n";

/// A change to the fixture: what changes, the change, the files to tell the watcher, and how many
/// pages it may render again.
type Step = (&'static str, fn(&Path), &'static [&'static str], usize);

// Each step: what changes, the files to tell the watcher, and how many pages it may render
// again, each in three languages: the page, its list, its neighbours, and its old and new
// tags' pages and the tag index (not the search page: a dev build's index keeps its name).
const STEPS: &[Step] = &[
    (
        "edit a note's text (its translations become stale)",
        |c| append(&c.join("notes/first.en.md"), "\nA new paragraph.\n"),
        &["notes/first.en.md"],
        18,
    ),
    (
        "quote in a note (its islands' stylesheet no longer holds the quotes' rule)",
        |c| append(&c.join("notes/first.en.md"), "\n> A quote.\n"),
        &["notes/first.en.md"],
        18,
    ),
    (
        "take the quote out again (that stylesheet is named by no page any more)",
        |c| replace(&c.join("notes/first.en.md"), "\n> A quote.\n", "\n"),
        &["notes/first.en.md"],
        18,
    ),
    (
        "retitle a page its section lists, its neighbours and its tag show",
        |c| replace(&c.join("guide/a.en.md"), "Second by weight", "Retitled"),
        &["guide/a.en.md"],
        15,
    ),
    (
        "tag a page with a new tag and drop its old one",
        |c| replace(&c.join("guide/a.en.md"), "tags: [math]", "tags: [fresh]"),
        &["guide/a.en.md"],
        18,
    ),
    (
        "date a note so it moves among its neighbours",
        |c| replace(&c.join("notes/older.en.md"), "date: 2024-01", "date: 2026-01"),
        &["notes/older.en.md"],
        9,
    ),
    (
        "add a note in two languages",
        |c| {
            write(&c.join("notes/added.en.md"), NEW_NOTE);
            write(&c.join("notes/added.zh.md"), &NEW_NOTE.replace("A new note", "新筆記"));
        },
        &["notes/added.en.md", "notes/added.zh.md"],
        12,
    ),
    (
        "rename a note",
        |c| std::fs::rename(c.join("notes/older.en.md"), c.join("notes/renamed.en.md")).unwrap(),
        &["notes/older.en.md", "notes/renamed.en.md"],
        9,
    ),
    (
        "delete a translation (the page falls back to English)",
        |c| std::fs::remove_file(c.join("notes/added.zh.md")).unwrap(),
        &["notes/added.zh.md"],
        12,
    ),
    (
        "delete a page",
        |c| {
            std::fs::remove_file(c.join("notes/added.en.md")).unwrap();
        },
        &["notes/added.en.md"],
        9,
    ),
    (
        "give the renamed note its old URL as an alias (the site facts and nginx list it)",
        |c| {
            replace(
                &c.join("notes/renamed.en.md"),
                "date: 2026-01",
                "date: 2026-01\naliases: [/notes/older]",
            )
        },
        &["notes/renamed.en.md"],
        9,
    ),
    (
        "make a note a draft (a dev build shows it, with its badge)",
        |c| {
            replace(
                &c.join("notes/renamed.en.md"),
                "date: 2026-01",
                "date: 2026-01\ndraft: true",
            )
        },
        &["notes/renamed.en.md"],
        9,
    ),
    (
        "add a section with a page",
        |c| {
            write(
                &c.join("guide/deep/_index.en.md"),
                "---\ntitle: Deep\ndescription: A section.\n---\nDeep pages.\n",
            );
            write(
                &c.join("guide/deep/x.en.md"),
                "---\ntitle: X\ndescription: In deep.\n---\nSee [the guide](/guide).\n",
            );
        },
        &["guide/deep/_index.en.md", "guide/deep/x.en.md"],
        12,
    ),
];

#[test]
fn every_rebuild_equals_a_clean_build() {
    let (_site, root, out) = fixture_copy();
    let content = root.join("content");
    let mut resident = Resident::new(options(&root, &out));
    resident.build_all().unwrap();
    assert_eq!(differences(&root, &out), Vec::<String>::new(), "after the first build");

    for &(what, change, files, at_most) in STEPS {
        change(&content);
        let changed: Vec<PathBuf> = files.iter().map(|f| content.join(f)).collect();
        let report = resident.rebuild(&changed).unwrap();
        let rerendered = report.rerendered.unwrap_or_else(|| panic!("{what}: built everything"));
        assert!(rerendered <= at_most, "{what}: rendered {rerendered} pages");
        assert_eq!(differences(&root, &out), Vec::<String>::new(), "after: {what}");
        if what.starts_with("give the renamed note") {
            let facts = std::fs::read_to_string(out.join("_site.json")).unwrap();
            assert!(facts.contains("\"from\": \"/notes/older\""), "{facts}");
        }
        if what.starts_with("make a note a draft") {
            let page = std::fs::read_to_string(out.join("notes/renamed/index.html")).unwrap();
            assert!(page.contains("publishing-badge--draft"), "{what}");
        }
        if what.starts_with("edit a note's text") {
            let stale: Vec<&String> = report.warnings.iter().filter(|w| w.contains("first.zh.md")).collect();
            assert_eq!(stale.len(), 1, "{:?}", report.warnings);
        }
    }

    // A locale change builds everything, and still matches.
    let locale = root.join("locales/zh/translation.json");
    let text = std::fs::read_to_string(&locale).unwrap();
    std::fs::write(&locale, text.replacen("\"首頁\"", "\"主頁\"", 1)).unwrap();
    append(&content.join("notes/first.zh.md"), "\n多一段。\n");
    let report = resident.rebuild(&[locale, content.join("notes/first.zh.md")]).unwrap();
    assert_eq!(report.rerendered, None);
    assert_eq!(differences(&root, &out), Vec::<String>::new(), "after a locale change");
    assert!(std::fs::read_to_string(out.join("zh/notes/index.html"))
        .unwrap()
        .contains("主頁"));
}

#[test]
fn a_failed_rebuild_changes_nothing_and_the_next_one_recovers() {
    let (_site, root, out) = fixture_copy();
    let mut resident = Resident::new(options(&root, &out));
    resident.build_all().unwrap();
    let before = files(&out);
    let page = root.join("content/notes/first.en.md");
    let good = std::fs::read_to_string(&page).unwrap();
    append(&page, "\nSee [nothing](/no-such-page).\n");
    let error = resident.rebuild(std::slice::from_ref(&page)).unwrap_err();
    assert!(format!("{error:#}").contains("no-such-page"), "{error:#}");
    assert_eq!(files(&out), before, "a failed rebuild writes nothing");
    std::fs::write(&page, good.replace("First", "Fixed")).unwrap();
    resident.rebuild(std::slice::from_ref(&page)).unwrap();
    assert_eq!(differences(&root, &out), Vec::<String>::new());
}

#[test]
fn a_rebuild_fails_on_the_links_of_other_pages_an_edit_breaks() {
    let (_site, root, out) = fixture_copy();
    let mut resident = Resident::new(options(&root, &out));
    resident.build_all().unwrap();
    let content = root.join("content");
    let note = content.join("notes/first.en.md");
    let good = std::fs::read_to_string(&note).unwrap();

    // The home page links to this heading.
    replace(&note, "{#math}", "{#maths}");
    let error = format!("{:#}", resident.rebuild(std::slice::from_ref(&note)).unwrap_err());
    assert!(
        error.contains("_index.en.md") && error.contains("no heading with id `math`"),
        "{error}"
    );
    write(&note, &good);
    resident.rebuild(std::slice::from_ref(&note)).unwrap();

    // A page that links to another, then that other page deleted.
    let linking = content.join("notes/linking.en.md");
    write(&linking, &NEW_NOTE.replace("/notes/first", "/notes/older"));
    resident.rebuild(std::slice::from_ref(&linking)).unwrap();
    assert_eq!(differences(&root, &out), Vec::<String>::new());
    let older = content.join("notes/older.en.md");
    std::fs::remove_file(&older).unwrap();
    let error = format!("{:#}", resident.rebuild(std::slice::from_ref(&older)).unwrap_err());
    assert!(
        error.contains("linking.en.md") && error.contains("there is no page /notes/older"),
        "{error}"
    );
}

/// The watcher's status file once its build count reaches `build`.
fn status_after(out: &Path, build: u64, watcher: &mut Child) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(bytes) = std::fs::read(out.join(STATUS_FILE)) {
            let status: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            if status["build"].as_u64().unwrap() >= build {
                return status;
            }
        }
        assert!(watcher.try_wait().unwrap().is_none(), "the watcher stopped");
        assert!(Instant::now() < deadline, "no build {build} within a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
}

struct Stop(Child);

impl Drop for Stop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_watcher_rebuilds_on_save_and_reports_errors_with_file_and_line() {
    let (site, root, out) = fixture_copy();
    options(&root, &out);
    let mut watcher = Stop(
        Command::new(env!("CARGO_BIN_EXE_site"))
            .arg("--root")
            .arg(&root)
            .arg("--out")
            .arg(&out)
            .arg("--templates")
            .arg(manifest_dir().join("templates"))
            .args(["watch", "--dev"])
            .env("TMPDIR", site.path())
            .stderr(std::fs::File::create(site.path().join("watch.log")).unwrap())
            .spawn()
            .unwrap(),
    );
    let first = status_after(&out, 1, &mut watcher.0);
    assert!(first["errors"].is_null(), "{first}");
    let page = root.join("content/notes/first.en.md");
    let good = std::fs::read_to_string(&page).unwrap();

    // A change made while the watcher listens (it may take more than one build: an editor's
    // save can come as two changes).
    std::fs::write(&page, good.replace("First", "Saved")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut build = 2;
    loop {
        status_after(&out, build, &mut watcher.0);
        let problems = differences(&root, &out);
        if problems.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the watched output never matched: {problems:?}"
        );
        build += 1;
    }

    let lines = good.lines().count();
    std::fs::write(&page, format!("{good}\nSee [nothing](/no-such-page).\n")).unwrap();
    let failed = loop {
        build += 1;
        let status = status_after(&out, build, &mut watcher.0);
        if !status["errors"].is_null() {
            break status;
        }
    };
    let errors = failed["errors"].as_array().unwrap();
    let located: Vec<&serde_json::Value> = errors.iter().filter(|e| !e["file"].is_null()).collect();
    assert_eq!(located.len(), 1, "{failed}");
    assert!(located[0]["file"]
        .as_str()
        .unwrap()
        .ends_with("content/notes/first.en.md"));
    assert_eq!(located[0]["line"].as_u64().unwrap() as usize, lines + 2, "{failed}");
    assert!(located[0]["message"].as_str().unwrap().contains("/no-such-page"));

    std::fs::write(&page, &good).unwrap();
    loop {
        build += 1;
        if status_after(&out, build, &mut watcher.0)["errors"].is_null() {
            break;
        }
    }
    assert_eq!(differences(&root, &out), Vec::<String>::new());

    // Each failure and each warning is printed once, however many builds repeat it.
    let log = std::fs::read_to_string(site.path().join("watch.log")).unwrap();
    let count = |text: &str| log.matches(text).count();
    assert_eq!(count("link to /no-such-page"), 1, "{log}");
    assert_eq!(count("notes/_index.ja.md: the English page changed"), 1, "{log}");
    assert!(
        count("Built ") + count("Rebuilt ") >= 3,
        "the warnings came before three builds: {log}"
    );
}
