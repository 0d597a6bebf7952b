//! Builds the real site (content/, locales/, the real templates and the UI's server bundle) and
//! checks what it promises: every route in three languages, the layout rules, the
//! breadcrumb, hreflang alternates, the sitemap, the not-found pages and the search index.
//! Needs the UI built first (`make test` does it): `npm --prefix ui run build`.

mod common;

use generator::{build, check, page_file, BuildOptions};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The app's legal and support pages: their text alone.
const LEGAL_ROUTES: &[&str] = &[
    "/climbers-deal-privacy",
    "/climbers-deal-terms",
    "/climbers-deal-support",
];
/// The member forms: no sidebar and no page header.
const MEMBER_ROUTES: &[&str] = &[
    "/login",
    "/register",
    "/MemberPage",
    "/invite",
    "/verifycode",
    "/reset-password",
];

/// Every route of the site (README, "Writing content": one file per language each).
const ROUTES: &[&str] = &[
    "/",
    "/about",
    "/my-app-project",
    "/my-web-project",
    "/my-web-project/my-first-web-app",
    "/notes",
    "/notes/liquidity-risk",
    "/login",
    "/register",
    "/verifycode",
    "/reset-password",
    "/invite",
    "/MemberPage",
    "/search",
    "/valuation-models",
    "/valuation-models/pe",
    "/valuation-models/ps",
    "/valuation-models/pb",
    "/valuation-models/dcf",
    "/valuation-models/ddm",
    "/valuation-models/ev-ebitda",
    "/valuation-models/wacc",
    "/valuation-models/dilution",
    "/valuation-models/residual-income",
    "/valuation-models/roic",
    "/valuation-models/reverse-dcf",
    "/valuation-models/margin-of-safety",
    "/finance-research",
    "/equity-research",
    "/ma-analysis",
    "/tools",
    "/investment-basics",
    "/investment-basics/types-of-investments",
    "/investment-basics/risk-and-reward",
    "/investment-basics/what-is-investing",
    "/climbers-deal-privacy",
    "/climbers-deal-terms",
    "/climbers-deal-support",
    "/tags",
    "/tags/valuation",
];
const LANGS: &[(&str, &str)] = &[("en", ""), ("zh", "/zh"), ("ja", "/ja")];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

struct Built {
    out: tempfile::TempDir,
    options: BuildOptions,
    pages: usize,
    summary: String,
    warnings: Vec<String>,
}

/// One build of the real site for all tests here, into a temporary folder.
fn site() -> &'static Built {
    static SITE: OnceLock<Built> = OnceLock::new();
    SITE.get_or_init(|| {
        let repo = repo();
        let assets = repo.join("dist/assets");
        assert!(
            assets.join("manifest.json").exists() && repo.join("ui/.ssr/render.mjs").exists(),
            "build the UI first: npm --prefix ui run build (make test does)"
        );
        let out = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(out.path().join("assets")).unwrap();
        for entry in std::fs::read_dir(&assets).unwrap() {
            let entry = entry.unwrap();
            // The UI bundle's files; `assets/search/` is a build's own output.
            if entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), out.path().join("assets").join(entry.file_name())).unwrap();
            }
        }
        let mut options = BuildOptions::for_root(&repo);
        options.out = out.path().to_path_buf();
        options.island_cache = None;
        let report = build(&options).unwrap_or_else(|e| panic!("{}", generator::describe_error(&e)));
        Built {
            out,
            options,
            pages: report.pages,
            summary: report.summary(),
            warnings: report.warnings,
        }
    })
}

fn page(url: &str) -> String {
    let path = site().out.path().join(page_file(url));
    std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{url} was not built ({})", path.display()))
}

fn url(route: &str, prefix: &str) -> String {
    if route == "/" {
        format!("{prefix}/")
    } else {
        format!("{prefix}{route}")
    }
}

#[test]
fn every_spec_route_exists_in_three_languages_with_no_fallback_or_missing_text() {
    assert!(site().summary.starts_with("Built "), "{}", site().summary);
    for route in ROUTES {
        for (lang, prefix) in LANGS {
            let html = page(&url(route, prefix));
            assert!(html.contains(&format!("data-lang=\"{lang}\"")), "{route} in {lang}");
            assert!(
                !html.contains("<!--ssr:") && !html.contains("<!--island-scripts-->"),
                "{route} {lang}: unfilled slot"
            );
        }
    }
    let problems: Vec<&String> = site()
        .warnings
        .iter()
        .filter(|w| w.contains("no zh version") || w.contains("no ja version") || w.contains("locales/"))
        .collect();
    assert!(problems.is_empty(), "untranslated: {problems:#?}");
}

fn has_island(html: &str, name: &str) -> bool {
    html.contains(&format!("data-island=\"{name}\""))
}

#[test]
fn layout_rules_hold_on_every_page() {
    for route in ROUTES {
        for (lang, prefix) in LANGS {
            let html = page(&url(route, prefix));
            let legal = LEGAL_ROUTES.contains(route);
            let member = MEMBER_ROUTES.contains(route);
            let at = format!("{route} ({lang})");
            assert_eq!(has_island(&html, "TopBar"), !legal, "top bar on {at}");
            assert_eq!(has_island(&html, "Sidebar"), !(legal || member), "sidebar on {at}");
            assert_eq!(
                html.contains("class=\"page-header\""),
                !(legal || member),
                "page header on {at}"
            );
            assert_eq!(html.contains("class=\"site-footer\""), !legal, "footer on {at}");
            assert_eq!(
                html.contains("class=\"breadcrumb\""),
                *route != "/",
                "breadcrumb on {at}"
            );
            // Pages without islands load no JavaScript beyond the inline head script.
            assert_eq!(
                html.contains("<meta name=\"island-scripts\""),
                !legal,
                "scripts on {at}"
            );
        }
    }
}

#[test]
fn breadcrumbs_title_case_or_translate_segments_and_end_unlinked() {
    let en = page("/investment-basics/risk-and-reward");
    let trail = en
        .split("<nav class=\"breadcrumb\"")
        .nth(1)
        .unwrap()
        .split("</nav>")
        .next()
        .unwrap();
    assert!(trail.contains("<a href=\"/\">Home</a>"), "{trail}");
    assert!(
        trail.contains("<a href=\"/investment-basics\">Investment Basics</a>"),
        "{trail}"
    );
    assert!(
        trail.contains("<span aria-current=\"page\">Risk and Reward</span>"),
        "{trail}"
    );
    let zh = page("/zh/valuation-models/dcf");
    let trail = zh
        .split("<nav class=\"breadcrumb\"")
        .nth(1)
        .unwrap()
        .split("</nav>")
        .next()
        .unwrap();
    assert!(trail.contains("<a href=\"/zh/\">首頁</a>"), "{trail}");
    assert!(
        trail.contains("<a href=\"/zh/valuation-models\">估值模型</a>"),
        "{trail}"
    );
    assert!(
        !trail.contains("href=\"/zh/valuation-models/dcf\""),
        "the last crumb is not a link: {trail}"
    );
}

/// The crumb names the page the reader is on, by the name the page and the top bar use.
#[test]
fn breadcrumbs_name_the_page_in_every_language() {
    let trail = |url: &str| {
        let html = page(url);
        html.split("<nav class=\"breadcrumb\"")
            .nth(1)
            .unwrap()
            .split("</nav>")
            .next()
            .unwrap()
            .to_string()
    };
    for (url, last) in [
        ("/verifycode", "Forgot Password"),
        ("/zh/verifycode", "忘記密碼"),
        ("/ja/verifycode", "パスワードをお忘れの方"),
        ("/valuation-models/wacc", "WACC"),
        ("/zh/valuation-models/ev-ebitda", "企業價值（EV/EBITDA）"),
        ("/zh/valuation-models/dcf", "現金流量折現（DCF）"),
        ("/ja/valuation-models/wacc", "割引率（WACC）"),
    ] {
        let trail = trail(url);
        assert!(
            trail.contains(&format!("<span aria-current=\"page\">{last}</span>")),
            "{url}: {trail}"
        );
    }
    // A crumb that names the page in its title's words writes them as the title does: not
    // "現金流量折現 (DCF)" under the heading "現金流量折現（DCF）".
    let bare = |text: &str| -> String {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '（' => '(',
                '）' => ')',
                '：' => ':',
                c => c,
            })
            .collect()
    };
    for route in ROUTES {
        for (lang, prefix) in LANGS {
            let html = page(&url(route, prefix));
            let (Some(crumb), Some(title)) = (
                html.split("<span aria-current=\"page\">")
                    .nth(1)
                    .and_then(|s| s.split("</span>").next()),
                html.split("<h1>").nth(1).and_then(|s| s.split("</h1>").next()),
            ) else {
                continue;
            };
            assert!(
                crumb == title || bare(crumb) != bare(title),
                "{route} ({lang}): crumb {crumb} beside title {title}"
            );
        }
    }
    // The Japanese valuation section has one name: the page heading's.
    let ja = page("/ja/valuation-models");
    assert!(ja.contains("<h1>企業価値評価</h1>"), "heading of /ja/valuation-models");
    assert!(trail("/ja/valuation-models/dcf").contains(">企業価値評価</a>"));
}

#[test]
fn pages_carry_hreflang_alternates_canonical_and_open_graph() {
    let html = page("/ja/notes/liquidity-risk");
    assert!(html.contains("<html lang=\"ja\""));
    assert!(html.contains("<link rel=\"canonical\" href=\"https://example.com/ja/notes/liquidity-risk\">"));
    for (tag, href) in [
        ("en", "https://example.com/notes/liquidity-risk"),
        ("zh-Hant", "https://example.com/zh/notes/liquidity-risk"),
        ("ja", "https://example.com/ja/notes/liquidity-risk"),
        ("x-default", "https://example.com/notes/liquidity-risk"),
    ] {
        assert!(
            html.contains(&format!("<link rel=\"alternate\" hreflang=\"{tag}\" href=\"{href}\">")),
            "{tag}"
        );
    }
    assert!(html.contains("<meta property=\"og:locale\" content=\"ja_JP\">"));
    assert!(page("/zh/").contains("<html lang=\"zh-Hant\""));
}

#[test]
fn the_sitemap_lists_every_route_in_every_language() {
    let sitemap = std::fs::read_to_string(site().out.path().join("sitemap.xml")).unwrap();
    for route in ROUTES {
        for (_, prefix) in LANGS {
            let loc = format!("<loc>https://example.com{}</loc>", url(route, prefix));
            assert!(sitemap.contains(&loc), "{loc}");
        }
    }
    assert!(sitemap.contains("hreflang=\"zh-Hant\" href=\"https://example.com/zh/valuation-models/dcf\""));
    let robots = std::fs::read_to_string(site().out.path().join("robots.txt")).unwrap();
    assert!(robots.contains("Sitemap: https://example.com/sitemap.xml"));
}

#[test]
fn unknown_notes_and_projects_have_translated_not_found_pages_with_a_back_link() {
    for (prefix, note, project) in [
        ("", "note not found", "project not found"),
        ("zh/", "找不到這篇筆記", "找不到這個專案"),
        ("ja/", "ノートが見つかりません", "プロジェクトが見つかりません"),
    ] {
        let dir = site().out.path().join(prefix);
        let notes = std::fs::read_to_string(dir.join("notes/404.html")).unwrap();
        assert!(notes.contains(&format!("<h1>{note}</h1>")), "{prefix}notes");
        assert!(
            notes.contains(&format!("<a href=\"/{prefix}notes\">")),
            "{prefix}notes back link"
        );
        let projects = std::fs::read_to_string(dir.join("my-web-project/404.html")).unwrap();
        assert!(
            projects.contains(&format!("<h1>{project}</h1>")),
            "{prefix}my-web-project"
        );
        assert!(projects.contains(&format!("<a href=\"/{prefix}my-web-project\">")));
    }
}

#[test]
fn finance_articles_and_notes_end_with_the_not_advice_notice_in_their_language() {
    let notice = |lang: &str| {
        let locale: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(repo().join(format!("locales/{lang}/translation.json"))).unwrap(),
        )
        .unwrap();
        let text = locale["article"]["notAdvice"].as_str().unwrap().to_string();
        // None of the three texts holds a character the templates escape.
        assert!(!text.contains(['&', '<', '>', '"', '\'', '/']), "{text}");
        format!("<p class=\"not-advice\">{text}</p>")
    };
    for (lang, prefix) in LANGS {
        for route in [
            "/valuation-models/dcf",
            "/valuation-models/wacc",
            "/notes/liquidity-risk",
        ] {
            assert!(page(&url(route, prefix)).contains(&notice(lang)), "{route} ({lang})");
        }
        for route in ["/", "/notes", "/investment-basics", "/climbers-deal-terms"] {
            assert!(
                !page(&url(route, prefix)).contains("class=\"not-advice\""),
                "{route} ({lang})"
            );
        }
    }
}

#[test]
fn the_app_legal_pages_name_the_operator_set_once_in_site_config_and_warn_while_it_is_a_placeholder() {
    let config = generator::SiteConfig::load(&repo().join("site-config.yaml")).unwrap();
    let operator = config
        .operator
        .clone()
        .expect("site-config.yaml names the app's operator");
    for route in [
        "/climbers-deal-privacy",
        "/climbers-deal-terms",
        "/climbers-deal-support",
    ] {
        for (lang, prefix) in LANGS {
            let html = page(&url(route, prefix));
            let at = format!("{route} in {lang}");
            assert!(
                html.contains(&format!("href=\"mailto:{}\"", operator.email)),
                "{at}: no mail link"
            );
            assert!(
                html.contains(&operator.name) && html.contains(&operator.postal_address),
                "{at}: no postal contact"
            );
            assert!(!html.contains("{{operator."), "{at}: an unfilled setting");
        }
    }
    // While a setting is a placeholder (as in the repository until the owner sets it), every
    // build says so.
    for warning in generator::placeholder_warnings(&config) {
        assert!(site().warnings.contains(&warning), "the build did not warn: {warning}");
    }
}

#[test]
fn pages_with_formulas_and_only_they_preload_the_formulas_font_at_low_priority() {
    let mut with_math = 0;
    for route in ROUTES {
        for (lang, prefix) in LANGS {
            let html = page(&url(route, prefix));
            let head = html.split("</head>").next().unwrap();
            let preloads = head.matches("<link rel=\"preload\" as=\"font\"").count();
            if html.contains("<math") {
                with_math += 1;
                assert_eq!(preloads, 1, "{route} {lang}");
                let link = head
                    .split("<link rel=\"preload\" as=\"font\"")
                    .nth(1)
                    .unwrap()
                    .split('>')
                    .next()
                    .unwrap();
                assert!(
                    link.contains("href=\"/assets/article-math-")
                        && link.contains(" crossorigin")
                        && link.contains("fetchpriority=\"low\""),
                    "{route} {lang}: {link}"
                );
            } else {
                assert_eq!(preloads, 0, "{route} {lang}: no formulas, no font");
            }
        }
    }
    assert!(with_math > 0, "the site has formulas (the valuation articles)");
}

#[test]
fn every_page_inlines_the_rules_that_match_it_and_requests_nothing_before_painting() {
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site().out.path().join("assets/manifest.json")).unwrap()).unwrap();
    let whole = manifest["inlineCss"].as_str().unwrap();
    // The stylesheet a page with islands names for them, as text.
    let for_islands = |html: &str| -> Option<String> {
        let url = html
            .split("<meta name=\"island-styles\" content=\"")
            .nth(1)?
            .split('"')
            .next()?;
        assert!(
            url.starts_with("/assets/island-styles-") && url.ends_with(".css"),
            "{url}"
        );
        Some(std::fs::read_to_string(site().out.path().join(&url[1..])).unwrap())
    };
    let rules_of = |html: &str| -> String {
        let head = html.split("</head>").next().unwrap();
        head.split("<style>")
            .nth(1)
            .unwrap()
            .split("</style>")
            .next()
            .unwrap()
            .to_string()
    };
    for route in ROUTES {
        for (lang, prefix) in LANGS {
            let html = page(&url(route, prefix));
            let head = html.split("</head>").next().unwrap();
            // Exactly one <style>, in the head: first paint waits for no stylesheet request.
            assert_eq!(html.matches("<style>").count(), 1, "{route} {lang}");
            let css = rules_of(&html);
            assert!(css.contains(".skip-link{"), "{route} {lang}: the chrome's rules");
            // Less than the whole: a calculator's page, whose rules come last, inlines most (86%
            // of it on the DDM article, with the phone's drawer and calculator rules).
            assert!(
                css.len() < whole.len() * 7 / 8,
                "{route} {lang}: {} of {} bytes",
                css.len(),
                whole.len()
            );
            assert!(
                !head.contains("<link rel=\"stylesheet\""),
                "{route} {lang}: no stylesheet link"
            );
            // Island scripts never compete with the first paint: the page only names them, and
            // the stylesheet their islands may need once they run, which holds none of its rules.
            assert!(
                !head.contains("<link rel=\"modulepreload\"")
                    && !head.contains("<script type=\"module\" src=\"/assets/"),
                "{route} {lang}"
            );
            let islands_css = for_islands(head);
            assert_eq!(
                islands_css.is_some(),
                head.contains("<meta name=\"island-scripts\""),
                "{route} {lang}: a stylesheet for the islands if the page has islands"
            );
            if let Some(islands_css) = islands_css {
                assert!(!islands_css.contains(".skip-link{"), "{route} {lang}");
                assert!(
                    css.len() + islands_css.len() >= whole.len(),
                    "{route} {lang}: between them, the whole stylesheet"
                );
            }
        }
    }
    // A page carries the rules of what it shows: the calculator's with the DCF article, not with
    // the login form, and the form's only with the form; its islands get the others. (A rule of
    // another page's may come along, if a rule of the page's after it could compete with it.)
    let (dcf, login) = (page("/valuation-models/dcf"), page("/login"));
    let (dcf_islands, login_islands) = (for_islands(&dcf).unwrap(), for_islands(&login).unwrap());
    let (dcf, login) = (rules_of(&dcf), rules_of(&login));
    assert!(dcf.contains(".calc-intro{") && !login.contains(".calc-intro{"));
    assert!(login.contains(".form .button-primary{") && !dcf.contains(".form .button-primary{"));
    assert!(login_islands.contains(".calc-intro{") && !dcf_islands.contains(".calc-intro{"));
}

#[test]
fn pages_read_without_javascript() {
    let html = page("/valuation-models/dcf");
    // The article, its math and the navigation are in the HTML itself.
    assert!(html.contains("<h2 id=\"formula\">"), "DCF formula section");
    assert!(html.contains("<math"), "formulas are MathML");
    assert!(html.contains("href=\"/notes\""), "the sidebar's links are prerendered");
    assert!(
        html.contains("href=\"/zh/valuation-models/dcf\""),
        "language links are prerendered"
    );
    // The calculator after the article is prerendered at the article's worked example, which
    // reaches it as props from the page's `example:` front matter.
    let calculator = html
        .split("data-island=\"DcfCalculator\"")
        .nth(1)
        .expect("the DCF calculator");
    assert!(
        calculator.contains("&quot;value_per_share&quot;:25.12") && calculator.contains("Value per share: $25.12"),
        "the calculator starts at the article's example"
    );
    let notes = page("/zh/notes");
    assert!(
        notes.contains("href=\"/zh/notes/liquidity-risk\""),
        "the notes list links its entries"
    );
    let apps = page("/my-app-project");
    assert_eq!(apps.matches("class=\"entry\"").count(), 2, "two app projects");
}

#[test]
fn the_search_index_covers_every_page_in_every_language() {
    let html = page("/search");
    let index_url = html
        .split("indexUrl&quot;:&quot;")
        .nth(1)
        .unwrap()
        .split("&quot;")
        .next()
        .unwrap();
    assert!(index_url.starts_with("/assets/search-index-"), "{index_url}");
    let pages = common::search_index_pages(
        site().out.path(),
        &site().out.path().join(index_url.trim_start_matches('/')),
    );
    for route in ROUTES {
        for (lang, prefix) in LANGS {
            let entry = pages.iter().find(|p| p["route"] == *route && p["lang"] == *lang);
            let entry = entry.unwrap_or_else(|| panic!("{route} {lang} is not in the index"));
            assert_eq!(entry["url"], url(route, prefix));
            assert!(!entry["title"].as_str().unwrap().is_empty());
        }
    }
    // Only the search page names the index.
    assert!(!page("/valuation-models/dcf").contains("search-index-"));
}

#[test]
fn the_sitemap_and_the_search_index_list_exactly_the_built_pages() {
    let out = site().out.path();
    let built = common::built_urls(out, &["zh", "ja"]);
    assert_eq!(built.len(), site().pages);
    assert_eq!(common::sitemap_urls(out, "https://example.com"), built);
    assert_eq!(common::search_index_urls(out), built);
    // App projects are shown only in their list (README, "Writing content").
    assert!(!built.iter().any(|url| url.contains("/my-app-project/")), "{built:?}");
    let index = common::search_index(out);
    for (_, prefix) in LANGS {
        let list = index
            .iter()
            .find(|e| e["url"] == url("/my-app-project", prefix))
            .unwrap();
        let text = list["text"].as_str().unwrap();
        assert!(text.contains("Climbers Deal") && text.contains("Folio Pulse"), "{text}");
    }
}

#[test]
fn site_check_counts_the_pages_site_build_writes() {
    let checked = check(&site().options).unwrap_or_else(|e| panic!("{}", generator::describe_error(&e)));
    assert_eq!(checked.pages, site().pages);
    // Every translation records the English text it was made from, and that text is current.
    let behind: Vec<String> = checked
        .translations
        .iter()
        .filter(|t| t.status != generator::translations::Status::Current)
        .map(|t| format!("{} {}: {}", t.route, t.lang, t.status.name()))
        .collect();
    assert!(!checked.translations.is_empty());
    assert!(behind.is_empty(), "{behind:#?}");
    assert!(
        !site().warnings.iter().any(|w| w.contains("translat")),
        "{:#?}",
        site().warnings
    );
    assert!(site().summary.starts_with(&format!("Built {} pages", checked.pages)));
}

/// `2025-10-01T00:00:00Z`: the RFC 3339 instants the feeds write.
fn is_rfc3339(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 20
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 | 16 => *c == b':',
            19 => *c == b'Z',
            _ => c.is_ascii_digit(),
        })
}

/// The text of every `<name>` element of `xml` (ids and dates: no entities), failing on XML that
/// is not well-formed.
fn element_texts(xml: &str, name: &str) -> Vec<String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut texts, mut inside) = (Vec::new(), false);
    loop {
        match reader
            .read_event()
            .unwrap_or_else(|e| panic!("not well-formed XML: {e}"))
        {
            Event::Start(e) => inside = e.name().as_ref() == name.as_bytes(),
            Event::Text(t) if inside => texts.push(t.decode().unwrap().into_owned()),
            Event::End(_) => inside = false,
            Event::Eof => return texts,
            _ => {}
        }
    }
}

/// A feed's raw XML: unique absolute ids, RFC 3339 dates, and its content as escaped HTML.
fn assert_feed_xml_is_sound(lang: &str, xml: &str) {
    let ids = element_texts(xml, "id");
    let unique: std::collections::BTreeSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "{lang}: ids repeat");
    assert!(ids.iter().all(|id| id.starts_with("https://example.com/")), "{ids:?}");
    let dates = [element_texts(xml, "updated"), element_texts(xml, "published")].concat();
    assert!(dates.iter().all(|d| is_rfc3339(d)), "{lang}: {dates:?}");
    // The content is HTML escaped as text, not markup inside the XML.
    assert!(xml.contains("<content type=\"html\">&lt;"), "{lang}");
}

/// A feed lists articles from every section and none of the pages that are not articles.
fn assert_feed_has_articles_only(lang: &str, prefix: &str, feed: &feed_rs::model::Feed) {
    let urls: Vec<String> = feed.entries.iter().map(|e| e.links[0].href.clone()).collect();
    for route in [
        "/notes/liquidity-risk",
        "/my-web-project/my-first-web-app",
        "/valuation-models/dcf",
        "/investment-basics/risk-and-reward",
    ] {
        assert!(
            urls.contains(&format!("https://example.com{prefix}{route}")),
            "{lang}: {route} in {urls:?}"
        );
    }
    for route in [
        "/about",
        "/notes",
        "/valuation-models",
        "/my-app-project/climbers-deal",
        "/login",
    ] {
        assert!(
            !urls.iter().any(|u| u.ends_with(route) && u.contains("example.com")),
            "{lang}: {route} is no article"
        );
    }
}

#[test]
fn each_language_has_an_atom_feed_of_its_articles_newest_first_in_full() {
    for (lang, prefix) in LANGS {
        let xml = std::fs::read_to_string(
            site()
                .out
                .path()
                .join(format!("{prefix}/atom.xml").trim_start_matches('/')),
        )
        .unwrap_or_else(|_| panic!("{lang} has no feed"));
        assert_feed_xml_is_sound(lang, &xml);

        let feed = feed_rs::parser::parse(xml.as_bytes()).unwrap_or_else(|e| panic!("{lang}: {e}"));
        assert_eq!(feed.id, format!("https://example.com{prefix}/atom.xml"));
        assert_feed_has_articles_only(lang, prefix, &feed);
        let updated: Vec<_> = feed
            .entries
            .iter()
            .map(|e| e.updated.expect("every entry is dated"))
            .collect();
        assert!(updated.windows(2).all(|w| w[0] >= w[1]), "{lang}: newest first");
        assert_eq!(feed.updated, updated.first().copied());
        for entry in &feed.entries {
            let content = entry
                .content
                .as_ref()
                .and_then(|c| c.body.as_deref())
                .expect("full text");
            assert!(content.contains("<p>"), "{lang} {:?}: the whole article", entry.links);
            assert!(
                !content.contains("href=\"/") && !content.contains("src=\"/"),
                "{lang}: relative link in {content}"
            );
        }
        let note = feed
            .entries
            .iter()
            .find(|e| e.links[0].href.ends_with("/notes/liquidity-risk"))
            .unwrap();
        assert_eq!(
            note.published.map(|d| d.to_rfc3339()).as_deref(),
            Some("2025-10-01T00:00:00+00:00")
        );
        // Every page names its language's feed for feed readers.
        for route in ["/", "/notes/liquidity-risk", "/login"] {
            assert!(
                page(&url(route, prefix)).contains(&format!(
                    "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Alex Chen\" href=\"https://example.com{prefix}/atom.xml\">"
                )),
                "{lang} {route}"
            );
        }
    }
}

/// The JSON-LD graph of a page, parsed.
fn json_ld(html: &str) -> Vec<serde_json::Value> {
    let mut blocks = html.split("<script type=\"application/ld+json\">").skip(1);
    let block = blocks
        .next()
        .expect("a JSON-LD block")
        .split("</script>")
        .next()
        .unwrap();
    assert!(blocks.next().is_none(), "one block per page");
    let data: serde_json::Value = serde_json::from_str(block).unwrap_or_else(|e| panic!("{e}: {block}"));
    assert_eq!(data["@context"], "https://schema.org");
    data["@graph"].as_array().unwrap().clone()
}

fn of_type<'a>(graph: &'a [serde_json::Value], kind: &str) -> Option<&'a serde_json::Value> {
    graph.iter().find(|n| n["@type"] == kind)
}

#[test]
fn every_page_describes_itself_in_json_ld() {
    for route in ROUTES {
        for ((lang, prefix), tag) in LANGS.iter().zip(["en", "zh-Hant", "ja"]) {
            let html = page(&url(route, prefix));
            let graph = json_ld(&html);
            let canonical = format!("https://example.com{}", url(route, prefix));
            if *route == "/" {
                let person = of_type(&graph, "Person").expect("the owner on the home page");
                assert_eq!(person["name"], "Alex Chen");
                assert_eq!(person["image"], "https://example.com/images/profile-placeholder.svg");
                let same_as: Vec<&str> = person["sameAs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap())
                    .collect();
                assert_eq!(same_as, ["https://github.com/", "https://www.linkedin.com/"]);
                assert!(of_type(&graph, "BreadcrumbList").is_none(), "home shows no breadcrumb");
                continue;
            }
            let crumbs = of_type(&graph, "BreadcrumbList").unwrap_or_else(|| panic!("{route} {lang}"));
            let items = crumbs["itemListElement"].as_array().unwrap();
            let visible = html
                .split("<nav class=\"breadcrumb\"")
                .nth(1)
                .unwrap()
                .split("</nav>")
                .next()
                .unwrap();
            let visible = html_escape::decode_html_entities(visible);
            assert_eq!(items.len(), visible.matches("<li>").count(), "{route} {lang}");
            for (i, item) in items.iter().enumerate() {
                assert_eq!(item["position"], i + 1);
                assert!(
                    visible.contains(&format!(">{}<", item["name"].as_str().unwrap())),
                    "{route} {lang}: {item}"
                );
                assert!(
                    item["item"].as_str().unwrap().starts_with("https://example.com/"),
                    "{item}"
                );
            }
            assert_eq!(items.last().unwrap()["item"], canonical.as_str());
            let article = of_type(&graph, "Article");
            let is_article = route.starts_with("/notes/")
                || route.starts_with("/my-web-project/")
                || route.starts_with("/valuation-models/")
                || route.starts_with("/investment-basics/");
            assert_eq!(article.is_some(), is_article, "{route} {lang}");
            if let Some(article) = article {
                let title = html.split("<h1>").nth(1).unwrap().split("</h1>").next().unwrap();
                assert_eq!(
                    article["headline"],
                    *html_escape::decode_html_entities(title),
                    "{route} {lang}"
                );
                assert_eq!(article["inLanguage"], tag);
                assert_eq!(article["author"]["name"], "Alex Chen");
                assert_eq!(article["url"], canonical.as_str());
            }
        }
    }
    let note = json_ld(&page("/ja/notes/liquidity-risk"));
    let article = of_type(&note, "Article").unwrap();
    assert_eq!(article["datePublished"], "2025-10-01");
    assert_eq!(article["dateModified"], "2025-10-01");
}

#[test]
fn link_previews_show_each_page_s_card_and_the_configured_image_on_the_bare_pages() {
    for (route, prefix, alt) in [
        (
            "/",
            "",
            "Alex Chen — Full-stack developer and investment representative",
        ),
        ("/notes/liquidity-risk", "/zh", "流動性風險"),
        ("/valuation-models/dcf", "/ja", "DCF法（割引キャッシュフロー法）"),
    ] {
        let html = page(&url(route, prefix));
        let card = "<meta property=\"og:image\" content=\"https://example.com/assets/cards/";
        assert!(html.contains(card), "{route} {prefix}: {card}");
        let src = html.split(card).nth(1).unwrap().split('"').next().unwrap();
        let file = site().out.path().join("assets/cards").join(src);
        assert!(src.ends_with(".png") && file.is_file(), "{src}");
        for tag in [
            "<meta property=\"og:image:width\" content=\"1200\">".to_string(),
            "<meta property=\"og:image:height\" content=\"630\">".to_string(),
            "<meta name=\"twitter:card\" content=\"summary_large_image\">".to_string(),
            format!("<meta name=\"twitter:image\" content=\"https://example.com/assets/cards/{src}\">"),
            format!("<meta property=\"og:image:alt\" content=\"{alt}\">"),
        ] {
            assert!(html.contains(&tag), "{route} {prefix}: {tag}");
        }
    }
    let bare = page("/climbers-deal-privacy");
    for tag in [
        "<meta property=\"og:image\" content=\"https://example.com/images/default-thumbnail.svg\">",
        "<meta property=\"og:image:width\" content=\"320\">",
        "<meta property=\"og:image:height\" content=\"180\">",
    ] {
        assert!(bare.contains(tag), "/climbers-deal-privacy: {tag}");
    }
    assert!(repo().join("static/images/default-thumbnail.svg").is_file());
}

/// The text of `key` (dotted) in `locales/<lang>/translation.json`, without the English fallback.
fn own_text(lang: &str, key: &str) -> Option<String> {
    let path = repo().join(format!("locales/{lang}/translation.json"));
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for part in key.split('.') {
        value = value.get(part)?.clone();
    }
    value.as_str().map(String::from)
}

#[test]
fn every_article_and_note_is_tagged_alike_in_every_language_and_each_tag_has_a_named_page() {
    let loaded = generator::Site::load(&repo()).unwrap();
    let pages = &loaded.pages;
    let mut tags = std::collections::BTreeSet::new();
    for article in pages.built().filter(|p| p.lang == "en" && pages.is_article(p)) {
        let route = article.route();
        let english = &article.source.front.tags;
        assert!(!english.is_empty(), "{route} has no tags");
        for (lang, prefix) in LANGS {
            let translation = pages.get(route, lang).unwrap();
            assert_eq!(&translation.source.front.tags, english, "{route} in {lang}");
            let html = page(&url(route, prefix));
            for tag in english {
                assert!(
                    html.contains(&format!("<a href=\"{prefix}/tags/{tag}\" rel=\"tag\">")),
                    "{route} in {lang} links to its tag {tag}"
                );
            }
        }
        tags.extend(english.iter().cloned());
    }
    assert!(tags.len() >= 5, "{tags:?}");
    for (lang, prefix) in LANGS {
        let index = page(&format!("{prefix}/tags"));
        for tag in &tags {
            let name = own_text(lang, &format!("tags.names.{tag}"))
                .unwrap_or_else(|| panic!("tag {tag} has no name in locales/{lang}"));
            assert_ne!(&name, tag, "{tag} in {lang}");
            assert!(
                index.contains(&format!("<a href=\"{prefix}/tags/{tag}\" rel=\"tag\">{name}</a>")),
                "the {lang} tag index lists {tag}"
            );
            let html = page(&format!("{prefix}/tags/{tag}"));
            let title = own_text(lang, "tags.pageTitle").unwrap().replace("{{tag}}", &name);
            assert!(
                html.contains(&format!("<title>{title} · Alex Chen</title>")),
                "{tag} {lang}"
            );
            assert!(html.contains(&format!("<h1>{title}</h1>")), "{tag} {lang}");
            let description = own_text(lang, "tags.pageDescription")
                .unwrap()
                .replace("{{tag}}", &name);
            assert!(html.contains(&format!("<meta name=\"description\" content=\"{description}\">")));
            assert!(html.contains(&format!(
                "<link rel=\"canonical\" href=\"https://example.com{prefix}/tags/{tag}\">"
            )));
            assert!(html.contains(&format!(
                "<link rel=\"alternate\" hreflang=\"x-default\" href=\"https://example.com/tags/{tag}\">"
            )));
        }
    }
    // A search weighing a tag page ("Tag: Valuation") and the page it is named after
    // ("Valuation Models") alike offers the first in the index: the owner's page.
    let index = common::search_index(site().out.path());
    for (lang, _) in LANGS {
        let routes: Vec<&str> = index
            .iter()
            .filter(|e| e["lang"] == *lang)
            .map(|e| e["route"].as_str().unwrap())
            .collect();
        let first_tag = routes.iter().position(|r| r.starts_with("/tags")).unwrap();
        assert!(
            routes[first_tag..].iter().all(|r| r.starts_with("/tags")),
            "tag pages come last in the {lang} search index"
        );
    }
    assert!(
        !site().warnings.iter().any(|w| w.contains("has no name in the locales")),
        "{:#?}",
        site().warnings
    );
}

fn locale(lang: &str, ns: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(repo().join(format!("locales/{lang}/{ns}.json"))).unwrap()).unwrap()
}

/// The part of `html` from the first `start` to the next `end` after it.
fn between<'a>(html: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &html[html.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

/// Every `href="…"` in `html`, in order.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn long_guides_and_notes_have_a_contents_list_of_their_sections() {
    for (lang, prefix) in LANGS {
        for route in [
            "/valuation-models/dcf",
            "/investment-basics/risk-and-reward",
            "/notes/liquidity-risk",
        ] {
            let html = page(&url(route, prefix));
            let at = format!("{route} ({lang})");
            let article = between(&html, "<article class=\"article\"", "</article>").unwrap();
            let sections: Vec<String> = article
                .split("<h2 id=\"")
                .skip(1)
                .map(|rest| format!("#{}", rest.split('"').next().unwrap()))
                .collect();
            assert!(sections.len() >= 3, "{at} is a long page");
            // The same list twice: a <details> above the text, and the column beside it.
            let compact = between(&html, "<nav class=\"contents contents-compact\"", "</nav>").expect(&at);
            let aside = between(&html, "<nav class=\"contents contents-aside\"", "</nav>").expect(&at);
            let title = locale(lang, "translation")["reading"]["contents"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(
                compact.contains(&format!("<summary>{title}</summary>")),
                "{at}: {compact}"
            );
            assert!(aside.contains(&format!(">{title}</h2>")), "{at}: {aside}");
            assert_eq!(hrefs(compact), hrefs(aside), "{at}");
            // And a third time in the phone's sheet, opened from the dock.
            let sheet = between(&html, "<dialog class=\"contents contents-sheet\"", "</dialog>").expect(&at);
            assert!(sheet.contains(&format!(">{title}</h2>")), "{at}: {sheet}");
            assert_eq!(hrefs(compact), hrefs(sheet), "{at}");
            assert!(html.contains("<a class=\"dock-top\" href=\"#top\">"), "{at}");
            // Every section is listed, in order, with its subsections between them.
            let listed: Vec<String> = hrefs(compact).into_iter().filter(|h| sections.contains(h)).collect();
            assert_eq!(listed, sections, "{at}");
            for href in hrefs(compact) {
                // The last entry of a page with a calculator leads to it, after the article.
                let target: &str = if href == "#calculator" { &html } else { article };
                assert!(
                    target.contains(&format!(" id=\"{}\"", &href[1..])),
                    "{at}: {href} leads nowhere"
                );
            }
        }
    }
    // Pages that are not articles, and short ones, get no list.
    for url in [
        "/about",
        "/valuation-models",
        "/notes",
        "/login",
        "/climbers-deal-terms",
    ] {
        assert!(!page(url).contains("class=\"contents"), "{url}");
    }
}

#[test]
fn articles_say_their_reading_time_and_notes_their_date_in_the_readers_language() {
    let minutes = |html: &str| -> String {
        between(html, "<span class=\"reading-time\">", "</span>")
            .unwrap()
            .to_string()
    };
    let number = |text: &str| -> usize {
        text.chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap()
    };
    for (lang, prefix, pattern) in [
        ("en", "", ("", " min read")),
        ("zh", "/zh", ("閱讀時間約 ", " 分鐘")),
        ("ja", "/ja", ("約", "分で読めます")),
    ] {
        let dcf = minutes(&page(&url("/valuation-models/dcf", prefix)));
        let ps = minutes(&page(&url("/valuation-models/ps", prefix)));
        for text in [&dcf, &ps] {
            assert!(
                text.starts_with(pattern.0) && text.ends_with(pattern.1),
                "{lang}: {text}"
            );
        }
        // The DCF guide is the section's longest, P/S one of its shortest.
        assert!(number(&dcf) > number(&ps) && number(&ps) >= 1, "{lang}: {dcf} vs {ps}");
        let note = page(&url("/notes/liquidity-risk", prefix));
        let meta = between(&note, "<p class=\"page-meta\">", "</p>").unwrap();
        let date = if lang == "en" {
            "1 October 2025"
        } else {
            "2025年10月1日"
        };
        assert!(
            meta.starts_with(&format!("<time datetime=\"2025-10-01\">{date}</time>")),
            "{lang}: {meta}"
        );
        assert!(meta.contains("class=\"reading-time\""), "{lang}: {meta}");
    }
    for url in ["/about", "/valuation-models", "/notes", "/register", "/"] {
        assert!(!page(url).contains("class=\"page-meta\""), "{url}");
    }
}

#[test]
fn previous_and_next_walk_a_section_in_its_order() {
    for (lang, prefix) in LANGS {
        for section in ["/valuation-models", "/investment-basics"] {
            let landing = page(&url(section, prefix));
            let order = hrefs(between(&landing, "<nav class=\"section-children\"", "</nav>").unwrap());
            assert!(order.len() >= 3, "{section} ({lang})");
            for (i, here) in order.iter().enumerate() {
                let html = page(here);
                let pager = between(&html, "<nav class=\"pager\"", "</nav>").unwrap_or_default();
                let link = |rel: &str| {
                    pager
                        .split("<a ")
                        .skip(1)
                        .find(|a| a.contains(&format!("rel=\"{rel}\"")))
                        .map(|a| hrefs(a)[0].clone())
                };
                let previous = i.checked_sub(1).map(|j| order[j].clone());
                assert_eq!(link("prev"), previous, "{here}");
                assert_eq!(link("next"), order.get(i + 1).cloned(), "{here}");
            }
        }
    }
}

/// What each language calls a month or a day: "1 October 2025", "October 2025", 2025年10月1日.
fn is_formatted_date(text: &str, lang: &str) -> bool {
    let parts: Vec<&str> = text.split(' ').collect();
    let month = |m: &str| {
        m.len() >= 3
            && m.chars().next().unwrap().is_ascii_uppercase()
            && m.chars().skip(1).all(|c| c.is_ascii_lowercase())
    };
    let digits =
        |d: &str, n: std::ops::RangeInclusive<usize>| n.contains(&d.len()) && d.chars().all(|c| c.is_ascii_digit());
    match lang {
        "en" => match parts.as_slice() {
            [day, name, year] => digits(day, 1..=2) && month(name) && digits(year, 4..=4),
            [name, year] => month(name) && digits(year, 4..=4),
            _ => false,
        },
        _ => {
            let Some((year, rest)) = text.split_once('年') else {
                return false;
            };
            let Some((month, day)) = rest.split_once('月') else {
                return false;
            };
            digits(year, 4..=4)
                && digits(month, 1..=2)
                && (day.is_empty() || day.strip_suffix('日').is_some_and(|d| digits(d, 1..=2)))
        }
    }
}

#[test]
fn every_date_on_every_page_is_in_its_languages_one_format() {
    let urls = common::built_urls(site().out.path(), &["zh", "ja"]);
    let mut seen = 0;
    for url in &urls {
        let lang = if url.starts_with("/zh/") {
            "zh"
        } else if url.starts_with("/ja/") {
            "ja"
        } else {
            "en"
        };
        for time in page(url).split("<time datetime=\"").skip(1) {
            let (datetime, rest) = time.split_once("\">").unwrap();
            let text = rest.split("</time>").next().unwrap();
            assert!(is_formatted_date(text, lang), "{url}: {text} ({datetime})");
            seen += 1;
        }
    }
    assert!(seen >= 12, "dates on the lists and the entries: {seen}");
    // The app projects' months, in the list that is their only page.
    assert!(page("/ja/my-app-project").contains("<time datetime=\"2025-09\">2025年9月</time>"));
    assert!(is_formatted_date("2025年9月", "zh") && is_formatted_date("September 2025", "en"));
    assert!(!is_formatted_date("2025-10-01", "en") && !is_formatted_date("2025-10-01", "ja"));
}

#[test]
fn a_sections_sidebar_label_breadcrumb_and_title_agree_in_every_language() {
    for (lang, prefix) in LANGS {
        let sidebar = locale(lang, "sidebar");
        let crumbs = &locale(lang, "translation")["breadcrumb"]["segments"];
        for (key, route) in [
            ("myArticles", "/about"),
            ("myAppProject", "/my-app-project"),
            ("myWebProject", "/my-web-project"),
            ("notes", "/notes"),
        ] {
            let label = sidebar[key].as_str().unwrap();
            assert_eq!(crumbs[&route[1..]].as_str().unwrap(), label, "{route} ({lang})");
            let html = page(&url(route, prefix));
            assert!(
                html.contains(&format!("<h1>{label}</h1>")),
                "{route} ({lang}): title is not {label}"
            );
            assert!(
                html.contains(&format!("<span aria-current=\"page\">{label}</span>")),
                "{route} ({lang})"
            );
        }
        for route in ["/valuation-models", "/investment-basics", "/finance-research"] {
            let label = crumbs[&route[1..]].as_str().unwrap();
            assert!(
                page(&url(route, prefix)).contains(&format!("<h1>{label}</h1>")),
                "{route} ({lang})"
            );
        }
    }
}

#[test]
fn list_cards_are_one_link_each_named_by_their_title() {
    for (lang, prefix) in LANGS {
        for route in ["/notes", "/my-web-project", "/valuation-models", "/investment-basics"] {
            let html = page(&url(route, prefix));
            let cards: Vec<&str> = html
                .split("<li class=\"")
                .skip(1)
                .filter(|li| li.starts_with("card\"") || li.starts_with("entry card\""))
                .map(|li| li.split("</li>").next().unwrap())
                .collect();
            assert!(!cards.is_empty(), "{route} ({lang})");
            for card in cards {
                assert_eq!(card.matches("<a ").count(), 1, "{route} ({lang}): {card}");
                assert!(!card.contains("<button"), "{route} ({lang}): {card}");
            }
        }
        // App projects have no page: their entries are not links, nor cards.
        assert!(!page(&url("/my-app-project", prefix)).contains("entry card"), "{lang}");
    }
}

/// The tools page lists the calculators that exist: every valuation article that carries one
/// (an `island:` in its front matter) is linked from the page's text in every language.
#[test]
fn the_tools_page_links_every_article_with_a_calculator() {
    let section = repo().join("content/valuation-models");
    let mut with_calculator: Vec<String> = std::fs::read_dir(&section)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter_map(|name| name.strip_suffix(".en.md").map(str::to_string))
        .filter(|slug| {
            let source = std::fs::read_to_string(section.join(format!("{slug}.en.md"))).unwrap();
            let front = source.split("\n---").next().unwrap();
            front.lines().any(|line| line.starts_with("island: "))
        })
        .collect();
    with_calculator.sort();
    assert!(with_calculator.len() >= 7, "{with_calculator:?}");
    for (lang, prefix) in LANGS {
        let html = page(&url("/tools", prefix));
        let article = between(&html, "<article class=\"article\"", "</article>").expect("/tools has an article");
        let links = hrefs(article);
        for slug in &with_calculator {
            let target = url(&format!("/valuation-models/{slug}"), prefix);
            assert!(links.contains(&target), "/tools ({lang}) does not link {target}");
        }
    }
}
