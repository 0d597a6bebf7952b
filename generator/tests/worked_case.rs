//! The worked case of the equity-research page (README, "Writing content") is one company carried
//! from its statements to a price. Its arithmetic is checked where it ships, with the other
//! worked examples: `ui/src/valuation/articles.test.ts` recomputes every figure kept under
//! `example:` in its front matter, each from the inputs and from the figures shown one step
//! earlier, and lists how the page prints them in `figures/shown.json`. Here every one of those
//! figures must appear in the text of every language as printed (amounts in millions may be
//! counted in 億/萬 in zh and ja), and `example:` must be the same in en, zh and ja.

#[path = "figures/mod.rs"]
mod figures;

use figures::{content_dir, Page, Printed, Shown};

/// The articles whose methods the case applies; each language's page links to each of them.
const ARTICLES: [&str; 8] = [
    "/valuation-models/dcf",
    "/valuation-models/wacc",
    "/valuation-models/pe",
    "/valuation-models/ev-ebitda",
    "/valuation-models/roic",
    "/valuation-models/reverse-dcf",
    "/valuation-models/margin-of-safety",
    "/valuation-models/dilution",
];
/// The steps of the case, in order, with the same ids in every language.
const SECTIONS: [&str; 11] = [
    "statements",
    "income-statement",
    "balance-sheet",
    "cash-flow-statement",
    "normalisation",
    "roic",
    "forecast",
    "wacc",
    "terminal-value",
    "equity-bridge",
    "scenarios",
];
const LAST_SECTION: &str = "price";

fn load() -> Vec<Page> {
    figures::load(&content_dir(), "equity-research")
}

#[test]
fn every_figure_of_the_case_is_in_every_language() {
    let pages = load();
    assert!(
        pages[0].front.example.is_some(),
        "equity-research.en.md has an `example:`"
    );
    let problems = figures::page_problems(&pages, &figures::shown("equity-research"));
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn the_case_has_its_steps_and_links_in_every_language() {
    for page in load() {
        let ids: Vec<&str> = page.heading_ids.iter().map(String::as_str).collect();
        let expected: Vec<&str> = SECTIONS.iter().copied().chain([LAST_SECTION]).collect();
        assert_eq!(ids, expected, "{}: the case's sections", page.path.display());
        for article in ARTICLES {
            assert!(
                page.links
                    .iter()
                    .any(|l| l == article || l.starts_with(&format!("{article}#"))),
                "{}: does not link {article}",
                page.path.display()
            );
        }
        figures::assert_emphasis_closed(&page);
        let description = page.front.description.to_lowercase();
        for soon in ["coming soon", "即將推出", "近日公開"] {
            assert!(
                !description.contains(soon),
                "{}: the description still says {soon}",
                page.path.display()
            );
        }
    }
}

#[test]
fn figures_are_formatted_as_the_page_writes_them() {
    assert_eq!(Shown::Amount(0).format(-22.0), "−22");
    assert_eq!(Shown::Amount(1).format(1599.0), "1,599.0");
    assert_eq!(Shown::Percent(1).format(-0.007), "−0.7%");
    assert_eq!(Shown::Percent(1).format(0.084), "8.4%");
    assert_eq!(Shown::Dollars(2).format(19.15), "$19.15");
    let amount = Printed::new(1861.0, Shown::Amount(0));
    assert_eq!(amount.forms("zh"), ["1,861", "18.61 億"]);
    assert_eq!(amount.forms("ja"), ["1,861", "18.61億"]);
}
