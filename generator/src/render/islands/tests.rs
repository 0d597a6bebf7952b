use super::calls::*;
use super::html::*;
use super::renderer::{PROTOCOL, RENDER_TIMEOUT};
use super::text::*;
use crate::model::kept::MapFile;
use crate::model::locales::Locales;
use anyhow::Result;
use serde_json::Value;
use std::collections::BTreeSet;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tera::Function;

fn call(f: &IslandFn, name: &str, lang: &str, props: Value) -> String {
    let args = HashMap::from([
        ("name".to_string(), Value::from(name)),
        ("lang".to_string(), Value::from(lang)),
        ("props".to_string(), props),
    ]);
    f.call(&args).unwrap().as_str().unwrap().to_string()
}

/// Pages of the given HTML, each placed at `page-N.html`, filled with `<p>ID</p>` per island.
fn placed(calls: &IslandCalls, pages: &[String]) -> (Placement, Vec<String>) {
    let pages: Vec<(PathBuf, String)> = pages
        .iter()
        .enumerate()
        .map(|(n, html)| (PathBuf::from(format!("page-{n}.html")), html.clone()))
        .collect();
    let placement = place(calls, &pages).unwrap();
    let rendered: Vec<String> = placement.items.iter().map(|i| format!("<p>{}</p>", i.id)).collect();
    let filled = (0..pages.len())
        .map(|n| placement.fill(n, &pages[n].1, &rendered).unwrap().0)
        .collect();
    (placement, filled)
}

#[test]
fn identical_islands_share_one_render_and_props_are_escaped() {
    let calls = Arc::new(IslandCalls::default());
    let f = IslandFn(calls.clone());
    let a = call(&f, "TopBar", "zh", serde_json::json!({"route": "/a\"<b>"}));
    let b = call(&f, "TopBar", "zh", serde_json::json!({"route": "/a\"<b>"}));
    let c = call(&f, "TopBar", "ja", serde_json::json!({"route": "/a\"<b>"}));
    assert_eq!(a, b);
    assert_ne!(a, c);
    let (placement, filled) = placed(&calls, &[a, b, c]);
    assert_eq!(placement.items.len(), 2);
    assert_eq!(placement.items[0].pages, ["page-0.html", "page-1.html"]);
    assert_eq!(filled[0], filled[1]);
    assert!(filled[0].contains("data-id=\"topbar\""), "{}", filled[0]);
    assert!(
        filled[0].contains("data-props=\"{&quot;route&quot;:&quot;/a\\&quot;&lt;b&gt;&quot;}\""),
        "{}",
        filled[0]
    );
}

#[test]
fn two_islands_of_one_kind_on_a_page_get_distinct_ids() {
    let calls = Arc::new(IslandCalls::default());
    let f = IslandFn(calls.clone());
    let one = call(&f, "DcfCalculator", "en", serde_json::json!({"n": 1}));
    let two = call(&f, "DcfCalculator", "en", serde_json::json!({"n": 2}));
    let same = call(&f, "DcfCalculator", "en", serde_json::json!({"n": 1}));
    let (placement, filled) = placed(&calls, &[format!("{one}{two}{same}"), two.clone()]);
    let ids = |html: &str| -> Vec<String> {
        html.split("data-id=\"")
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect()
    };
    assert_eq!(ids(&filled[0]), ["dcfcalculator", "dcfcalculator-2", "dcfcalculator-3"]);
    // Each island's render had its own identifierPrefix: its id on the page.
    assert!(filled[0]
        .contains("\"dcfcalculator-2\" data-lng=\"en\" data-props=\"{&quot;n&quot;:2}\"><p>dcfcalculator-2</p>"));
    // Another page counts its own islands.
    assert_eq!(ids(&filled[1]), ["dcfcalculator"]);
    let sent: Vec<(&str, &Value)> = placement.items.iter().map(|i| (i.id.as_str(), &i.props)).collect();
    assert_eq!(
        sent,
        [
            ("dcfcalculator", &serde_json::json!({"n": 1})),
            ("dcfcalculator-2", &serde_json::json!({"n": 2})),
            ("dcfcalculator-3", &serde_json::json!({"n": 1})),
            ("dcfcalculator", &serde_json::json!({"n": 2})),
        ]
    );
}

#[test]
fn island_text_holds_the_sections_the_islands_use_and_cannot_end_its_block() {
    let dir = tempfile::tempdir().unwrap();
    let english = locales(
        dir.path(),
        r#"{"a": {"b": "x </script><!-- y"}, "c": "z", "d": {"e": "w"}}"#,
    );
    let mark = IslandTextFn::new(&english)
        .call(&HashMap::from([("lang".to_string(), Value::from("en"))]))
        .unwrap();
    let page = format!("<main>text</main>{}</body>", mark.as_str().unwrap());
    let text = IslandText::new(&english).unwrap();
    let json_of = |html: &str| -> Value {
        let json = html
            .strip_prefix("<main>text</main><script type=\"application/json\" id=\"island-text\" data-lng=\"en\">")
            .and_then(|rest| rest.strip_suffix("</script></body>"))
            .unwrap_or_else(|| panic!("{html}"));
        assert!(!json.contains('<'), "{json}");
        serde_json::from_str(json).unwrap()
    };
    let every = json_of(&text.fill(page.clone(), None));
    assert_eq!(
        every,
        serde_json::json!({"translation": {"a": {"b": "x </script><!-- y"}, "c": "z", "d": {"e": "w"}}, "sidebar": {}})
    );
    let some = json_of(&text.fill(page.clone(), Some(&BTreeSet::from(["a", "d"]))));
    assert_eq!(
        some,
        serde_json::json!({"translation": {"a": {"b": "x </script><!-- y"}, "d": {"e": "w"}}, "sidebar": {}})
    );
    // A page without the mark is left as it is.
    assert_eq!(text.fill("<p>no islands</p>".into(), None), "<p>no islands</p>");
    let other = HashMap::from([("lang".to_string(), Value::from("fr"))]);
    assert!(IslandTextFn::new(&english).call(&other).is_err());
}

#[test]
fn islands_are_filled_in_and_named() {
    let calls = Arc::new(IslandCalls::default());
    let f = IslandFn(calls.clone());
    let page = format!(
        "<body>{}{}</body>",
        call(&f, "A", "en", Value::Null),
        call(&f, "B", "en", Value::Null)
    );
    let pages = [(PathBuf::from("index.html"), page)];
    let placement = place(&calls, &pages).unwrap();
    let (html, names) = placement
        .fill(0, &pages[0].1, &["<p>a</p>".into(), "<p>b</p>".into()])
        .unwrap();
    assert!(
        html.contains("data-id=\"a\" data-lng=\"en\" data-props=\"null\"><p>a</p></div><div")
            && html.ends_with("><p>b</p></div></body>"),
        "{html}"
    );
    assert_eq!(names, ["A", "B"]);
}

fn item(n: usize) -> IslandItem {
    IslandItem {
        id: "x".into(),
        island: "Echo".into(),
        props: serde_json::json!({ "n": n }),
        lng: "en".into(),
        pages: vec![format!("echo/{n}/index.html")],
    }
}

/// A stand-in renderer: reads the request, then runs `answer` with `items` and `answer(text)`.
fn renderer(dir: &Path, answer: &str) -> PathBuf {
    let bundle = dir.join(format!("render-{}.mjs", answer.len()));
    let script = format!(
        r#"import {{ writeSync }} from "node:fs";
        const reply = (text) => writeSync(3, text);
        let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {{
            const {{ protocol, items }} = JSON.parse(s);
            if (protocol !== {PROTOCOL}) process.exit(9);
            {answer}
        }});"#
    );
    std::fs::write(&bundle, script).unwrap();
    bundle
}

/// Answers `<p>{props.n}</p>` for every item, like the real protocol.
const ECHO: &str = r#"reply(JSON.stringify({ protocol, html: items.map((i) => `<p>${i.props.n}</p>`) }));"#;

/// English-only locales in `dir/locales`, with `translation` as given.
fn locales(dir: &Path, translation: &str) -> Locales {
    let folder = dir.join("locales/en");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("translation.json"), translation).unwrap();
    std::fs::write(folder.join("sidebar.json"), "{}").unwrap();
    Locales::load(&dir.join("locales"), &["en".to_string()], "en").unwrap()
}

#[test]
fn a_large_batch_is_split_across_renderers_and_keeps_its_order() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = renderer(dir.path(), ECHO);
    let items: Vec<IslandItem> = (0..2 * ITEMS_PER_PROCESS + 3).map(item).collect();
    let html = render_all(&bundle, &locales(dir.path(), "{}"), &items, None).unwrap();
    assert_eq!(html.len(), items.len());
    assert!(
        html.iter().enumerate().all(|(n, h)| *h == format!("<p>{n}</p>")),
        "{:?}",
        &html[..3]
    );
}

#[test]
fn cached_islands_skip_the_renderer_until_the_bundle_or_locales_change() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = renderer(dir.path(), ECHO);
    let english = locales(dir.path(), "{}");
    let cache = dir.path().join("cache");
    let items = vec![item(1), item(2)];
    assert_eq!(
        render_all(&bundle, &english, &items, Some(&cache)).unwrap(),
        ["<p>1</p>", "<p>2</p>"]
    );
    // The same bundle, now one that cannot render: the cached HTML is used.
    let failing = dir.path().join("failing.mjs");
    std::fs::write(&failing, "process.exit(3)").unwrap();
    let mut cached: MapFile<HashMap<String, String>> = serde_json::from_slice(&std::fs::read(&cache).unwrap()).unwrap();
    cached.fingerprint = fingerprint(&failing, &english).unwrap();
    std::fs::write(&cache, serde_json::to_vec(&cached).unwrap()).unwrap();
    assert_eq!(
        render_all(&failing, &english, &items[..1], Some(&cache)).unwrap(),
        ["<p>1</p>"]
    );
    // A new island is rendered (and fails here); so is every island once the locales change.
    assert!(render_all(&failing, &english, &[item(3)], Some(&cache)).is_err());
    assert_eq!(
        render_all(&failing, &english, &items[..1], Some(&cache)).unwrap(),
        ["<p>1</p>"]
    );
    let changed = locales(dir.path(), r#"{"a":"b"}"#);
    assert!(render_all(&failing, &changed, &items[..1], Some(&cache)).is_err());
}

#[test]
fn a_missing_server_bundle_says_how_to_build_it() {
    let items = vec![IslandItem {
        island: "Search".into(),
        ..item(0)
    }];
    let dir = tempfile::tempdir().unwrap();
    let err = render_all(
        Path::new("/nonexistent/render.mjs"),
        &locales(dir.path(), "{}"),
        &items,
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("npm --prefix ui run build") && err.contains("Search"),
        "{err}"
    );
}

fn render(bundle: &Path, items: &[IslandItem], timeout: Duration) -> Result<Vec<String>> {
    let dir = tempfile::tempdir().unwrap();
    render_in_parallel(bundle, locales(dir.path(), "{}").dir(), items, timeout)
}

#[test]
fn what_islands_print_on_stdout_cannot_corrupt_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    // Logs before, during and after the answer, some of it an answer of the old protocol.
    let bundle = renderer(
        dir.path(),
        &format!(
            r#"console.log("rendering", items.length);
            process.stdout.write(JSON.stringify({{ html: {{ "0": "<p>wrong</p>" }} }}));
            {ECHO}
            console.info("done");"#
        ),
    );
    let items = vec![item(7), item(8)];
    assert_eq!(
        render(&bundle, &items, RENDER_TIMEOUT).unwrap(),
        ["<p>7</p>", "<p>8</p>"]
    );
}

#[test]
fn a_renderer_that_hangs_is_stopped_and_its_batch_named() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = renderer(dir.path(), "setInterval(() => {}, 1000);");
    let items: Vec<IslandItem> = (0..8).map(item).collect();
    let err = render(&bundle, &items, Duration::from_millis(300))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("did not answer and exit within 0.3 s and was stopped"),
        "{err}"
    );
    assert!(
        err.contains("Its batch: 8 islands (Echo) on the pages echo/0/index.html, echo/1/index.html"),
        "{err}"
    );
    assert!(err.contains("echo/4/index.html and 3 more"), "{err}");
}

#[test]
fn a_renderer_that_answers_and_then_hangs_is_stopped_too() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = renderer(dir.path(), &format!("{ECHO} setInterval(() => {{}}, 1000);"));
    let err = render(&bundle, &[item(1)], Duration::from_millis(300))
        .unwrap_err()
        .to_string();
    assert!(err.contains("did not answer and exit within 0.3 s"), "{err}");
}

#[test]
fn each_side_refuses_another_protocol_version() {
    let dir = tempfile::tempdir().unwrap();
    // A renderer of a newer protocol.
    let newer = renderer(
        dir.path(),
        r#"reply(JSON.stringify({ protocol: protocol + 1, html: items.map(() => "") }));"#,
    );
    let err = render(&newer, &[item(1)], RENDER_TIMEOUT).unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "speaks island protocol {}, the generator {PROTOCOL}",
            PROTOCOL + 1
        )),
        "{err}"
    );
    // A renderer of the first protocol: no version, the answer on stdout.
    let older = dir.path().join("older.mjs");
    std::fs::write(
        &older,
        r#"let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
            process.stdout.write(JSON.stringify({ html: { "0": "<p>old</p>" } }));
        });"#,
    )
    .unwrap();
    let err = render(&older, &[item(1)], RENDER_TIMEOUT).unwrap_err().to_string();
    assert!(
        err.contains("gave no answer on file descriptor 3: it is older than the generator's island protocol"),
        "{err}"
    );
    assert!(err.contains("echo/1/index.html"), "{err}");
}

#[test]
fn an_answer_that_does_not_match_the_request_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let short = renderer(
        dir.path(),
        r#"reply(JSON.stringify({ protocol, html: items.slice(1).map(() => "") }));"#,
    );
    let err = render(&short, &[item(1), item(2)], RENDER_TIMEOUT)
        .unwrap_err()
        .to_string();
    assert!(err.contains("answered 1 islands for a request of 2"), "{err}");
}
