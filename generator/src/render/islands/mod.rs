//! React islands: templates place them with `island(...)`; once every page is rendered, each
//! island on each page gets its id (unique on the page), the build renders every distinct island
//! with the UI's server bundle (`renderer`), then puts the HTML into the pages.

mod renderer;

use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::model::locales::Locales;
#[cfg(test)]
use renderer::PROTOCOL;
pub use renderer::RENDER_TIMEOUT;

/// What the Tera function leaves in a page: the number of its call, resolved by `place`.
const CALL_OPEN: &str = "<!--island:";
const MARK_CLOSE: &str = "-->";
/// Where the page's island scripts go, inside `<head>`; replaced once the page's islands are known.
pub const SCRIPTS_MARKER: &str = "<!--island-scripts-->";

/// One island to render: the request item of the server bundle's protocol.
#[derive(Debug, Clone, Serialize)]
pub struct IslandItem {
    /// Unique on each page it is on: React's `identifierPrefix`, so `useId` values never collide.
    pub id: String,
    pub island: String,
    pub props: Value,
    pub lng: String,
    /// The pages (files below `dist/`) it is on, for errors that name a batch.
    #[serde(skip)]
    pub pages: Vec<String>,
}

/// What a template asked for: an island, the id it asked for (its name in lower case by default),
/// its language and props.
#[derive(Debug, Clone)]
struct IslandCall {
    island: String,
    id: String,
    lng: String,
    props: Value,
}

/// The islands the templates asked for during a build, each distinct call once.
#[derive(Default)]
pub struct IslandCalls {
    by_identity: Mutex<HashMap<String, usize>>,
    calls: Mutex<Vec<IslandCall>>,
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
    /// Forgets every call: the next render records only its own pages' islands (`site watch`).
    pub fn clear(&self) {
        self.by_identity.lock().expect("island registry").clear();
        self.calls.lock().expect("island registry").clear();
    }

    fn call(&self, island: &str, id: &str, lng: &str, props: &Value) -> usize {
        let identity = identity(island, id, lng, props);
        let mut by_identity = self.by_identity.lock().expect("island registry");
        if let Some(n) = by_identity.get(&identity) {
            return *n;
        }
        let mut calls = self.calls.lock().expect("island registry");
        let n = calls.len();
        calls.push(IslandCall {
            island: island.to_string(),
            id: id.to_string(),
            lng: lng.to_string(),
            props: props.clone(),
        });
        by_identity.insert(identity, n);
        n
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
        let call = self.0.call(name, &id, lang, &props);
        Ok(Value::String(format!("{CALL_OPEN}{call}{MARK_CLOSE}")))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// Every page's islands, each with the id it has on its page, and the distinct ones to render.
pub struct Placement {
    calls: Vec<IslandCall>,
    /// Per page (in the order of `place`'s pages): each island call's number and its id there.
    pages: Vec<Vec<(usize, String)>>,
    /// The item of each (call, id).
    item_of: HashMap<(usize, String), usize>,
    pub items: Vec<IslandItem>,
}

/// The calls a page's HTML holds, in order, each with its id on the page: the id the template
/// asked for, then `-2`, `-3`… for the second and later island asking for the same id.
fn page_calls(html: &str, calls: &[IslandCall]) -> Result<Vec<(usize, String)>> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(CALL_OPEN) {
        let after = &rest[start + CALL_OPEN.len()..];
        let end = after
            .find(MARK_CLOSE)
            .ok_or_else(|| anyhow!("unterminated island mark"))?;
        let call: usize = after[..end].parse().map_err(|_| anyhow!("bad island mark"))?;
        let asked = &calls
            .get(call)
            .ok_or_else(|| anyhow!("island mark {call} has no call"))?
            .id;
        let count = seen.entry(asked).or_default();
        *count += 1;
        let id = if *count == 1 {
            asked.clone()
        } else {
            format!("{asked}-{count}")
        };
        found.push((call, id));
        rest = &after[end + MARK_CLOSE.len()..];
    }
    Ok(found)
}

/// Gives every island on every page its id and lists the distinct islands of the build.
pub fn place(calls: &IslandCalls, pages: &[(PathBuf, String)]) -> Result<Placement> {
    let calls = std::mem::take(&mut *calls.calls.lock().expect("island registry"));
    let per_page: Vec<Vec<(usize, String)>> = pages
        .par_iter()
        .map(|(file, html)| page_calls(html, &calls).with_context(|| format!("in {}", file.display())))
        .collect::<Result<_>>()?;
    let mut item_of = HashMap::new();
    let mut items: Vec<IslandItem> = Vec::new();
    for ((file, _), found) in pages.iter().zip(&per_page) {
        for (call, id) in found {
            let n = *item_of.entry((*call, id.clone())).or_insert_with(|| {
                let c = &calls[*call];
                items.push(IslandItem {
                    id: id.clone(),
                    island: c.island.clone(),
                    props: c.props.clone(),
                    lng: c.lng.clone(),
                    pages: Vec::new(),
                });
                items.len() - 1
            });
            items[n].pages.push(file.display().to_string());
        }
    }
    Ok(Placement {
        calls,
        pages: per_page,
        item_of,
        items,
    })
}

impl Placement {
    /// Page `n`'s HTML (the `n`th of `place`'s pages) with each island in place, given each item's
    /// HTML; and the names of the islands it holds.
    pub fn fill(&self, n: usize, page: &str, rendered: &[String]) -> Result<(String, Vec<String>)> {
        let mut out = String::with_capacity(page.len() + 4096);
        let mut names = Vec::new();
        let mut rest = page;
        for (call, id) in &self.pages[n] {
            let start = rest.find(CALL_OPEN).ok_or_else(|| anyhow!("island mark missing"))?;
            out.push_str(&rest[..start]);
            let after = &rest[start..];
            let end = after.find(MARK_CLOSE).expect("found by page_calls");
            let item = self.item_of[&(*call, id.clone())];
            let c = &self.calls[*call];
            let props_json = serde_json::to_string(&c.props)?;
            let html = rendered
                .get(item)
                .ok_or_else(|| anyhow!("island {} on this page was never rendered", c.island))?;
            out.push_str(&format!(
                "<div class=\"island\" data-island=\"{}\" data-id=\"{}\" data-lng=\"{}\" data-props=\"{}\">{html}</div>",
                html_escape::encode_double_quoted_attribute(&c.island),
                html_escape::encode_double_quoted_attribute(id),
                html_escape::encode_double_quoted_attribute(&c.lng),
                html_escape::encode_double_quoted_attribute(&props_json),
            ));
            names.push(c.island.clone());
            rest = &after[end + MARK_CLOSE.len()..];
        }
        out.push_str(rest);
        names.sort();
        names.dedup();
        Ok((out, names))
    }
}

/// The id of the `<script type="application/json">` holding the page language's UI text.
pub const PAGE_TEXT_ID: &str = "island-text";

/// Where a page's UI text block goes: the Tera function `island_text(lang=lang)` leaves this
/// mark, and `IslandText::fill` replaces it once the page's islands are known.
const TEXT_MARK: &str = "<!--island-text:";
const TEXT_MARK_END: &str = "-->";

/// The locale files (`translation` and `sidebar`, as i18next reads them) of each language, in
/// the JSON block a page carries so its islands hydrate with the text the server rendered them
/// with and without a request for it. A page carries only the `translation` sections its
/// islands use (the UI manifest's `text`): the calculators' text alone is 6 KB, and most
/// sections are the templates' own, used by no island.
pub struct IslandText(HashMap<String, LanguageText>);

/// One language's namespaces, each top-level section already JSON.
#[derive(Default)]
struct LanguageText(BTreeMap<String, Vec<(String, String)>>);

impl IslandText {
    pub fn new(locales: &Locales) -> Result<Self> {
        let mut by_lang: HashMap<String, LanguageText> = HashMap::new();
        for file in locales.files() {
            let (Some(lang), Some(ns)) = (
                file.relative.parent().and_then(Path::to_str),
                file.relative.file_stem().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let value: serde_json::Map<String, Value> = serde_json::from_str(&file.text)
                .with_context(|| format!("locales/{} is not a JSON object", file.relative.display()))?;
            let sections = value.into_iter().map(|(k, v)| (k, v.to_string())).collect();
            by_lang
                .entry(lang.to_string())
                .or_default()
                .0
                .insert(ns.to_string(), sections);
        }
        Ok(IslandText(by_lang))
    }

    /// The block for `lang` with the `translation` sections in `sections` (every one for None).
    fn block(&self, lang: &str, sections: Option<&BTreeSet<&str>>) -> String {
        let mut json = String::from("{");
        for (n, (ns, parts)) in self.0.get(lang).map(|t| &t.0).into_iter().flatten().enumerate() {
            let keep = |section: &str| ns != "translation" || sections.is_none_or(|s| s.contains(section));
            let body: Vec<String> = (parts.iter())
                .filter(|(section, _)| keep(section))
                .map(|(section, value)| format!("{}:{value}", Value::from(section.as_str())))
                .collect();
            let comma = if n == 0 { "" } else { "," };
            json.push_str(&format!("{comma}{}:{{{}}}", Value::from(ns.as_str()), body.join(",")));
        }
        json.push('}');
        // `<` never appears raw, so neither `</script>` nor `<!--` can end the block early.
        format!(
            "<script type=\"application/json\" id=\"{PAGE_TEXT_ID}\" data-lng=\"{}\">{}</script>",
            html_escape::encode_double_quoted_attribute(lang),
            json.replace('<', "\\u003c")
        )
    }

    /// `html` with its text mark, if any, replaced by the block of `sections`.
    pub fn fill(&self, html: String, sections: Option<&BTreeSet<&str>>) -> String {
        let Some(at) = html.rfind(TEXT_MARK) else {
            return html;
        };
        let rest = &html[at + TEXT_MARK.len()..];
        let Some(end) = rest.find(TEXT_MARK_END) else {
            return html;
        };
        let block = self.block(&rest[..end], sections);
        format!("{}{block}{}", &html[..at], &rest[end + TEXT_MARK_END.len()..])
    }
}

/// The Tera function `island_text(lang=lang)`: the mark `IslandText::fill` replaces.
pub struct IslandTextFn(HashSet<String>);

impl IslandTextFn {
    /// Knows the languages with locale files.
    pub fn new(locales: &Locales) -> Self {
        let langs = (locales.files().iter())
            .filter_map(|file| file.relative.parent()?.to_str().map(str::to_string))
            .collect();
        IslandTextFn(langs)
    }
}

impl tera::Function for IslandTextFn {
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let lang = args
            .get("lang")
            .and_then(Value::as_str)
            .ok_or("island_text() needs lang=lang")?;
        if !self.0.contains(lang) {
            return Err(format!("island_text(): no locale files for `{lang}`").into());
        }
        Ok(Value::String(format!("{TEXT_MARK}{lang}{TEXT_MARK_END}")))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// Below this many islands a second `node` process costs more (its start and bundle load) than it saves.
const ITEMS_PER_PROCESS: usize = 400;

/// Renders every item with the UI's server bundle (`node render.mjs`, the protocol of `renderer`),
/// reusing the HTML of islands the previous build rendered with the same server bundle and
/// locales when given a `cache` file: a rebuild after editing one page renders only the islands
/// whose props changed. The cache holds exactly this build's islands afterwards.
#[cfg(test)]
pub fn render_all(
    server_bundle: &Path,
    locales: &Locales,
    items: &[IslandItem],
    cache: Option<&Path>,
) -> Result<Vec<String>> {
    Ok(render_all_keeping(server_bundle, locales, items, cache)?.0)
}

/// `render_all`, also giving each distinct island's HTML by identity, which `site watch` keeps so
/// a rebuild renders only the islands it has not seen (`render_more`).
pub fn render_all_keeping(
    server_bundle: &Path,
    locales: &Locales,
    items: &[IslandItem],
    cache: Option<&Path>,
) -> Result<(Vec<String>, HashMap<String, String>)> {
    if items.is_empty() {
        return Ok((Vec::new(), HashMap::new()));
    }
    need_bundle(server_bundle, items)?;
    let fingerprint = cache.map(|_| fingerprint(server_bundle, locales)).transpose()?;
    let mut known: HashMap<String, String> = match (cache, &fingerprint) {
        (Some(file), Some(fingerprint)) => read_cache(file, fingerprint),
        _ => HashMap::new(),
    };
    let html = render_more(server_bundle, locales, items, &mut known)?;
    // Exactly this build's islands are kept.
    let known: HashMap<String, String> = items
        .iter()
        .map(IslandItem::identity)
        .zip(html.iter().cloned())
        .collect();
    if let (Some(file), Some(fingerprint)) = (cache, fingerprint) {
        let cached = CacheFile {
            fingerprint,
            html: known.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        };
        // Written whole and renamed: two builds of one site may run at once (tests do).
        // A cache that cannot be written only makes the next build slower.
        let partial = file.with_extension(format!("{}.partial", std::process::id()));
        if std::fs::write(&partial, serde_json::to_vec(&cached)?).is_ok() {
            let _ = std::fs::rename(&partial, file);
        }
    }
    Ok((html, known))
}

/// The HTML of each item, rendering only those `known` lacks (and adding them to it). `known`
/// must come from the same server bundle and locales.
pub fn render_more(
    server_bundle: &Path,
    locales: &Locales,
    items: &[IslandItem],
    known: &mut HashMap<String, String>,
) -> Result<Vec<String>> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    need_bundle(server_bundle, items)?;
    let identities: Vec<String> = items.iter().map(IslandItem::identity).collect();
    let missing: Vec<IslandItem> = items
        .iter()
        .zip(&identities)
        .filter(|(_, id)| !known.contains_key(*id))
        .map(|(item, _)| item.clone())
        .collect();
    let rendered = render_in_parallel(server_bundle, locales.dir(), &missing, RENDER_TIMEOUT)?;
    for (item, html) in missing.iter().zip(rendered) {
        known.insert(item.identity(), html);
    }
    Ok(identities
        .iter()
        .map(|id| known.get(id).cloned().expect("rendered or known"))
        .collect())
}

fn need_bundle(server_bundle: &Path, items: &[IslandItem]) -> Result<()> {
    if !server_bundle.is_file() {
        bail!(
            "{} is missing: the pages use islands ({}), so build the UI first with `npm --prefix ui run build` (`make build` does it)",
            server_bundle.display(),
            distinct_names(items)
        );
    }
    Ok(())
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
fn render_in_parallel(
    server_bundle: &Path,
    locales_dir: &Path,
    items: &[IslandItem],
    timeout: Duration,
) -> Result<Vec<String>> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let processes = cores.min(items.len().div_ceil(ITEMS_PER_PROCESS)).max(1);
    let chunk = items.len().div_ceil(processes);
    let results: Vec<Result<Vec<String>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|batch| scope.spawn(move || renderer::render_batch(server_bundle, locales_dir, batch, timeout)))
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

fn distinct_names(items: &[IslandItem]) -> String {
    let mut names: Vec<&str> = items.iter().map(|i| i.island.as_str()).collect();
    names.sort();
    names.dedup();
    names.join(", ")
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
}
