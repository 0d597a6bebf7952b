//! Each rendered page finished and written: its island slots filled with the islands' HTML, its
//! UI text, scripts and styles put in, compressed unless in a `--dev` build.

use crate::output::assets::Manifest;
use crate::output::files::{changed_alone, compress_if_changed, Changed, Compression};
use crate::output::ledger::Written;
use crate::output::styles::{
    island_styles_tag, island_stylesheet_file, IslandStylesheets, PageStyles, ISLAND_STYLES_MARKER, STYLES_MARKER,
};
use crate::render::islands::{IslandText, Placement, SCRIPTS_MARKER};
use anyhow::{anyhow, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Compressed pages waiting for the writer, at most.
const PAGES_IN_FLIGHT: usize = 256;

/// What the pages are finished with.
pub(crate) struct Finish<'a> {
    pub island_html: &'a [String],
    pub islands: &'a Placement,
    pub island_text: &'a IslandText,
    pub manifest: Option<&'a Manifest>,
}

/// Fills each page's island slots, scripts and styles, and writes the pages that changed, and the
/// islands' stylesheets they name (kept in `sheets`). Pages are finished and compressed in
/// parallel; one thread writes them as they come, which the file system serves faster than many
/// writers creating files at once. The bound keeps the compressed pages in memory few on a large
/// site.
pub(crate) fn write_pages(
    out: &mut Written,
    pages: Vec<(PathBuf, String)>,
    finish: &Finish,
    sheets: &mut IslandStylesheets,
) -> Result<()> {
    let (finished, to_write) = std::sync::mpsc::sync_channel::<Changed>(PAGES_IN_FLIGHT);
    let writer = std::thread::spawn(move || {
        (to_write.into_iter())
            .map(|page| page.write().map(|()| page.path().to_path_buf()))
            .collect::<Result<Vec<PathBuf>>>()
    });
    let (dir, compress) = (&out.dir, out.compress);
    let styles = (finish.manifest)
        .filter(|m| !m.inline_css.is_empty())
        .map(|m| PageStyles::new(&m.inline_css, &m.head_script));
    let named: Mutex<NamedSheets> = Mutex::default();
    let made = pages
        .par_iter()
        .enumerate()
        .try_for_each_with(finished, |finished, (n, (file, html))| {
            let (html, sheet) = finish_page(n, html, finish, styles.as_ref())?;
            let mut named = named.lock().expect("island stylesheets");
            if let Some((path, text)) = &sheet {
                named.texts.entry(path.clone()).or_insert_with(|| text.clone());
            }
            named.by_page.push((file, sheet.map(|(path, _)| path)));
            drop(named);
            let bytes = html.into_bytes();
            let page = if compress {
                compress_if_changed(&dir.join(file), bytes, Compression::Many)?
            } else {
                changed_alone(&dir.join(file), bytes)?
            };
            match page {
                Some(page) => finished.send(page).map_err(|_| anyhow!("the page writer stopped")),
                None => Ok(()),
            }
        });
    // The writer's own error first: a failed write stops the pages with "the page writer stopped".
    let written = writer.join().expect("page writer")?;
    out.record_changed(written);
    made?;
    let NamedSheets { by_page, texts } = named.into_inner().expect("island stylesheets");
    for (page, sheet) in by_page {
        sheets.set(page, sheet);
    }
    for (file, text) in texts {
        out.write(file, text.as_bytes())?;
    }
    out.files.extend(pages.into_iter().map(|(file, _)| file));
    Ok(())
}

/// The `n`th page's HTML finished, and the islands' stylesheet it names (its file and text).
fn finish_page(
    n: usize,
    html: &str,
    finish: &Finish,
    styles: Option<&PageStyles>,
) -> Result<(String, Option<(PathBuf, String)>)> {
    let manifest = finish.manifest;
    let (html, names) = finish.islands.fill(n, html, finish.island_html)?;
    let html = (finish.island_text).fill(html, manifest.and_then(|m| m.text_sections(&names)).as_ref());
    // Formulas come from the Markdown or from an island's server render (a calculator's).
    let has_math = html.contains("<math");
    let head = manifest.map(|m| m.head_tags(&names, has_math)).unwrap_or_default();
    let mut html = html.replacen(SCRIPTS_MARKER, &head, 1);
    let mut sheet = None;
    let Some(styles) = styles else {
        return Ok((html, sheet));
    };
    if let Some(at) = html.find(STYLES_MARKER) {
        let slot = island_styles_tag(ISLAND_STYLES_MARKER);
        let rules = styles.for_page(&html, html.contains(&slot));
        html.replace_range(at..at + STYLES_MARKER.len(), &rules.first_paint);
        if let Some(at) = html.find(&slot) {
            // Nothing left for the islands (every rule matches the page): no request.
            let mut tag = String::new();
            if !rules.for_islands.is_empty() {
                let path = island_stylesheet_file(&rules.for_islands);
                tag = island_styles_tag(&format!("/{}", path.display()));
                sheet = Some((path, rules.for_islands));
            }
            html.replace_range(at..at + slot.len(), &tag);
        }
    }
    Ok((html, sheet))
}

/// The islands' stylesheets the pages being written name: each page's, and the text of each.
#[derive(Default)]
struct NamedSheets<'a> {
    by_page: Vec<(&'a Path, Option<PathBuf>)>,
    texts: HashMap<PathBuf, String>,
}
