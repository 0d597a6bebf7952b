//! Formulas and tables of every page as a reader gets them: numbers with thousands separators are
//! one number, names such as CF and TV are one upright identifier, tables of figures have their
//! numeric columns and totals row marked, and nothing carries a `style` attribute (the site's
//! Content-Security-Policy would refuse it).

use generator::content::parse_page;
use generator::markdown::{phrase_model, render, PhraseModel, RenderOptions, Rendered};
use std::path::{Path, PathBuf};

fn content_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// The body of a content file rendered as the build renders it (`name` without `.{lang}.md`).
fn rendered(name: &str, lang: &str) -> String {
    rendered_file(&content_dir().join(format!("{name}.{lang}.md")), lang)
}

fn rendered_file(path: &Path, lang: &str) -> String {
    rendered_with(path, lang, None).html
}

fn rendered_with(path: &Path, lang: &str, phrases: Option<PhraseModel>) -> Rendered {
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let body = parse_page(path, &source).unwrap_or_else(|e| panic!("{e:#}")).body;
    render(
        &body,
        &RenderOptions {
            lang,
            default_language: "en",
            phrases: phrases.map(phrase_model),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()))
}

fn every_page() -> Vec<(PathBuf, String)> {
    let mut pages = Vec::new();
    let mut dirs = vec![content_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Some(lang) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".md"))
                .and_then(|n| n.rsplit('.').next())
            {
                let lang = lang.to_string();
                let html = rendered_file(&path, &lang);
                pages.push((path, html));
            }
        }
    }
    assert!(pages.len() > 60, "only {} content files found", pages.len());
    pages
}

#[test]
fn the_dcf_example_reads_as_typeset_in_every_language() {
    for lang in ["en", "zh", "ja"] {
        let html = rendered("valuation-models/dcf", lang);
        assert_eq!(
            html.matches("<mn>1,785.00</mn>").count(),
            1,
            "{lang}: one number 1,785.00"
        );
        assert_eq!(
            html.matches("<mn>1,556.04</mn>").count(),
            1,
            "{lang}: one number 1,556.04"
        );
        assert!(
            !html.contains("<mi>C</mi><mi>F</mi>"),
            "{lang}: CF as two italic letters"
        );
        assert!(
            html.contains("<msub><mi mathvariant=\"normal\">CF</mi><mi>t</mi></msub>"),
            "{lang}: CF_t is the name CF with subscript t"
        );
        for name in ["PV", "TV", "CF"] {
            assert!(
                html.contains(&format!("<mi mathvariant=\"normal\">{name}</mi>")),
                "{lang}: {name} as one upright name"
            );
        }
        // Display formulas scroll in their own box.
        assert!(
            html.contains("<span class=\"math-scroll\"><math display=\"block\">"),
            "{lang}"
        );
    }
}

#[test]
fn the_example_tables_mark_their_figures_and_totals() {
    for lang in ["en", "zh", "ja"] {
        let html = rendered("valuation-models/dcf", lang);
        // The worked example: the wrapped table with a totals row.
        let table = html
            .split("<div class=\"table-scroll\"><table>")
            .skip(1)
            .map(|rest| &rest[..rest.find("</table></div>").unwrap()])
            .find(|table| table.contains("<tr class=\"total\">"))
            .expect("a wrapped table with a totals row");
        // Free cash flow, discount factor and present value are figures; the year column ends
        // with the word for total, so it is not.
        assert_eq!(
            table.matches("<th scope=\"col\" class=\"num\">").count(),
            3,
            "{lang}: {table}"
        );
        assert!(table.contains("<td class=\"num\">447.70</td>"), "{lang}: {table}");
        assert!(table.contains("<td>1</td>"), "{lang}: {table}");
        assert_eq!(table.matches("<tr class=\"total\">").count(), 1, "{lang}: {table}");
        let last_row = &table[table.rfind("<tr").unwrap()..];
        assert!(
            last_row.starts_with("<tr class=\"total\">"),
            "{lang}: the totals row is the last"
        );
    }
    let html = rendered("investment-basics/what-is-investing", "ja");
    assert!(html.contains("<td class=\"num\">1,070.00ドル</td>"), "{html}");
}

#[test]
fn no_page_splits_numbers_or_names_or_carries_inline_styles() {
    for (path, html) in every_page() {
        let path = path.display();
        assert!(!html.contains(" style=\""), "{path}: a style attribute");
        assert!(
            !html.contains("<mrow><mo>,</mo></mrow>"),
            "{path}: a number split at its comma"
        );
        let capitals = html.as_bytes().windows(20).any(|w| {
            // <mi>X</mi><mi>Y</mi>: two capitals one after the other, read as a product.
            w.starts_with(b"<mi>")
                && w[4].is_ascii_uppercase()
                && &w[5..14] == b"</mi><mi>"
                && w[14].is_ascii_uppercase()
                && &w[15..20] == b"</mi>"
        });
        assert!(!capitals, "{path}: capitals set as separate variables");
        // A table of text stacks into cards on a phone, in the same box.
        let boxed = html.matches("<div class=\"table-scroll\"><table>").count()
            + html.matches("<div class=\"table-scroll table-stack\"><table>").count();
        assert_eq!(
            html.matches("<table>").count(),
            boxed,
            "{path}: every table scrolls in its own box"
        );
    }
}

/// Japanese lines break between phrases in every browser: the words the reader saw cut (1|ドル,
/// 企業フ|リー) stay whole, and the phrase marks change neither the search text nor the headings.
#[test]
fn japanese_text_marks_its_phrases_and_keeps_its_words_whole() {
    let path = content_dir().join("valuation-models/dcf.ja.md");
    let plain = rendered_with(&path, "ja", None);
    let phrased = rendered_with(&path, "ja", Some(PhraseModel::Japanese));
    assert!(phrased.html.matches("<wbr>").count() > 100, "few phrase marks");
    assert_eq!(
        phrased.html.replace("<wbr>", ""),
        plain.html,
        "only phrase marks are added"
    );
    assert_eq!(phrased.text, plain.text, "the search text has no marks");
    assert_eq!(phrased.headings, plain.headings);
    for word in ["ドル", "フリー", "キャッシュ", "割引率"] {
        let cut = (1..word.chars().count())
            .map(|i| {
                let (a, b): (String, String) = (word.chars().take(i).collect(), word.chars().skip(i).collect());
                format!("{a}<wbr>{b}")
            })
            .find(|cut| phrased.html.contains(cut.as_str()));
        assert_eq!(cut, None, "{word} is cut");
    }
    assert!(
        !phrased.html.contains("alt=\"<wbr>") && !phrased.html.contains("&lt;wbr&gt;"),
        "no mark in alt text"
    );
}
