//! Whole-site builds of the fixture site in `tests/fixtures/site` with the real templates: the
//! output is compared with `tests/fixtures/site-expected` (regenerate with `UPDATE_GOLDEN=1`),
//! and broken sources fail with the file and line, in `site check` as in `site build`.

mod common;

use generator::{build, check, BuildOptions, MIN_COMPRESSED_SIZE};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

use common::{copy_dir, fixture, manifest_dir, options, site_with_a_fourth_language};

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
    // The first build renders every page's Markdown and keeps it; the second takes it from there.
    let cache = tempfile::tempdir().unwrap();
    for _ in 0..2 {
        let out = tempfile::tempdir().unwrap();
        let options = BuildOptions {
            markdown_cache: Some(cache.path().join("markdown")),
            ..options(&fixture(), out.path())
        };
        let report = build(&options).unwrap();
        assert_eq!(report.pages, 3 * 14, "11 routes and 3 of tags in 3 languages");
        assert!(
            report
                .summary()
                .starts_with("Built 42 pages in 3 languages (en, zh, ja) in "),
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
        assert_matches_golden_output(out.path());
    }
    assert!(cache.path().join("markdown").is_file());
}

fn assert_matches_golden_output(out: &Path) {
    let expected_dir = manifest_dir().join("tests/fixtures/site-expected");
    let produced = outputs(out);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&expected_dir);
        for file in &produced {
            let target = expected_dir.join(file);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(out.join(file), target).unwrap();
        }
    }
    let expected = outputs(&expected_dir);
    assert_eq!(produced, expected, "the set of files differs from the golden output");
    for file in &produced {
        let got = std::fs::read_to_string(out.join(file)).unwrap();
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
fn every_text_file_large_enough_has_siblings_that_decompress_to_it() {
    let out = tempfile::tempdir().unwrap();
    build(&options(&fixture(), out.path())).unwrap();
    // The build's records (the server's facts, the aliases' nginx include, the static hosts'
    // files) are read from disk, never sent: they get no siblings, however large.
    let read_from_disk = [
        site_contract::SITE_FACTS_FILE,
        site_contract::ALIASES_NGINX_FILE,
        site_contract::HEADERS_FILE,
        site_contract::REDIRECTS_FILE,
    ];
    for record in read_from_disk {
        for sibling in [format!("{record}.gz"), format!("{record}.br")] {
            assert!(!out.path().join(&sibling).exists(), "{sibling}");
        }
    }
    let sent = outputs(out.path())
        .into_iter()
        .filter(|f| !read_from_disk.iter().any(|r| f == Path::new(r)));
    let (mut large, mut small) = (0, 0);
    for file in sent {
        let original = std::fs::read(out.path().join(&file)).unwrap();
        let path = out.path().join(&file);
        let (gz_path, br_path) = (format!("{}.gz", path.display()), format!("{}.br", path.display()));
        if original.len() < MIN_COMPRESSED_SIZE {
            small += 1;
            assert!(
                !Path::new(&gz_path).exists() && !Path::new(&br_path).exists(),
                "{}",
                file.display()
            );
            continue;
        }
        large += 1;
        let mut gz = vec![0; original.len()];
        let len = (libdeflater::Decompressor::new())
            .gzip_decompress(&std::fs::read(&gz_path).unwrap(), &mut gz)
            .unwrap_or_else(|e| panic!("{}.gz: {e}", file.display()));
        assert_eq!(gz[..len], original, "{}.gz", file.display());
        let mut br = Vec::new();
        brotlic::DecompressorReader::new(&std::fs::read(&br_path).unwrap()[..])
            .read_to_end(&mut br)
            .unwrap();
        assert_eq!(br, original, "{}.br", file.display());
    }
    assert!(large > 10 && small > 10, "{large} large and {small} small files");
}

#[test]
fn a_warm_rebuild_writes_nothing_and_an_edit_rewrites_little() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let out = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        markdown_cache: Some(cache.path().join("markdown")),
        ..options(root.path(), out.path())
    };
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
    // The page, the Japanese feed (which holds the note in full), the search index's manifest,
    // `_headers` (which names the manifest's new hashed name) and the Japanese index files that
    // hold the page's words change; nothing else does.
    let written = build(&options).unwrap().written;
    let after = search_files();
    assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>());
    let changed: Vec<&String> = after.keys().filter(|k| before[*k] != after[*k]).collect();
    assert!(
        !changed.is_empty() && changed.iter().all(|n| n.starts_with("assets/search/ja/")),
        "{changed:?}"
    );
    assert!(changed.len() < after.len() / 3, "{changed:?}");
    assert_eq!(written, 4 + changed.len());
    // Read without the phrase marks of Japanese text (`<wbr>`, escaped in the feed).
    let page = std::fs::read_to_string(out.path().join("ja/notes/first/index.html")).unwrap();
    assert!(page.replace("<wbr>", "").contains("日本語の本文を直した。"));
    let feed = std::fs::read_to_string(out.path().join("ja/atom.xml")).unwrap();
    assert!(feed.replace("&lt;wbr&gt;", "").contains("日本語の本文を直した。"));
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

#[test]
fn a_frame_for_a_route_without_a_page_fails_the_build() {
    let err = build_error(|root| {
        let config = root.join("site-config.yaml");
        let text = std::fs::read_to_string(&config)
            .unwrap()
            .replace("  /login: form\n", "  /logn: form\n");
        std::fs::write(config, text).unwrap();
    });
    assert!(
        err.contains("site-config.yaml: frames: `/logn` is not the route of a page"),
        "{err}"
    );
}

#[test]
fn a_top_bar_or_footer_link_without_a_page_or_a_label_fails_the_build() {
    let err = build_error(|root| {
        let config = root.join("site-config.yaml");
        let text = (std::fs::read_to_string(&config).unwrap())
            .replace("{ key: notes, link: /notes }", "{ key: notes, link: /notse }")
            .replace("{ key: terms,", "{ key: term,");
        std::fs::write(config, text).unwrap();
    });
    assert!(err.contains("top_bar: `/notse` is not the route of a page"), "{err}");
    assert!(
        err.contains("footer: `term` has no label: locales/en/translation.json has no `footer.term`"),
        "{err}"
    );
}

/// The top bar's sections and the footer's links are site-config.yaml's entries, in its order.
#[test]
fn the_top_bar_and_the_footer_are_the_configs_entries() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let config = root.path().join("site-config.yaml");
    let text = (std::fs::read_to_string(&config).unwrap()).replace(
        "footer:\n  - { key: privacy, link: /climbers-deal-privacy }\n",
        "footer:\n",
    );
    std::fs::write(
        &config,
        text.replace("top_bar:\n", "top_bar:\n  - { key: notes, link: /guide }\n"),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    build(&options(root.path(), out.path())).unwrap();
    let home = std::fs::read_to_string(out.path().join("zh/index.html")).unwrap();
    let footer = &home[home.find("<nav class=\"footer-links\"").unwrap()..];
    let footer = &footer[..footer.find("</nav>").unwrap()];
    assert!(!footer.contains("climbers-deal-privacy"), "{footer}");
    let terms = footer.find("href=\"/zh/climbers-deal-terms\"").expect(footer);
    assert!(
        terms < footer.find("href=\"/zh/climbers-deal-support\"").unwrap(),
        "{footer}"
    );
    let sections = r#"&quot;sections&quot;:[{&quot;key&quot;:&quot;notes&quot;,&quot;route&quot;:&quot;/guide&quot;},{&quot;key&quot;:&quot;home&quot;,&quot;route&quot;:&quot;/&quot;},{&quot;key&quot;:&quot;notes&quot;,&quot;route&quot;:&quot;/notes&quot;}]"#;
    assert!(home.contains(sections), "{home}");
}

/// A page declares its island where it places it: when it hydrates, its own props and the
/// build's facts it needs; `island: Name` alone hydrates at once with only its language.
#[test]
fn a_page_island_hydrates_and_gets_the_props_its_front_matter_declares() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let page = |island: &str| format!("---\ntitle: T\ndescription: D.\nisland: {island}\n---\n");
    let login = page("{ name: LoginForm, hydrate: idle, props: { next: /notes } }");
    std::fs::write(root.path().join("content/login.en.md"), login).unwrap();
    std::fs::write(
        root.path().join("content/search.en.md"),
        page("{ name: Search, data: [search_index] }"),
    )
    .unwrap();
    std::fs::write(root.path().join("content/find.en.md"), page("Search")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    let manifest = out.path().join("assets/manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let with_search = text.replace("\"islands\":{", "\"islands\":{\"Search\":[\"/assets/Search-T.js\"],");
    std::fs::write(&manifest, with_search).unwrap();
    build(&options).unwrap();
    let html = |file: &str| std::fs::read_to_string(out.path().join(file)).unwrap();
    let login = html("login/index.html");
    let placed = r#"data-island="LoginForm" data-id="loginform" data-lng="en" data-hydrate="idle" data-props="{&quot;lang&quot;:&quot;en&quot;,&quot;next&quot;:&quot;/notes&quot;}""#;
    assert!(login.contains(placed), "{login}");
    let search = html("search/index.html");
    let island = &search[search.find(r#"data-island="Search""#).expect(&search)..];
    let island = &island[..island.find('>').unwrap()];
    assert!(island.contains("&quot;indexUrl&quot;:&quot;/"), "{island}");
    assert!(!island.contains("data-hydrate"), "{island}");
    let find = html("find/index.html");
    assert!(
        find.contains(
            r#"data-island="Search" data-id="search" data-lng="en" data-props="{&quot;lang&quot;:&quot;en&quot;}""#
        ),
        "{find}"
    );
}

#[test]
fn an_island_placed_with_an_unknown_hydration_fails_the_build_with_file_and_line() {
    let err = error_with_page(
        "content/login.en.md",
        "---\ntitle: Login\ndescription: D.\nisland: { name: LoginForm, hydrate: later }\n---\n",
    );
    assert!(err.contains("content/login.en.md"), "{err}");
    assert!(
        err.contains("unknown variant `later`, expected `load` or `idle`"),
        "{err}"
    );
}

/// GET `path` from the site server over `dist`, with `headers`; the answer's status, `Location`
/// and the language its page says it is in (`data-lang`).
async fn served(dist: &Path, path: &str, headers: &[(&str, &str)]) -> (u16, String, String) {
    use poem::EndpointExt;
    let api = poem::endpoint::make_sync(|_| "api").map_to_response().boxed();
    let options = site_server::static_site::SiteOptions {
        dist_dir: dist.to_path_buf(),
        dev: false,
    };
    let client = poem::test::TestClient::new(site_server::static_site::site_endpoint(options, api).unwrap());
    let mut request = client.get(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await;
    let status = response.0.status().as_u16();
    let location = response.0.header("location").unwrap_or_default().to_string();
    let body = response.0.into_body().into_string().await.unwrap();
    let lang = body
        .split("data-lang=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_default()
        .to_string();
    (status, location, lang)
}

/// Routes: its own pages, and the others in its frame, falling back to English text.
fn assert_korean_routes_are_built(dist: &Path) {
    let urls = common::built_urls(dist, &["zh", "ja", "ko"]);
    for url in ["/ko/", "/ko/notes", "/ko/notes/first", "/ko/notes/older", "/ko/login"] {
        assert!(urls.contains(url), "{url} not built: {urls:?}");
    }
    let note = std::fs::read_to_string(dist.join("ko/notes/first/index.html")).unwrap();
    assert!(note.contains("한국어 본문."));
    assert!(note.contains("<html lang=\"ko-KR\""), "the page names its tag");
    assert!(
        dist.join("ko/notes/404.html").exists(),
        "the collection's not-found page"
    );
}

/// hreflang: every page links all four, Korean under its tag; the sitemap lists the Korean pages,
/// each with the others as alternates.
fn assert_every_page_links_korean(dist: &Path) {
    for page in [
        "notes/first/index.html",
        "zh/notes/first/index.html",
        "ko/notes/first/index.html",
    ] {
        let html = std::fs::read_to_string(dist.join(page)).unwrap();
        assert!(
            html.contains(r#"<link rel="alternate" hreflang="ko-KR" href="https://fixture.example/ko/notes/first">"#),
            "{page}"
        );
        assert!(
            html.contains(r#"hreflang="ja" href="https://fixture.example/ja/notes/first""#),
            "{page}"
        );
    }

    let sitemap = std::fs::read_to_string(dist.join("sitemap.xml")).unwrap();
    let locs = common::sitemap_urls(dist, "https://fixture.example");
    assert!(locs.contains("/ko/notes/first") && locs.contains("/ko/"), "{locs:?}");
    assert!(sitemap.contains(r#"hreflang="ko-KR" href="https://fixture.example/ko/notes/first"/>"#));
}

/// The UI's language menu (the TopBar's props) offers it, on every language's pages.
fn assert_language_menu_offers_korean(dist: &Path) {
    for page in ["index.html", "ja/notes/first/index.html", "ko/notes/first/index.html"] {
        let html = std::fs::read_to_string(dist.join(page)).unwrap();
        let props = html.split("data-island=\"TopBar\"").nth(1).unwrap();
        let props = props.split("data-props=\"").nth(1).unwrap().split('"').next().unwrap();
        assert!(
            props.contains("{&quot;code&quot;:&quot;ko&quot;,&quot;href&quot;:&quot;/ko/"),
            "{page}: {props}"
        );
    }
}

/// The server learns it from _site.json: prefixed paths, the cookie and Accept-Language.
async fn assert_server_serves_korean(dist: &Path) {
    assert_eq!(
        served(dist, "/ko/notes/first", &[]).await,
        (200, String::new(), "ko".into())
    );
    let by_header = served(dist, "/notes/first", &[("accept-language", "ko-KR,ko;q=0.9,en;q=0.5")]).await;
    assert_eq!(by_header, (200, String::new(), "ko".into()));
    let by_cookie = served(
        dist,
        "/notes/first",
        &[("cookie", "selectedLanguage=ko"), ("accept-language", "ja")],
    )
    .await;
    assert_eq!(by_cookie, (200, String::new(), "ko".into()));
    assert_eq!(served(dist, "/notes/first", &[("accept-language", "fr")]).await.2, "en");
    assert_eq!(
        served(dist, "/ko/no-such-page", &[]).await.1,
        "/ko/?not-found=1",
        "unknown pages go home in Korean"
    );
    assert_eq!(
        served(dist, "/ko/notes/none", &[]).await.0,
        404,
        "the Korean not-found page"
    );
}

/// `_site.json` gives the server each language's API messages: Korean's own, and the default
/// language's where a language has no `api.json` (the fixture's Japanese).
fn assert_facts_carry_korean_api_messages(dist: &Path) {
    let facts = site_contract::SiteFacts::load(dist).unwrap();
    let login_failed = |code: &str| {
        let language = facts.languages.iter().find(|l| l.code == code).unwrap();
        language.api_messages["errors"]["loginFailed"].clone()
    };
    let korean: serde_json::Value = serde_json::from_str(common::KOREAN_API_MESSAGES).unwrap();
    assert_eq!(login_failed("ko"), korean["errors"]["loginFailed"]);
    assert_eq!(login_failed("ja"), login_failed("en"));
    assert_eq!(login_failed("en"), "Login failed, please check username and password");
}

#[tokio::test]
async fn a_fourth_language_needs_only_config_locales_and_content() {
    let root = tempfile::tempdir().unwrap();
    site_with_a_fourth_language(root.path());
    let out = tempfile::tempdir().unwrap();
    let report = build(&options(root.path(), out.path())).unwrap();
    let three = tempfile::tempdir().unwrap();
    let routes = build(&options(&fixture(), three.path())).unwrap().pages / 3;
    assert_eq!(report.pages, 4 * routes, "every route in each of 4 languages");
    assert!(
        report.summary().contains("in 4 languages (en, zh, ja, ko)"),
        "{}",
        report.summary()
    );
    let dist = out.path();
    assert_korean_routes_are_built(dist);
    assert_every_page_links_korean(dist);
    assert_language_menu_offers_korean(dist);
    assert_facts_carry_korean_api_messages(dist);
    assert_server_serves_korean(dist).await;
}

/// The fourth language's pages through the real UI renderer (the UI build's `ui/.ssr/render.mjs`,
/// which `make site` writes before the tests run): its islands are drawn in Korean from
/// `locales/ko/`, which no code names.
#[test]
fn a_fourth_language_renders_its_islands_with_the_real_ui_renderer() {
    let renderer = manifest_dir().join("../ui/.ssr/render.mjs");
    assert!(
        renderer.exists(),
        "{} is missing: build the UI first (`make site`)",
        renderer.display()
    );
    let root = tempfile::tempdir().unwrap();
    site_with_a_fourth_language(root.path());
    let out = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        server_bundle: renderer,
        ..options(root.path(), out.path())
    };
    build(&options).unwrap();
    let note = std::fs::read_to_string(out.path().join("ko/notes/first/index.html")).unwrap();
    let sidebar = &note[note.find(r#"data-island="Sidebar""#).expect("a sidebar")..];
    let sidebar = &sidebar[..sidebar.find("</nav>").expect("the sidebar's menu")];
    assert!(sidebar.contains(r#"data-lng="ko""#), "{sidebar}");
    assert!(
        sidebar.contains(">노트</span>"),
        "drawn with locales/ko/sidebar.json: {sidebar}"
    );
    assert!(
        !sidebar.contains("data-rendered"),
        "not the fixture's stand-in renderer: {sidebar}"
    );
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
fn a_broken_or_missing_api_messages_file_fails_the_build() {
    let err = error_with_page("locales/zh/api.json", "{\n  \"errors\": {,\n}");
    assert!(err.contains("locales/zh/api.json:2:"), "{err}");
    assert!(err.contains("invalid JSON"), "{err}");
    let err = error_with_page("locales/ja/api.json", r#"{"errors": {"loginFailed": ["a list"]}}"#);
    assert!(
        err.contains("locales/ja/api.json: `errors.loginFailed` must be text"),
        "{err}"
    );
    let err = build_error(|root| std::fs::remove_file(root.join("locales/en/api.json")).unwrap());
    assert!(
        err.contains("locales/en/api.json: not found: the default language must have the membership API's messages"),
        "{err}"
    );
}

#[test]
fn a_broken_link_fails_the_build_with_file_and_line() {
    let err = build_error(|root| {
        let page = root.join("content/notes/first.zh.md");
        let text = std::fs::read_to_string(&page).unwrap() + "\n見 [估值](/valuation-models/dcf)。\n";
        std::fs::write(page, text).unwrap();
    });
    assert!(
        err.contains("content/notes/first.zh.md:14: link to /valuation-models/dcf: there is no page"),
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
        3 * 15,
        "12 routes and 3 of tags in 3 languages: the apps list, not its entry"
    );
    assert_eq!(checked.pages, report.pages, "site check counts what site build writes");
    assert_eq!(checked.summary(), "Checked 45 pages: no errors");

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
            err.contains("content/notes/first.en.md:27: link to /apps/pocket-tool: there is no page /apps/pocket-tool"),
            "{err}"
        );
    }
}

#[test]
fn check_counts_the_pages_build_writes_and_writes_nothing() {
    let out = tempfile::tempdir().unwrap();
    let options = options(&fixture(), out.path());
    let checked = check(&options).unwrap();
    assert_eq!(checked.summary(), "Checked 42 pages: no errors");
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

/// A copy of the fixture site to edit, and build options into a fresh output folder.
fn editable_fixture() -> (tempfile::TempDir, tempfile::TempDir, BuildOptions) {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    let out = tempfile::tempdir().unwrap();
    let options = options(root.path(), out.path());
    (root, out, options)
}

/// `(route, language, status)` of every translation `site check` reports.
fn translation_statuses(options: &BuildOptions) -> Vec<(String, String, &'static str)> {
    check(options)
        .unwrap()
        .translations
        .iter()
        .map(|t| (t.route.clone(), t.lang.clone(), t.status.name()))
        .collect()
}

fn status_of<'a>(statuses: &'a [(String, String, &'static str)], route: &str, lang: &str) -> &'a str {
    statuses
        .iter()
        .find(|(r, l, _)| r == route && l == lang)
        .map(|(_, _, s)| *s)
        .unwrap_or_else(|| panic!("{route} {lang} not in {statuses:?}"))
}

const STALE_NOTICE: &str = "<p class=\"translation-notice\" role=\"note\">";

#[test]
fn editing_an_english_page_makes_its_translations_stale_until_site_translated_records_them() {
    let (root, out, options) = editable_fixture();
    let statuses = translation_statuses(&options);
    assert_eq!(status_of(&statuses, "/notes/first", "zh"), "current");
    assert_eq!(status_of(&statuses, "/notes/first", "ja"), "missing");
    assert_eq!(status_of(&statuses, "/notes", "ja"), "stale");
    assert_eq!(status_of(&statuses, "/guide/a", "zh"), "fallback");
    assert!(
        !statuses.iter().any(|(route, _, _)| route.starts_with("/tags")),
        "tag pages are made, not translated: {statuses:?}"
    );

    let note = root.path().join("content/notes/first.en.md");
    let text = std::fs::read_to_string(&note).unwrap();
    std::fs::write(&note, text.replace("A line with", "A rewritten line with")).unwrap();
    let statuses = translation_statuses(&options);
    assert_eq!(status_of(&statuses, "/notes/first", "zh"), "stale");
    assert_eq!(
        status_of(&statuses, "/notes", "zh"),
        "current",
        "other pages stay as they were"
    );
    let report = build(&options).unwrap();
    let zh_file = root.path().join("content/notes/first.zh.md");
    let warning = format!(
        "{}: the English page changed since this translation; update it, then run `site translated notes/first --lang zh`",
        zh_file.display()
    );
    assert!(report.warnings.contains(&warning), "{:#?}", report.warnings);
    let zh_page = std::fs::read_to_string(out.path().join("zh/notes/first/index.html")).unwrap();
    assert!(
        zh_page.contains(&format!("{STALE_NOTICE}此翻譯可能已經過時。</p>")),
        "the stale translation says so in its language"
    );
    for current in [
        "notes/first/index.html",
        "ja/notes/first/index.html",
        "zh/notes/index.html",
    ] {
        let html = std::fs::read_to_string(out.path().join(current)).unwrap();
        assert!(!html.contains(STALE_NOTICE), "{current} is not a stale translation");
    }

    let recorded = generator::translations::record(root.path(), "notes/first", Some("zh")).unwrap();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].0, zh_file);
    let statuses = translation_statuses(&options);
    assert_eq!(status_of(&statuses, "/notes/first", "zh"), "current");
    assert_eq!(
        status_of(&statuses, "/notes/first", "ja"),
        "missing",
        "only the named language"
    );
    build(&options).unwrap();
    let zh_page = std::fs::read_to_string(out.path().join("zh/notes/first/index.html")).unwrap();
    assert!(!zh_page.contains(STALE_NOTICE));
    let zh_text = std::fs::read_to_string(&zh_file).unwrap();
    assert!(
        zh_text.contains("\n中文內容。\n"),
        "the translation's text is untouched"
    );
    assert_eq!(zh_text.matches("translated_from:").count(), 1, "{zh_text}");

    // Without --lang, every translation the page has.
    generator::translations::record(root.path(), "/notes", None).unwrap();
    let statuses = translation_statuses(&options);
    assert_eq!(status_of(&statuses, "/notes", "ja"), "current");
}

#[test]
fn site_translated_refuses_what_it_cannot_record_and_changes_nothing() {
    let (root, _out, _options) = editable_fixture();
    let before = std::fs::read_to_string(root.path().join("content/notes/first.ja.md")).unwrap();
    let err = |page: &str, lang: Option<&str>| {
        generator::translations::record(root.path(), page, lang)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err("notes/nothing", None),
        "there is no page /notes/nothing (its English file would be content/notes/nothing.en.md)"
    );
    assert!(err("notes/first", Some("en")).starts_with("en is the language pages are translated from"));
    assert_eq!(
        err("notes/first", Some("fr")),
        "the site has no language `fr` (it has en, zh, ja)"
    );
    assert!(
        err("guide/a", Some("zh"))
            .ends_with("guide/a.zh.md does not exist: there is no zh translation of /guide/a yet"),
        "{}",
        err("guide/a", Some("zh"))
    );
    assert!(err("guide/a", None).starts_with("/guide/a has no translation yet"));
    let after = std::fs::read_to_string(root.path().join("content/notes/first.ja.md")).unwrap();
    assert_eq!(before, after);
}

#[test]
fn the_site_command_prints_the_translation_table_and_records_translations() {
    let (root, out, _options) = editable_fixture();
    let site = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_site"))
            .arg("--root")
            .arg(root.path())
            .arg("--out")
            .arg(out.path())
            .arg("--templates")
            .arg(manifest_dir().join("templates"))
            .args(args)
            .output()
            .unwrap();
        (
            output.status.success(),
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    let (ok, table, warnings) = site(&["check", "--translations"]);
    assert!(ok, "{warnings}");
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0], ["page", "language", "status"]);
    for row in [
        ["/notes/first", "zh", "current"],
        ["/notes/first", "ja", "missing"],
        ["/notes", "ja", "stale"],
        ["/guide/a", "zh", "fallback"],
    ] {
        assert!(rows.contains(&row.to_vec()), "{row:?} in\n{table}");
    }
    assert!(table.ends_with("Checked 42 pages: no errors\n"), "{table}");
    assert!(
        warnings.contains("notes/_index.ja.md: the English page changed since this translation; update it, then run `site translated notes --lang ja`"),
        "{warnings}"
    );

    let (ok, printed, _) = site(&["translated", "notes", "--lang", "ja"]);
    assert!(ok);
    assert!(printed.starts_with(&format!(
        "{}: translated_from: ",
        root.path().join("content/notes/_index.ja.md").display()
    )));
    let (_, table, _) = site(&["check", "--translations"]);
    assert!(
        table
            .lines()
            .any(|l| l.split_whitespace().eq(["/notes", "ja", "current"])),
        "{table}"
    );

    let (ok, _, error) = site(&["translated", "notes/missing"]);
    assert!(!ok);
    assert!(error.starts_with("Error: there is no page /notes/missing"), "{error}");
}

#[test]
fn tags_get_a_page_in_every_language_linked_from_the_pages_that_carry_them() {
    let out = tempfile::tempdir().unwrap();
    let report = build(&options(&fixture(), out.path())).unwrap();
    let read = |url: &str| std::fs::read_to_string(out.path().join(generator::page_file(url))).unwrap();

    let note = read("/zh/notes/first");
    assert!(
        note.contains("<li><a href=\"/zh/tags/math\" rel=\"tag\">數學</a></li>"),
        "a tag links to its page in the page's language, by its name"
    );
    let math = read("/zh/tags/math");
    assert!(math.contains("<title>標籤：數學 · Fixture Owner</title>"));
    assert!(math.contains("<meta name=\"description\" content=\"關於數學的頁面。\">"));
    assert!(math.contains("<link rel=\"canonical\" href=\"https://fixture.example/zh/tags/math\">"));
    assert!(math.contains("<link rel=\"alternate\" hreflang=\"ja\" href=\"https://fixture.example/ja/tags/math\">"));
    assert!(math.contains("<a href=\"/zh/notes/first\">第一篇筆記</a>"));
    assert!(
        math.contains("<a href=\"/zh/guide/a\">Second by weight</a>"),
        "a page shown in English for want of a translation keeps its tags"
    );
    assert!(
        !read("/tags/math").contains("第一篇筆記"),
        "each language lists its own pages"
    );

    let index = read("/ja/tags");
    assert!(index.contains("<h1>タグ</h1>"));
    assert!(index.contains(
        "<li><a href=\"/ja/tags/math\" rel=\"tag\">数学</a> <span class=\"tag-count\">2</span></li>\n<li><a href=\"/ja/tags/examples\" rel=\"tag\">examples</a> <span class=\"tag-count\">1</span></li>"
    ), "the most used first, a tag without a name under its key: {index}");
    assert!(
        report.warnings.iter().any(|w| w.ends_with(
            "content/notes/first.en.md:6: tag `examples` has no name in the locales (`tags.names.examples` in locales/*/translation.json); its pages show `examples`"
        )),
        "{:#?}",
        report.warnings
    );
    let built = common::built_urls(out.path(), &["zh", "ja"]);
    for url in ["/tags", "/tags/math", "/zh/tags/examples", "/ja/tags"] {
        assert!(built.contains(url), "{url}");
    }
    assert_eq!(common::sitemap_urls(out.path(), "https://fixture.example"), built);
    assert_eq!(common::search_index_urls(out.path()), built);
}

#[test]
fn a_tag_that_cannot_be_a_url_fails_with_the_file_and_line() {
    let err = build_error(|root| {
        let note = root.join("content/notes/first.en.md");
        let text = std::fs::read_to_string(&note).unwrap();
        std::fs::write(
            &note,
            text.replace("tags: [math, examples]", "tags: [math, Risk Premium]"),
        )
        .unwrap();
    });
    assert!(
        err.contains("content/notes/first.en.md:6: tag `Risk Premium` must be lower-case letters, digits and dashes"),
        "{err}"
    );
}

#[test]
fn a_feed_holds_the_fifty_newest_articles() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), root.path());
    for n in 0..60 {
        let note = format!(
            "---\ntitle: Note {n:02}\ndescription: One of many.\ndate: 2026-01-{day:02}\n---\n\nText {n}.\n",
            day = n % 28 + 1
        );
        std::fs::write(root.path().join(format!("content/notes/many-{n:02}.en.md")), note).unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    build(&options(root.path(), out.path())).unwrap();
    let feed = std::fs::read_to_string(out.path().join("atom.xml")).unwrap();
    assert_eq!(feed.matches("<entry>").count(), 50);
    // The newest first: the notes of 28 January are in, the fixture's older notes are not.
    assert!(feed.contains("Note 27") && feed.contains("Note 55"));
    assert!(!feed.contains("/notes/older"));
}

/// Every file `out` holds (compressed siblings aside), as text, to look for what must not be
/// anywhere: pages, lists, feeds, the sitemap, the search index, tag pages, neighbour links.
fn all_output_text(out: &Path) -> String {
    outputs(out)
        .iter()
        .map(|file| String::from_utf8_lossy(&std::fs::read(out.join(file)).unwrap()).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A draft note and a note dated in 2999, both carrying a tag no other page has.
fn add_unpublished_notes(root: &Path) {
    let notes = root.join("content/notes");
    std::fs::write(
        notes.join("unfinished.en.md"),
        "---\ntitle: Unfinished thoughts\ndescription: Half written.\ndate: 2025-01-01\ndraft: true\ntags: [drafting]\n---\nNot ready.\n",
    )
    .unwrap();
    std::fs::write(
        notes.join("coming.en.md"),
        "---\ntitle: Coming soon note\ndescription: Written ahead.\ndate: 2999-01-01\ntags: [drafting]\n---\nLater.\n",
    )
    .unwrap();
}

#[test]
fn drafts_and_future_pages_are_in_no_output_unless_the_build_asks_for_them() {
    let (root, out, mut options) = editable_fixture();
    add_unpublished_notes(root.path());
    let report = build(&options).unwrap();
    assert_eq!(report.pages, 3 * 14, "the fixture's pages and no more");
    let text = all_output_text(out.path());
    for absent in [
        "Unfinished thoughts",
        "notes/unfinished",
        "Coming soon note",
        "notes/coming",
        "drafting",
    ] {
        assert!(!text.contains(absent), "`{absent}` is in the output");
    }

    let checked = check(&options).unwrap();
    assert_eq!(checked.pages, 3 * 14);
    let table = checked.translations_table();
    assert!(table.contains("not published (2 files):"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("/notes/coming") && l.contains("scheduled for 2999-01-01")),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("/notes/unfinished") && l.contains("draft")),
        "{table}"
    );

    options.drafts = true;
    build(&options).unwrap();
    let text = all_output_text(out.path());
    assert!(text.contains("Unfinished thoughts") && !text.contains("Coming soon note"));

    options.future = true;
    let report = build(&options).unwrap();
    assert_eq!(
        report.pages,
        3 * (14 + 2 + 1),
        "two notes and their tag's page, in 3 languages"
    );
    let built = common::built_urls(out.path(), &["zh", "ja"]);
    let sitemap = common::sitemap_urls(out.path(), "https://fixture.example");
    let search = common::search_index_urls(out.path());
    for url in ["/notes/unfinished", "/zh/notes/coming", "/ja/tags/drafting"] {
        assert!(built.contains(url) && sitemap.contains(url), "{url}");
    }
    assert!(search.contains("/notes/coming") && search.contains("/zh/notes/unfinished"));
    let feed = std::fs::read_to_string(out.path().join("atom.xml")).unwrap();
    assert!(feed.contains("Unfinished thoughts") && feed.contains("Coming soon note"));
    let page = |path: &str| std::fs::read_to_string(out.path().join(path)).unwrap();
    let draft = page("notes/unfinished/index.html");
    assert!(
        draft.contains("<p class=\"publishing-badge publishing-badge--draft\" role=\"note\"><strong>Draft</strong>")
    );
    let scheduled = page("ja/notes/coming/index.html");
    assert!(
        scheduled.contains(
            "<p class=\"publishing-badge publishing-badge--scheduled\" role=\"note\"><strong>予約投稿</strong>"
        ),
        "the badge is in the page's language"
    );
    assert!(!page("notes/first/index.html").contains("publishing-badge"));
}

#[test]
fn a_dev_build_shows_drafts_and_a_draft_home_page_is_an_error() {
    let (root, out, mut options) = editable_fixture();
    add_unpublished_notes(root.path());
    options.dev = true;
    build(&options).unwrap();
    let zh = std::fs::read_to_string(out.path().join("zh/notes/unfinished/index.html")).unwrap();
    assert!(
        zh.contains("<strong>草稿</strong>"),
        "make dev shows drafts with their badge"
    );

    options.dev = false;
    let home = root.path().join("content/_index.en.md");
    let text = std::fs::read_to_string(&home).unwrap();
    std::fs::write(&home, text.replacen("---\n", "---\ndraft: true\n", 1)).unwrap();
    let err = check(&options).unwrap_err().to_string();
    assert!(
        err.contains("_index.en.md:2: the home page cannot be a draft or scheduled"),
        "{err}"
    );
}

#[test]
fn aliases_are_in_the_site_facts_and_the_nginx_include_and_nowhere_else() {
    let (_root, out, options) = editable_fixture();
    build(&options).unwrap();
    let facts = site_contract::SiteFacts::load(out.path()).unwrap();
    let listed: Vec<(&str, &str)> = (facts.aliases.iter())
        .map(|a| (a.from.as_str(), a.route.as_str()))
        .collect();
    assert_eq!(
        listed,
        [("/notes/first-try", "/notes/first"), ("/old-first", "/notes/first")],
        "the trailing slash goes"
    );
    let nginx = std::fs::read_to_string(out.path().join(site_contract::ALIASES_NGINX_FILE)).unwrap();
    for line in [
        "location = /notes/first-try { return 301 /notes/first; }",
        "location = /old-first/ { return 301 /notes/first; }",
        "location = /zh/notes/first-try { return 301 /zh/notes/first; }",
        "location = /ja/old-first { return 301 /ja/notes/first; }",
    ] {
        assert!(nginx.lines().any(|l| l == line), "{line} not in\n{nginx}");
    }
    let redirects = std::fs::read_to_string(out.path().join(site_contract::REDIRECTS_FILE)).unwrap();
    for line in [
        "/notes/first-try /notes/first 301",
        "/old-first/ /notes/first 301",
        "/zh/notes/first-try /zh/notes/first 301",
        "/ja/old-first /ja/notes/first 301",
    ] {
        assert!(redirects.lines().any(|l| l == line), "{line} not in\n{redirects}");
    }
    let elsewhere: Vec<PathBuf> = (outputs(out.path()).into_iter())
        .filter(|file| !matches!(file.to_str(), Some("_site.json" | "_aliases.nginx.conf" | "_redirects")))
        .filter(|file| String::from_utf8_lossy(&std::fs::read(out.path().join(file)).unwrap()).contains("first-try"))
        .collect();
    assert!(elsewhere.is_empty(), "an alias is listed nowhere else: {elsewhere:?}");
}

#[test]
fn an_alias_that_is_a_page_another_alias_or_not_a_plain_path_fails_with_file_and_line() {
    let (root, _out, options) = editable_fixture();
    let older = root.path().join("content/notes/older.en.md");
    let text = std::fs::read_to_string(&older).unwrap();
    let with_aliases = |aliases: &str| text.replacen("---\n", &format!("---\naliases: [{aliases}]\n"), 1);
    let first = root.path().join("content/notes/first.en.md");
    for (aliases, message) in [
        ("/guide/a", "alias `/guide/a` is the route of the page `/guide/a` ("),
        (
            "/tags/math/",
            "alias `/tags/math/` is the route of the page `/tags/math` (made by the build)",
        ),
        (
            "/notes/first-try",
            &format!(
                "alias `/notes/first-try` is already an alias of `/notes/first` ({}:7)",
                first.display()
            ),
        ),
        ("/zh/old", "alias `/zh/old` starts with the language `zh`"),
        ("/assets/old", "alias `/assets/old` is below `/assets`"),
        ("\"/old page\"", "alias `/old page` is not a path of letters"),
    ] {
        std::fs::write(&older, with_aliases(aliases)).unwrap();
        let err = check(&options).unwrap_err().to_string();
        let expected = format!("{}:2: {message}", older.display());
        assert!(err.contains(&expected), "{aliases}: {err}\nexpected {expected}");
        assert!(build(&options).is_err(), "{aliases}: the build fails alike");
    }
}

/// The response headers of `path` from the site server over `dist`, names in lower case.
async fn served_headers(dist: &Path, path: &str) -> BTreeMap<String, String> {
    use poem::EndpointExt;
    let api = poem::endpoint::make_sync(|_| "api").map_to_response().boxed();
    let options = site_server::static_site::SiteOptions {
        dist_dir: dist.to_path_buf(),
        dev: false,
    };
    let client = poem::test::TestClient::new(site_server::static_site::site_endpoint(options, api).unwrap());
    let response = client.get(path).send().await;
    assert_eq!(response.0.status().as_u16(), 200, "{path}");
    (response.0.headers().iter())
        .map(|(name, value)| (name.as_str().to_string(), value.to_str().unwrap().to_string()))
        .collect()
}

/// The headers `_headers` gives `path` as Netlify and Cloudflare Pages read it: every rule whose
/// path is `path` or a `/prefix/*` of it, names in lower case. A name set by two matching rules
/// is a failure (hosts join the values with a comma: two CSPs, both enforced).
fn static_host_headers(file: &str, path: &str) -> BTreeMap<String, String> {
    let mut headers = BTreeMap::new();
    let mut applies = false;
    for line in file.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        if let Some(header) = line.strip_prefix("  ") {
            if applies {
                let (name, value) = header.split_once(": ").unwrap();
                let before = headers.insert(name.to_ascii_lowercase(), value.to_string());
                assert!(before.is_none(), "{name} is set twice for {path}");
            }
        } else {
            applies = line == path || line.strip_suffix('*').is_some_and(|prefix| path.starts_with(prefix));
        }
    }
    headers
}

#[tokio::test]
async fn the_static_hosts_headers_file_gives_each_path_the_headers_the_server_sends() {
    let (_root, out, options) = editable_fixture();
    // A chunk of the UI build, which the UI build (not this one) puts into assets/.
    std::fs::write(out.path().join("assets/chunk-ABCD2345.js"), "export {};").unwrap();
    build(&options).unwrap();
    let file = std::fs::read_to_string(out.path().join(site_contract::HEADERS_FILE)).unwrap();
    let search_index = (std::fs::read_dir(out.path().join("assets")).unwrap())
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|name| name.starts_with("search-index-") && name.ends_with(".json"))
        .unwrap();
    let compared = [
        "content-security-policy",
        "content-language",
        "x-content-type-options",
        "referrer-policy",
        "x-frame-options",
        "permissions-policy",
        "cross-origin-opener-policy",
    ];
    for path in [
        "/",
        "/notes/first",
        "/zh/notes/first/",
        "/ja/",
        "/images/dot.svg",
        "/assets/chunk-ABCD2345.js",
        &format!("/assets/{search_index}"),
    ] {
        let server = served_headers(out.path(), path).await;
        let host = static_host_headers(&file, path);
        for name in compared {
            assert_eq!(host.get(name), server.get(name), "{name} of {path}");
        }
        let immutable = server["cache-control"] == site_contract::headers::CACHE_IMMUTABLE;
        assert_eq!(
            immutable,
            path.starts_with("/assets/"),
            "{path}: {}",
            server["cache-control"]
        );
        // Other files keep the host's own rule, a revalidation (docs/deploy.md).
        assert_eq!(host.contains_key("cache-control"), immutable, "cache-control of {path}");
        if immutable {
            assert_eq!(host["cache-control"], server["cache-control"], "{path}");
        }
    }
    let page_csp = &static_host_headers(&file, "/notes/first")["content-security-policy"];
    assert!(
        page_csp.contains("style-src 'self' 'sha256-"),
        "a page allows its own stylesheet: {page_csp}"
    );
    assert_eq!(
        static_host_headers(&file, "/zh/notes/first")["content-language"],
        "zh-Hant"
    );
}
