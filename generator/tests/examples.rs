//! The worked examples of the valuation articles are arithmetic a reader may copy. Their
//! arithmetic is checked where it ships: `ui/src/valuation/articles.test.ts` recomputes every
//! figure kept under `example:` in a page's front matter with the calculators' own modules, and
//! lists how each page prints them in `figures/shown.json`. Here every one of those figures must
//! appear in the prose of every language exactly as printed (amounts in millions may be counted
//! in 億/萬 in zh and ja), and `example:` must be the same in en, zh and ja.

use figures::{content_dir, Page, Printed, Shown};
use std::path::{Path, PathBuf};

#[path = "figures/mod.rs"]
mod figures;

/// Every article of the section with its weight: the multiples first, then the cash-flow models.
const MODELS: [(&str, i64); 13] = [
    ("pe", 1),
    ("ps", 2),
    ("pb", 3),
    ("ev-ebitda", 4),
    ("dcf", 5),
    ("wacc", 6),
    ("ddm", 7),
    ("roic", 8),
    ("reverse-dcf", 9),
    ("margin-of-safety", 10),
    ("dilution", 11),
    ("residual-income", 12),
    ("where-the-numbers-come-from", 13),
];
/// The sections of an article on a multiple, in this order.
const MULTIPLE_SECTIONS: [&str; 5] = ["formula", "what-it-tells-you", "example", "when-to-use", "limitations"];
/// The sections of an article on a cash-flow model, in this order.
const ARTICLE_SECTIONS: [&str; 8] = [
    "definition",
    "why-use",
    "how-it-works",
    "formula",
    "example",
    "importance",
    "when-to-use",
    "limitations",
];
/// The sections of the guide to where a valuation's inputs come from, in this order.
const GUIDE_SECTIONS: [&str; 8] = [
    "filings",
    "statement-lines",
    "taiwan-mops",
    "japan-edinet-tdnet",
    "risk-free-rate",
    "beta",
    "equity-risk-premium",
    "checklist",
];
/// Routes outside this section that the articles may link to (README, "Writing content").
const OTHER_ROUTES: [&str; 4] = [
    "/investment-basics",
    "/investment-basics/what-is-investing",
    "/investment-basics/risk-and-reward",
    "/investment-basics/types-of-investments",
];

fn section_dir() -> PathBuf {
    content_dir().join("valuation-models")
}

fn load(name: &str) -> Vec<Page> {
    figures::load(&section_dir(), name)
}

/// The figures the article `model` prints.
fn figures_of(model: &str) -> Vec<Printed> {
    figures::shown(&format!("valuation-models/{model}"))
}

#[test]
fn every_figure_of_every_example_is_in_every_language() {
    let mut problems = Vec::new();
    for (model, _) in MODELS {
        let pages = load(model);
        assert!(pages[0].front.example.is_some(), "{model}.en.md has no `example:`");
        problems.extend(figures::page_problems(&pages, &figures_of(model)));
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn articles_have_their_sections_in_every_language() {
    for (model, weight) in MODELS {
        let pages = load(model);
        for page in &pages {
            assert_eq!(page.front.weight, Some(weight), "{}: weight", page.path.display());
            assert!(!page.front.keywords.is_empty(), "{}: keywords", page.path.display());
            assert_eq!(
                page.heading_ids,
                pages[0].heading_ids,
                "{}: headings differ from English",
                page.path.display()
            );
            let (sections, extra): (&[&str], &[&str]) = match model {
                "dcf" => (
                    &ARTICLE_SECTIONS,
                    &[
                        "lottery-example",
                        "discount-rate",
                        "fcff-fcfe",
                        "mid-year",
                        "sensitivity",
                    ],
                ),
                "ddm" => (
                    &ARTICLE_SECTIONS,
                    &["h-model", "justified-multiples", "mid-year", "sensitivity"],
                ),
                "wacc" => (&ARTICLE_SECTIONS, &["capm", "cost-of-debt", "weights"]),
                "roic" => (&ARTICLE_SECTIONS, &["growth-and-reinvestment", "terminal-checks"]),
                "reverse-dcf" => (&ARTICLE_SECTIONS, &["implied-growth", "implied-return", "grid"]),
                "margin-of-safety" => (&ARTICLE_SECTIONS, &["weighted-value", "enough"]),
                "ev-ebitda" => (&MULTIPLE_SECTIONS, &["bridge", "ev-sales", "exit-multiple"]),
                "pe" => (&MULTIPLE_SECTIONS, &["justified-pe"]),
                "pb" => (&MULTIPLE_SECTIONS, &["justified-pb"]),
                "dilution" => (
                    &ARTICLE_SECTIONS,
                    &["stock-pay", "debt-like", "options-rsus", "convertibles"],
                ),
                "residual-income" => (&ARTICLE_SECTIONS, &["justified-pb", "clean-surplus"]),
                "where-the-numbers-come-from" => {
                    (&GUIDE_SECTIONS, &["regression-or-industry", "example", "implied-erp"])
                }
                _ => (&MULTIPLE_SECTIONS, &[]),
            };
            for id in sections.iter().chain(extra) {
                assert!(
                    page.heading_ids.iter().any(|h| h == id),
                    "{}: no heading {{#{id}}}",
                    page.path.display()
                );
            }
            let order: Vec<&str> = page
                .heading_ids
                .iter()
                .map(String::as_str)
                .filter(|h| sections.contains(h))
                .collect();
            assert_eq!(order, sections, "{}: sections out of order", page.path.display());
        }
    }
}

/// A stray `**` is one the reader would see.
#[test]
fn emphasis_is_closed_in_every_language() {
    for name in std::iter::once("_index").chain(MODELS.iter().map(|(m, _)| *m)) {
        for page in load(name) {
            figures::assert_emphasis_closed(&page);
        }
    }
}

#[test]
fn links_point_at_pages_and_headings_that_exist() {
    let landing = load("_index");
    for page in &landing {
        for (model, _) in MODELS {
            let route = format!("/valuation-models/{model}");
            assert!(
                page.links.contains(&route),
                "{}: does not link {route}",
                page.path.display()
            );
        }
    }
    let names = std::iter::once("_index").chain(MODELS.iter().map(|(m, _)| *m));
    for name in names {
        for page in load(name) {
            for link in &page.links {
                let (route, fragment) = link
                    .split_once('#')
                    .map_or((link.as_str(), None), |(r, f)| (r, Some(f)));
                let target = match route.strip_prefix("/valuation-models") {
                    Some("") => Some("_index"),
                    Some(rest) => rest.strip_prefix('/'),
                    None => None,
                };
                match target {
                    Some(target) => {
                        let file = section_dir().join(format!("{target}.{}.md", page.lang));
                        assert!(
                            file.exists(),
                            "{}: link {link}: no {}",
                            page.path.display(),
                            file.display()
                        );
                        if let Some(fragment) = fragment {
                            let linked = load(target);
                            assert!(
                                linked[0].heading_ids.iter().any(|h| h == fragment),
                                "{}: link {link}: no such heading",
                                page.path.display()
                            );
                        }
                    }
                    None => assert!(
                        OTHER_ROUTES.contains(&route) && fragment.is_none(),
                        "{}: link {link} is outside the routes these articles may use",
                        page.path.display()
                    ),
                }
            }
        }
    }
}

#[test]
fn shown_formats_match_the_pages_conventions() {
    assert_eq!(Shown::Dollars(2).format(10366.051), "$10,366.05");
    assert_eq!(Shown::Dollars(0).format(1000.0), "$1,000");
    assert_eq!(Shown::Amount(2).format(1556.0385), "1,556.04");
    assert_eq!(Shown::Amount(0).format(50000.0), "50,000");
    assert_eq!(Shown::Plain(1).format(15.0), "15.0");
    assert_eq!(Shown::Percent(0).format(0.05), "5%");
    assert_eq!(Shown::Percent(2).format(0.062658), "6.27%");
}

#[test]
fn amounts_in_millions_may_be_counted_in_yi_and_wan() {
    let forms = |x: f64, decimals: usize, lang: &str| Printed::new(x, Shown::Amount(decimals)).forms(lang);
    assert_eq!(forms(400.0, 0, "en"), ["400"]);
    assert_eq!(forms(400.0, 0, "zh"), ["400", "4 億"]);
    assert_eq!(forms(420.0, 0, "ja"), ["420", "4.2億"]);
    assert_eq!(forms(50000.0, 0, "zh"), ["50,000", "500 億"]);
    assert_eq!(forms(20.0, 0, "zh"), ["20", "2,000 萬"]);
    assert_eq!(forms(50.0, 0, "ja"), ["50", "5,000万"]);
    assert_eq!(forms(1785.0, 2, "zh"), ["1,785.00", "17.85 億"]);
    // Figures that are not amounts keep their one form.
    assert_eq!(Printed::new(12.0, Shown::Dollars(2)).forms("zh"), ["$12.00"]);
}

/// The text between `**` pairs on each line of a page's Markdown, with `\$` read as `$`.
fn bold_spans(path: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    source
        .lines()
        .flat_map(|line| line.split("**").skip(1).step_by(2).map(|s| s.replace("\\$", "$")))
        .collect()
}

/// Whether a figure is set in bold on a page: one of its forms inside a bold span, or a count in
/// 億/萬 whose number alone is bold (`**4** 億美元`).
fn is_bold(figure: &Printed, lang: &str, spans: &[String]) -> bool {
    figure.forms(lang).iter().any(|form| {
        let count = form.trim_end_matches(['億', '萬', '万']).trim_end();
        spans
            .iter()
            .any(|span| span.contains(form.as_str()) || (count != form && span.trim() == count))
    })
}

/// A result English sets in bold is the answer a reader looks for; Chinese and Japanese readers
/// must find it set apart too.
#[test]
fn figures_bold_in_english_are_bold_in_every_language() {
    let mut problems = Vec::new();
    for (model, _) in MODELS {
        let pages = load(model);
        let figures = figures_of(model);
        let english = bold_spans(&pages[0].path);
        for page in &pages[1..] {
            let spans = bold_spans(&page.path);
            for figure in figures.iter().filter(|f| is_bold(f, "en", &english)) {
                if !is_bold(figure, page.lang, &spans) {
                    problems.push(format!("{}: `{}` is not bold", page.path.display(), figure.text));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
