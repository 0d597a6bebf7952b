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

impl IslandCalls {
    fn slot(&self, island: &str, id: &str, lng: &str, props: &Value) -> usize {
        let identity = format!("{island}\u{0}{id}\u{0}{lng}\u{0}{props}");
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
        let name = args.get("name").and_then(Value::as_str).ok_or("island() needs name=\"...\"")?;
        let lang = args.get("lang").and_then(Value::as_str).ok_or("island() needs lang=lang")?;
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

#[derive(Deserialize)]
struct RenderAnswer {
    html: BTreeMap<String, String>,
}

/// Renders every item with the UI's server bundle (`node render.mjs`, JSON on stdin and stdout).
pub fn render_all(server_bundle: &Path, locales_dir: &Path, items: &[IslandItem]) -> Result<Vec<String>> {
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
    let output = child.wait_with_output().context("Failed to read the island renderer's answer")?;
    writer.join().expect("stdin writer").context("Failed to send the islands to the renderer")?;
    if !output.status.success() {
        bail!(
            "the island renderer {} failed ({}):\n{}",
            server_bundle.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let answer: RenderAnswer = serde_json::from_slice(&output.stdout)
        .with_context(|| format!("the island renderer {} answered with invalid JSON", server_bundle.display()))?;
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
        let end = after.find(SLOT_CLOSE).ok_or_else(|| anyhow!("unterminated island slot"))?;
        let n: usize = after[..end].parse().map_err(|_| anyhow!("bad island slot"))?;
        let html = rendered.get(n).ok_or_else(|| anyhow!("island slot {n} was never rendered"))?;
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
        assert!(a.contains("data-props=\"{&quot;route&quot;:&quot;/a\\&quot;&lt;b&gt;&quot;}\""), "{a}");
    }

    #[test]
    fn slots_are_filled_and_islands_named() {
        let calls = Arc::new(IslandCalls::default());
        let f = IslandFn(calls.clone());
        let page = format!("<body>{}{}</body>", call(&f, "A", "en", Value::Null), call(&f, "B", "en", Value::Null));
        let (html, names) = fill_slots(&page, &["<p>a</p>".into(), "<p>b</p>".into()], &calls.items()).unwrap();
        assert!(html.contains("><p>a</p></div>") && html.contains("><p>b</p></div>"), "{html}");
        assert_eq!(names, ["A", "B"]);
    }

    #[test]
    fn a_missing_server_bundle_says_how_to_build_it() {
        let items = vec![IslandItem { key: "0".into(), id: "x".into(), island: "Search".into(), props: Value::Null, lng: "en".into() }];
        let err = render_all(Path::new("/nonexistent/render.mjs"), Path::new("."), &items).unwrap_err().to_string();
        assert!(err.contains("npm --prefix ui run build") && err.contains("Search"), "{err}");
    }
}
