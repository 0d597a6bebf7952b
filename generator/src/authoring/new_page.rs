//! `site new notes/my-topic`: a new page's file in every language, its front matter filled in, so
//! the owner starts from something the build accepts (README, "Writing content").

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to the civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `notes/my-topic` (or `/notes/my-topic`) split into its segments, each lower-case letters,
/// digits and dashes.
fn segments(page: &str) -> Result<Vec<&str>> {
    let segments: Vec<&str> = page.trim_start_matches('/').split('/').collect();
    let valid = |s: &&str| {
        !s.is_empty()
            && !s.starts_with('-')
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if segments.iter().any(|s| !valid(s)) || segments.last() == Some(&"_index") {
        bail!("`{page}` is not a page route: write it like notes/my-topic (lower-case letters, digits and dashes)");
    }
    Ok(segments)
}

/// The new page's front matter: placeholders for the text, today's date in a collection (which
/// lists its entries by date) and `tech:` where the collection's entries have one.
fn front_matter(collection_dir: Option<&Path>, today: &str) -> String {
    let mut yaml = String::from("---\ntitle: \"TODO: the page's title\"\ndescription: \"TODO: one sentence for search engines and link previews\"\n");
    if let Some(dir) = collection_dir {
        yaml.push_str(&format!("date: {today}\n"));
        let has_tech = std::fs::read_dir(dir).into_iter().flatten().flatten().any(|entry| {
            std::fs::read_to_string(entry.path()).is_ok_and(|text| text.lines().any(|l| l.starts_with("tech:")))
        });
        if has_tech {
            yaml.push_str("tech: \"\"\n");
        }
    }
    yaml.push_str("keywords: []\n---\nTODO: the text, in Markdown.\n");
    yaml
}

/// Writes `content/<page>.<lang>.md` for every language of the site and returns their paths;
/// writes nothing if any of them exists.
pub fn create(root: &Path, page: &str, today: &str) -> Result<Vec<PathBuf>> {
    let config = crate::model::config::load(&root.join("site-config.yaml"))?;
    let segments = segments(page)?;
    let content = root.join("content");
    let collection_dir = match segments.as_slice() {
        [collection, _] if config.collections.contains_key(*collection) => Some(content.join(collection)),
        _ => None,
    };
    let relative = segments.join("/");
    let files: Vec<PathBuf> = config
        .language_codes()
        .map(|lang| content.join(format!("{relative}.{lang}.md")))
        .collect();
    if let Some(existing) = files.iter().find(|f| f.exists()) {
        bail!("{} already exists: nothing was written", existing.display());
    }
    let text = front_matter(collection_dir.as_deref(), today);
    // The translations start as translations of the English placeholder, so they turn stale
    // as soon as the English text is written.
    let english_body = crate::model::content::parse_page(Path::new("the new page"), &text)?.body;
    let translated = crate::authoring::translated::set_front_matter_key(
        &text,
        crate::model::translations::KEY,
        &crate::model::content::body_hash(&english_body),
    )?;
    for (lang, file) in config.language_codes().zip(&files) {
        let text = if lang == config.default_language {
            &text
        } else {
            &translated
        };
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("Failed to create {}", dir.display()))?;
        }
        std::fs::write(file, text).with_context(|| format!("Failed to write {}", file.display()))?;
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        std::fs::copy(repo.join("site-config.yaml"), root.path().join("site-config.yaml")).unwrap();
        std::fs::create_dir_all(root.path().join("content/my-web-project")).unwrap();
        std::fs::write(
            root.path().join("content/my-web-project/app.en.md"),
            "---\ntitle: A\ndescription: d\ntech: Rust\n---\n",
        )
        .unwrap();
        root
    }

    #[test]
    fn a_note_gets_a_dated_file_in_every_language_that_parses() {
        let root = site();
        let files = create(root.path(), "notes/my-topic", "2026-01-31").unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.strip_prefix(root.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "content/notes/my-topic.en.md",
                "content/notes/my-topic.zh.md",
                "content/notes/my-topic.ja.md"
            ]
        );
        let parsed: Vec<_> = files
            .iter()
            .map(|file| crate::model::content::parse_page(file, &std::fs::read_to_string(file).unwrap()).unwrap())
            .collect();
        for page in &parsed {
            assert_eq!(page.front.date.unwrap().to_string(), "2026-01-31");
            assert!(page.front.tech.is_none(), "notes have no tech");
        }
        let english = crate::model::content::body_hash(&parsed[0].body);
        assert_eq!(
            parsed[0].front.translated_from, None,
            "English is translated from nothing"
        );
        for translation in &parsed[1..] {
            assert_eq!(translation.front.translated_from.as_ref(), Some(&english));
        }
        let project = create(root.path(), "/my-web-project/new-app", "2026-01-31").unwrap();
        let text = std::fs::read_to_string(&project[0]).unwrap();
        assert!(
            text.contains("\ntech: \"\"\n") && text.contains("\ndate: 2026-01-31\n"),
            "{text}"
        );
        let article = create(root.path(), "valuation-models/ev-sales", "2026-01-31").unwrap();
        assert!(
            !std::fs::read_to_string(&article[0]).unwrap().contains("date:"),
            "articles are undated"
        );
    }

    #[test]
    fn an_existing_file_is_never_overwritten() {
        let root = site();
        let zh = root.path().join("content/notes/taken.zh.md");
        std::fs::create_dir_all(zh.parent().unwrap()).unwrap();
        std::fs::write(&zh, "mine").unwrap();
        let err = create(root.path(), "notes/taken", "2026-01-31")
            .unwrap_err()
            .to_string();
        assert_eq!(err, format!("{} already exists: nothing was written", zh.display()));
        assert_eq!(std::fs::read_to_string(&zh).unwrap(), "mine");
        assert!(!root.path().join("content/notes/taken.en.md").exists());
        for bad in ["", "notes/", "Notes/x", "notes/../x", "notes/_index"] {
            assert!(create(root.path(), bad, "2026-01-31").is_err(), "{bad}");
        }
    }

    #[test]
    fn today_is_a_calendar_date() {
        assert!(today().parse::<crate::model::date::PageDate>().is_ok(), "{}", today());
    }
}
