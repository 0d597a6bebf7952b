//! What a build wrote, read back the way a crawler and the search page read it.

use std::collections::BTreeSet;
use std::path::Path;
use walkdir::WalkDir;

/// The URL path of every page file in `out`: `zh/notes/index.html` is `/zh/notes`, and the home
/// page of a language under its own folder (`languages`) is `/zh/`.
pub fn built_urls(out: &Path, languages: &[&str]) -> BTreeSet<String> {
    WalkDir::new(out)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() == "index.html")
        .map(|e| {
            let dir = e.path().parent().unwrap().strip_prefix(out).unwrap();
            let dir = dir.to_str().unwrap();
            match dir {
                "" => "/".to_string(),
                lang if languages.contains(&lang) => format!("/{lang}/"),
                _ => format!("/{dir}"),
            }
        })
        .collect()
}

/// Every `<loc>` of `sitemap.xml`, without the site's base URL.
pub fn sitemap_urls(out: &Path, base_url: &str) -> BTreeSet<String> {
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    sitemap
        .split("<loc>")
        .skip(1)
        .map(|rest| {
            let loc = rest.split("</loc>").next().unwrap();
            loc.strip_prefix(base_url)
                .unwrap_or_else(|| panic!("{loc}"))
                .to_string()
        })
        .collect()
}

/// The search index's entries (the build's only `assets/search-index-*.json`).
pub fn search_index(out: &Path) -> Vec<serde_json::Value> {
    let files: Vec<_> = std::fs::read_dir(out.join("assets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("search-index-") && name.ends_with(".json")
        })
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let index: serde_json::Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    index["pages"].as_array().unwrap().clone()
}

/// The URL of every search index entry, each once.
pub fn search_index_urls(out: &Path) -> BTreeSet<String> {
    let entries = search_index(out);
    let urls: BTreeSet<String> = entries.iter().map(|e| e["url"].as_str().unwrap().to_string()).collect();
    assert_eq!(urls.len(), entries.len(), "one entry per page");
    urls
}
