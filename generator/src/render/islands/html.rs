//! Each island's HTML from the UI's server bundle (`renderer`), in parallel `node` processes,
//! reusing what an earlier build rendered with the same bundle and locales.

use super::calls::{distinct_names, IslandItem};
use super::renderer::{self, RENDER_TIMEOUT};
use crate::model::kept;
use crate::model::locales::Locales;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// Below this many islands a second `node` process costs more (its start and bundle load) than it saves.
pub(super) const ITEMS_PER_PROCESS: usize = 400;

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
        (Some(file), Some(fingerprint)) => kept::read_map(file, fingerprint),
        _ => HashMap::new(),
    };
    let from_file = known.len();
    let html = render_more(server_bundle, locales, items, &mut known)?;
    let rendered_now = known.len() - from_file;
    // Exactly this build's islands are kept; the file is left as it is when it holds just those.
    let this_build: HashMap<String, String> = items
        .iter()
        .map(IslandItem::identity)
        .zip(html.iter().cloned())
        .collect();
    let unchanged = rendered_now == 0 && this_build.len() == from_file;
    if let (Some(file), Some(fingerprint), false) = (cache, fingerprint, unchanged) {
        kept::write_map(file, &fingerprint, &this_build);
    }
    Ok((html, this_build))
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

/// What the HTML depends on besides the item: the server bundle and the locale files.
pub(super) fn fingerprint(server_bundle: &Path, locales: &Locales) -> Result<String> {
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

/// One `node` call per core for a large batch: the renderer is single-threaded.
pub(super) fn render_in_parallel(
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
