//! React islands: templates place them with `island(...)`, the build renders every distinct one
//! in a single `node` call to the UI's server bundle, then puts the HTML into the pages.

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use crate::locales::Locales;

const SLOT_OPEN: &str = "<!--ssr:";
const SLOT_CLOSE: &str = "-->";
/// Where the page's island scripts go, inside `<head>`; replaced once the page's islands are known.
pub const SCRIPTS_MARKER: &str = "<!--island-scripts-->";

/// One island to render: the request item of the server bundle's protocol.
#[derive(Debug, Clone, Serialize)]
pub struct IslandItem {
    pub key: String,
    pub id: String,
    pub island: String,
    pub props: Value,
    pub lng: String,
}

/// The islands the templates asked for during a build, each distinct one once.
#[derive(Default)]
pub struct IslandCalls {
    by_identity: Mutex<HashMap<String, usize>>,
    items: Mutex<Vec<IslandItem>>,
}

/// What makes two island calls the same render: island, id, language and props.
fn identity(island: &str, id: &str, lng: &str, props: &Value) -> String {
    format!("{island}\u{0}{id}\u{0}{lng}\u{0}{props}")
}

impl IslandItem {
    fn identity(&self) -> String {
        identity(&self.island, &self.id, &self.lng, &self.props)
    }
}

impl IslandCalls {
    fn slot(&self, island: &str, id: &str, lng: &str, props: &Value) -> usize {
        let identity = identity(island, id, lng, props);
        let mut by_identity = self.by_identity.lock().expect("island registry");
        if let Some(n) = by_identity.get(&identity) {
            return *n;
        }
        let mut items = self.items.lock().expect("island registry");
        let n = items.len();
        items.push(IslandItem {
            key: n.to_string(),
            id: id.to_string(),
            island: island.to_string(),
            props: props.clone(),
            lng: lng.to_string(),
        });
        by_identity.insert(identity, n);
        n
    }

    pub fn items(&self) -> Vec<IslandItem> {
        self.items.lock().expect("island registry").clone()
    }
}

/// The Tera function `island(name="TopBar", props=..., lang=lang, id="topbar")`.
pub struct IslandFn(pub Arc<IslandCalls>);

impl tera::Function for IslandFn {
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let name = args
            .get("name")
            .and_then(Value::as_str)
            .ok_or("island() needs name=\"...\"")?;
        let lang = args
            .get("lang")
            .and_then(Value::as_str)
            .ok_or("island() needs lang=lang")?;
        let props = args.get("props").cloned().unwrap_or(Value::Object(Default::default()));
        let id = args
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| name.to_lowercase());
        let slot = self.0.slot(name, &id, lang, &props);
        let props_json = serde_json::to_string(&props).map_err(|e| e.to_string())?;
        Ok(Value::String(format!(
            "<div class=\"island\" data-island=\"{}\" data-id=\"{}\" data-lng=\"{}\" data-props=\"{}\">{SLOT_OPEN}{slot}{SLOT_CLOSE}</div>",
            html_escape::encode_double_quoted_attribute(name),
            html_escape::encode_double_quoted_attribute(&id),
            html_escape::encode_double_quoted_attribute(lang),
            html_escape::encode_double_quoted_attribute(&props_json),
        )))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// The id of the `<script type="application/json">` holding the page language's UI text.
pub const PAGE_TEXT_ID: &str = "island-text";

/// The Tera function `island_text(lang=lang)`: the page language's locale files (`translation` and
/// `sidebar`, as i18next reads them) in a JSON block, so the islands hydrate with the text the
/// server rendered them with and without a request for it. Each language's block is made once.
pub struct IslandTextFn(HashMap<String, String>);

impl IslandTextFn {
    pub fn new(locales: &Locales) -> Result<Self> {
        let mut by_lang: HashMap<String, serde_json::Map<String, Value>> = HashMap::new();
        for file in locales.files() {
            let (Some(lang), Some(ns)) = (
                file.relative.parent().and_then(Path::to_str),
                file.relative.file_stem().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let value: Value = serde_json::from_str(&file.text)
                .with_context(|| format!("locales/{} is not JSON", file.relative.display()))?;
            by_lang
                .entry(lang.to_string())
                .or_default()
                .insert(ns.to_string(), value);
        }
        let blocks = by_lang
            .into_iter()
            .map(|(lang, resources)| {
                // `<` never appears raw, so neither `</script>` nor `<!--` can end the block early.
                let json = Value::Object(resources).to_string().replace('<', "\\u003c");
                let block = format!(
                    "<script type=\"application/json\" id=\"{PAGE_TEXT_ID}\" data-lng=\"{}\">{json}</script>",
                    html_escape::encode_double_quoted_attribute(&lang)
                );
                (lang, block)
            })
            .collect();
        Ok(IslandTextFn(blocks))
    }
}

impl tera::Function for IslandTextFn {
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let lang = args
            .get("lang")
            .and_then(Value::as_str)
            .ok_or("island_text() needs lang=lang")?;
        let block = self
            .0
            .get(lang)
            .ok_or_else(|| format!("island_text(): no locale files for `{lang}`"))?;
        Ok(Value::String(block.clone()))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

#[derive(Deserialize)]
struct RenderAnswer {
    html: BTreeMap<String, String>,
}

/// Below this many islands a second `node` process costs more (its start and bundle load) than it saves.
const ITEMS_PER_PROCESS: usize = 400;

/// Renders every item with the UI's server bundle (`node render.mjs`, JSON on stdin and stdout),
/// reusing the HTML of islands the previous build rendered with the same server bundle and
/// locales when given a `cache` file: a rebuild after editing one page renders only the islands
/// whose props changed. The cache holds exactly this build's islands afterwards.
pub fn render_all(
    server_bundle: &Path,
    locales: &Locales,
    items: &[IslandItem],
    cache: Option<&Path>,
) -> Result<Vec<String>> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    if !server_bundle.is_file() {
        bail!(
            "{} is missing: the pages use islands ({}), so build the UI first with `npm --prefix ui run build` (`make build` does it)",
            server_bundle.display(),
            distinct_names(items)
        );
    }
    let fingerprint = cache.map(|_| fingerprint(server_bundle, locales)).transpose()?;
    let mut known: HashMap<String, String> = match (cache, &fingerprint) {
        (Some(file), Some(fingerprint)) => read_cache(file, fingerprint),
        _ => HashMap::new(),
    };
    let identities: Vec<String> = items.iter().map(IslandItem::identity).collect();
    let missing: Vec<IslandItem> = items
        .iter()
        .zip(&identities)
        .filter(|(_, id)| !known.contains_key(*id))
        .map(|(item, _)| item.clone())
        .collect();
    let rendered = render_in_parallel(server_bundle, locales.dir(), &missing)?;
    for (item, html) in missing.iter().zip(rendered) {
        known.insert(item.identity(), html);
    }
    let html: Vec<String> = identities
        .iter()
        .map(|id| known.remove(id).expect("rendered or cached"))
        .collect();
    if let (Some(file), Some(fingerprint)) = (cache, fingerprint) {
        let cached = CacheFile {
            fingerprint,
            html: identities.iter().cloned().zip(html.iter().cloned()).collect(),
        };
        // Written whole and renamed: two builds of one site may run at once (tests do).
        // A cache that cannot be written only makes the next build slower.
        let partial = file.with_extension(format!("{}.partial", std::process::id()));
        if std::fs::write(&partial, serde_json::to_vec(&cached)?).is_ok() {
            let _ = std::fs::rename(&partial, file);
        }
    }
    Ok(html)
}

#[derive(Serialize, Deserialize)]
struct CacheFile {
    /// What the HTML depends on besides the item: the server bundle and the locale files.
    fingerprint: String,
    html: BTreeMap<String, String>,
}

fn fingerprint(server_bundle: &Path, locales: &Locales) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(std::fs::read(server_bundle).with_context(|| format!("Failed to read {}", server_bundle.display()))?);
    for file in locales.files() {
        hash.update(file.relative.to_string_lossy().as_bytes());
        hash.update([0]);
        hash.update(file.text.as_bytes());
    }
    Ok(format!("{:x}", hash.finalize()))
}

fn read_cache(file: &Path, fingerprint: &str) -> HashMap<String, String> {
    std::fs::read(file)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<CacheFile>(&bytes).ok())
        .filter(|c| c.fingerprint == fingerprint)
        .map(|c| c.html.into_iter().collect())
        .unwrap_or_default()
}

/// One `node` call per core for a large batch: the renderer is single-threaded.
fn render_in_parallel(server_bundle: &Path, locales_dir: &Path, items: &[IslandItem]) -> Result<Vec<String>> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let processes = cores.min(items.len().div_ceil(ITEMS_PER_PROCESS)).max(1);
    let chunk = items.len().div_ceil(processes);
    let results: Vec<Result<Vec<String>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|batch| scope.spawn(move || render_batch(server_bundle, locales_dir, batch)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("island render thread"))
            .collect()
    });
    let mut html = Vec::with_capacity(items.len());
    for result in results {
        html.extend(result?);
    }
    Ok(html)
}

fn render_batch(server_bundle: &Path, locales_dir: &Path, items: &[IslandItem]) -> Result<Vec<String>> {
    let request = serde_json::json!({
        "localesDir": locales_dir.canonicalize().unwrap_or_else(|_| locales_dir.to_path_buf()),
        "items": items,
    });
    let mut child = Command::new("node")
        .arg(server_bundle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("Failed to start `node` to render the islands (is Node.js installed?)")?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let body = serde_json::to_vec(&request)?;
    // Written from a thread so a large answer cannot fill the stdout pipe while we still write.
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let output = child
        .wait_with_output()
        .context("Failed to read the island renderer's answer")?;
    writer
        .join()
        .expect("stdin writer")
        .context("Failed to send the islands to the renderer")?;
    if !output.status.success() {
        bail!(
            "the island renderer {} failed ({}):\n{}",
            server_bundle.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let answer: RenderAnswer = serde_json::from_slice(&output.stdout).with_context(|| {
        format!(
            "the island renderer {} answered with invalid JSON",
            server_bundle.display()
        )
    })?;
    items
        .iter()
        .map(|item| {
            answer
                .html
                .get(&item.key)
                .cloned()
                .ok_or_else(|| anyhow!("the island renderer gave no HTML for island `{}`", item.island))
        })
        .collect()
}

fn distinct_names(items: &[IslandItem]) -> String {
    let mut names: Vec<&str> = items.iter().map(|i| i.island.as_str()).collect();
    names.sort();
    names.dedup();
    names.join(", ")
}

/// Fills the page's island slots with their HTML; returns the page and the islands it holds.
pub fn fill_slots(page: &str, rendered: &[String], items: &[IslandItem]) -> Result<(String, Vec<String>)> {
    let mut out = String::with_capacity(page.len() + 4096);
    let mut names = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find(SLOT_OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + SLOT_OPEN.len()..];
        let end = after
            .find(SLOT_CLOSE)
            .ok_or_else(|| anyhow!("unterminated island slot"))?;
        let n: usize = after[..end].parse().map_err(|_| anyhow!("bad island slot"))?;
        let html = rendered
            .get(n)
            .ok_or_else(|| anyhow!("island slot {n} was never rendered"))?;
        out.push_str(html);
        names.push(items[n].island.clone());
        rest = &after[end + SLOT_CLOSE.len()..];
    }
    out.push_str(rest);
    names.sort();
    names.dedup();
    Ok((out, names))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera::Function;

    fn call(f: &IslandFn, name: &str, lang: &str, props: Value) -> String {
        let args = HashMap::from([
            ("name".to_string(), Value::from(name)),
            ("lang".to_string(), Value::from(lang)),
            ("props".to_string(), props),
        ]);
        f.call(&args).unwrap().as_str().unwrap().to_string()
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
        assert_eq!(calls.items().len(), 2);
        assert!(a.contains("data-id=\"topbar\""), "{a}");
        assert!(
            a.contains("data-props=\"{&quot;route&quot;:&quot;/a\\&quot;&lt;b&gt;&quot;}\""),
            "{a}"
        );
    }

    #[test]
    fn island_text_holds_the_languages_locale_files_and_cannot_end_its_block() {
        let dir = tempfile::tempdir().unwrap();
        let english = locales(dir.path(), r#"{"a": {"b": "x </script><!-- y"}}"#);
        let f = IslandTextFn::new(&english).unwrap();
        let args = HashMap::from([("lang".to_string(), Value::from("en"))]);
        let block = f.call(&args).unwrap().as_str().unwrap().to_string();
        let json = block
            .strip_prefix("<script type=\"application/json\" id=\"island-text\" data-lng=\"en\">")
            .and_then(|rest| rest.strip_suffix("</script>"))
            .unwrap_or_else(|| panic!("{block}"));
        assert!(!json.contains('<'), "{json}");
        let value: Value = serde_json::from_str(json).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"translation": {"a": {"b": "x </script><!-- y"}}, "sidebar": {}})
        );
        let other = HashMap::from([("lang".to_string(), Value::from("fr"))]);
        assert!(f.call(&other).is_err());
    }

    #[test]
    fn slots_are_filled_and_islands_named() {
        let calls = Arc::new(IslandCalls::default());
        let f = IslandFn(calls.clone());
        let page = format!(
            "<body>{}{}</body>",
            call(&f, "A", "en", Value::Null),
            call(&f, "B", "en", Value::Null)
        );
        let (html, names) = fill_slots(&page, &["<p>a</p>".into(), "<p>b</p>".into()], &calls.items()).unwrap();
        assert!(
            html.contains("><p>a</p></div>") && html.contains("><p>b</p></div>"),
            "{html}"
        );
        assert_eq!(names, ["A", "B"]);
    }

    fn item(n: usize) -> IslandItem {
        IslandItem {
            key: n.to_string(),
            id: "x".into(),
            island: "Echo".into(),
            props: serde_json::json!({ "n": n }),
            lng: "en".into(),
        }
    }

    /// A renderer that answers `<p>{props.n}</p>` for every item, like the real protocol.
    const ECHO_RENDERER: &str = r#"let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
        const html = {}; for (const i of JSON.parse(s).items) html[i.key] = `<p>${i.props.n}</p>`;
        process.stdout.write(JSON.stringify({ html }));
    });"#;

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
        let bundle = dir.path().join("render.mjs");
        std::fs::write(&bundle, ECHO_RENDERER).unwrap();
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
        let bundle = dir.path().join("render.mjs");
        let english = locales(dir.path(), "{}");
        std::fs::write(&bundle, ECHO_RENDERER).unwrap();
        let cache = dir.path().join("cache");
        let items = vec![item(1), item(2)];
        assert_eq!(
            render_all(&bundle, &english, &items, Some(&cache)).unwrap(),
            ["<p>1</p>", "<p>2</p>"]
        );
        // The same bundle, now one that cannot render: the cached HTML is used.
        let failing = dir.path().join("failing.mjs");
        std::fs::write(&failing, "process.exit(3)").unwrap();
        let mut cached: CacheFile = serde_json::from_slice(&std::fs::read(&cache).unwrap()).unwrap();
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
            key: "0".into(),
            id: "x".into(),
            island: "Search".into(),
            props: Value::Null,
            lng: "en".into(),
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
}
