use super::*;

#[test]
fn routes_follow_file_names() {
    let c = vec!["notes".to_string()];
    let r = |p: &str| route_of(Path::new(p), &c).unwrap();
    assert_eq!(r("_index.en.md"), ("/".into(), "en".into(), PageKind::Home));
    assert_eq!(
        r("notes/_index.zh.md"),
        (
            "/notes".into(),
            "zh".into(),
            PageKind::Collection { name: "notes".into() }
        )
    );
    assert_eq!(r("guide/_index.en.md").2, PageKind::Section);
    assert_eq!(r("guide/notes/_index.en.md").2, PageKind::Section);
    assert_eq!(
        r("notes/liquidity-risk.ja.md"),
        (
            "/notes/liquidity-risk".into(),
            "ja".into(),
            PageKind::Entry {
                collection: "notes".into()
            }
        )
    );
    assert_eq!(r("valuation-models/dcf.en.md").2, PageKind::Single);
    assert_eq!(r("MemberPage.en.md").0, "/MemberPage");
    assert!(route_of(Path::new("notes/oops.md"), &c).is_err());
}

#[test]
fn front_matter_errors_name_file_and_line() {
    let err = parse_page(
        Path::new("content/x.en.md"),
        "---\ntitle: A\ndescription: [oops\n---\nbody\n",
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("content/x.en.md:"), "{err}");
    assert!(err.contains("invalid front matter"), "{err}");
    let missing = parse_page(Path::new("a.en.md"), "---\ntitle: A\n---\n")
        .unwrap_err()
        .to_string();
    assert!(missing.contains("missing field `description`"), "{missing}");
    let unknown = parse_page(Path::new("a.en.md"), "---\ntitle: A\ndescription: d\ntitel: x\n---\n")
        .unwrap_err()
        .to_string();
    assert!(
        unknown.starts_with("a.en.md:4:1: invalid front matter: unknown field `titel`"),
        "{unknown}"
    );
    assert!(
        !unknown.contains("at line"),
        "lines count from the file's start only: {unknown}"
    );
}

#[test]
fn errors_about_a_key_name_the_keys_own_line() {
    let empty = parse_page(
        Path::new("a.en.md"),
        "---\n# A comment\ndescription: d\n\ntitle: \" \"\n---\n",
    )
    .unwrap_err()
    .to_string();
    assert_eq!(empty, "a.en.md:5: `title` is empty");
    let date = parse_page(
        Path::new("content/notes/n.en.md"),
        "---\ntitle: A\ndescription: d\nkeywords: [a]\ndate: next tuesday\n---\nBody\n",
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        date,
        "content/notes/n.en.md:5:7: invalid front matter: date: `next tuesday` is not YYYY-MM-DD or YYYY-MM"
    );
    let file = parse_page(
        Path::new("a.en.md"),
        "---\ntitle: A\ndescription: >\n  two\n  lines\nkeywords:\n  - x\n\"template\": page.html\n---\n",
    )
    .unwrap();
    let lines: Vec<(&str, usize)> = file.key_lines.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        lines,
        [("description", 3), ("keywords", 6), ("template", 8), ("title", 2)]
    );
}

#[test]
fn body_and_its_first_line_are_split_from_front_matter() {
    let file = parse_page(
        Path::new("a.en.md"),
        "---\ntitle: A\ndescription: d\ndate: 2025-10-01\n---\nHello\n",
    )
    .unwrap();
    assert_eq!(file.front.date.map(|d| d.to_string()).as_deref(), Some("2025-10-01"));
    assert_eq!(file.body, "Hello\n");
    assert_eq!(file.body_line, 6);
}
