//! The islands the templates place: the Tera function `island(...)` records each call and leaves
//! a mark; once every page is rendered, each island on each page gets its id (unique on the
//! page), and the rendered HTML goes where the marks were.

use crate::model::content::Hydrate;
use anyhow::{anyhow, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

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
    hydrate: Hydrate,
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

/// What makes two island calls the same placement: the same render, hydrated at the same time.
fn call_identity(island: &str, id: &str, lng: &str, props: &Value, hydrate: Hydrate) -> String {
    format!("{}\u{0}{hydrate:?}", identity(island, id, lng, props))
}

impl IslandItem {
    pub(super) fn identity(&self) -> String {
        identity(&self.island, &self.id, &self.lng, &self.props)
    }
}

impl IslandCalls {
    /// Forgets every call: the next render records only its own pages' islands (`site watch`).
    pub fn clear(&self) {
        self.by_identity.lock().expect("island registry").clear();
        self.calls.lock().expect("island registry").clear();
    }

    fn call(&self, island: &str, id: &str, lng: &str, props: &Value, hydrate: Hydrate) -> usize {
        let identity = call_identity(island, id, lng, props, hydrate);
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
            hydrate,
        });
        by_identity.insert(identity, n);
        n
    }
}

/// The Tera function `island(name="TopBar", props=..., lang=lang, id="topbar", hydrate="idle")`;
/// `hydrate` is `load` (the default) or `idle`, as a page's front matter declares it.
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
        let hydrate = match args.get("hydrate") {
            None => Hydrate::Load,
            Some(value) => serde_json::from_value(value.clone())
                .map_err(|_| format!("island() hydrate={value} is not \"load\" or \"idle\""))?,
        };
        let call = self.0.call(name, &id, lang, &props, hydrate);
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
            let hydrate = match c.hydrate {
                Hydrate::Load => "",
                Hydrate::Idle => " data-hydrate=\"idle\"",
            };
            out.push_str(&format!(
                "<div class=\"island\" data-island=\"{}\" data-id=\"{}\" data-lng=\"{}\"{hydrate} data-props=\"{}\">{html}</div>",
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

pub(super) fn distinct_names(items: &[IslandItem]) -> String {
    let mut names: Vec<&str> = items.iter().map(|i| i.island.as_str()).collect();
    names.sort();
    names.dedup();
    names.join(", ")
}
