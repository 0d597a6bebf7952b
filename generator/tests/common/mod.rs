//! The fixture site and its build options, and what a build wrote, read back the way a crawler
//! and the search page read it. Each test binary uses a part of it.
#![allow(dead_code)]

use generator::BuildOptions;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// The generator's folder, also when another crate's tests include this module (the server's
/// serve a site built from the fixture).
pub fn manifest_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../generator")
}

pub fn fixture() -> PathBuf {
    manifest_dir().join("tests/fixtures/site")
}

pub fn copy_dir(from: &Path, to: &Path) {
    for entry in WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The fixture site with a fourth language (Korean) added only where an owner would add one:
/// site-config.yaml, locales/ko/ (with the API's messages, `api.json`) and a few `*.ko.md` files.
/// Nothing in the code names it.
pub fn site_with_a_fourth_language(root: &Path) {
    copy_dir(&fixture(), root);
    let config = root.join("site-config.yaml");
    let text = std::fs::read_to_string(&config).unwrap().replace(
        "phrase_breaks: japanese }\n",
        "phrase_breaks: japanese }\n  - { code: ko, tag: ko-KR, og_locale: ko_KR, reading: { words_per_minute: 228, characters_per_minute: 255 } }\n",
    );
    assert!(text.contains("code: ko"), "the fixture's language list moved");
    std::fs::write(&config, text).unwrap();
    copy_dir(&root.join("locales/en"), &root.join("locales/ko"));
    std::fs::write(
        root.join("locales/ko/sidebar.json"),
        r#"{"home": "홈", "notes": "노트"}"#,
    )
    .unwrap();
    std::fs::write(root.join("locales/ko/api.json"), KOREAN_API_MESSAGES).unwrap();
    std::fs::write(
        root.join("content/_index.ko.md"),
        "---\ntitle: 테스트 주인\ndescription: 홈.\n---\n## 소개 {#about}\n\n안녕하세요.\n",
    )
    .unwrap();
    std::fs::write(
        root.join("content/notes/first.ko.md"),
        "---\ntitle: 첫 번째 노트\ndescription: 첫 번째.\ndate: 2025-10-01\n---\n한국어 본문.\n\n## 수학 {#math}\n\n$x^2$\n",
    )
    .unwrap();
}

/// The fourth language's `locales/ko/api.json`: the membership API's messages in Korean.
pub const KOREAN_API_MESSAGES: &str = r#"{
  "errors": {
    "loginFailed": "로그인에 실패했습니다. 사용자 이름과 비밀번호를 확인해 주세요.",
    "notFound": "찾을 수 없습니다."
  },
  "messages": {
    "registered": "가입이 완료되었습니다. 이제 로그인할 수 있습니다."
  }
}"#;

/// Build options for a site at `root` into a fresh `out` holding the fixture's UI manifest.
pub fn options(root: &Path, out: &Path) -> BuildOptions {
    std::fs::create_dir_all(out.join("assets")).unwrap();
    std::fs::copy(fixture().join("assets/manifest.json"), out.join("assets/manifest.json")).unwrap();
    BuildOptions {
        root: root.to_path_buf(),
        out: out.to_path_buf(),
        templates: manifest_dir().join("templates"),
        server_bundle: fixture().join("ui/render.mjs"),
        dev: false,
        drafts: false,
        future: false,
        island_cache: None,
        photo_cache: None,
        markdown_cache: None,
    }
}

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
    search_index_pages(out, &files[0])
}

/// Every page of the chunked index whose manifest is `manifest`, as
/// `{route, url, lang, title, text, keywords}`, language by language.
pub fn search_index_pages(out: &Path, manifest: &Path) -> Vec<serde_json::Value> {
    let read = |path: &Path| -> serde_json::Value { serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap() };
    let manifest = read(manifest);
    assert_eq!(manifest["version"], 2);
    let mut pages = Vec::new();
    for (lang, files) in manifest["langs"].as_object().unwrap() {
        let count = files["pages"].as_u64().unwrap() as usize;
        let per = files["per"].as_u64().unwrap() as usize;
        for n in 0..count.div_ceil(per) {
            for record in read(&out.join(format!("assets/search/{lang}/p{n}.json")))
                .as_array()
                .unwrap()
            {
                pages.push(serde_json::json!({
                    "route": record[1], "url": record[2], "lang": lang, "title": record[3],
                    "text": record[4], "keywords": record[5],
                }));
            }
        }
        assert_eq!(count, pages.iter().filter(|p| p["lang"] == *lang).count());
    }
    pages
}

/// The URL of every search index entry, each once.
pub fn search_index_urls(out: &Path) -> BTreeSet<String> {
    let entries = search_index(out);
    let urls: BTreeSet<String> = entries.iter().map(|e| e["url"].as_str().unwrap().to_string()).collect();
    assert_eq!(urls.len(), entries.len(), "one entry per page");
    urls
}
