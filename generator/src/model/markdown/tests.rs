use super::*;

fn en(source: &str) -> Rendered {
    render(
        source,
        &RenderOptions {
            lang: "en",
            default_language: "en",
            ..Default::default()
        },
    )
    .unwrap()
}

#[test]
fn math_becomes_mathml() {
    let r = en("Price: $P = \\frac{D_1}{r - g}$\n\n$$\nPV = \\sum_{t=1}^{n} x_t\n$$\n");
    assert!(r.html.contains("<math"), "{}", r.html);
    assert!(r.html.contains("<mfrac>"), "{}", r.html);
    assert!(r.html.contains("display=\"block\""), "{}", r.html);
    assert!(!r.html.contains('$'), "{}", r.html);
}

#[test]
fn bad_math_names_its_line() {
    let err = render(
        "ok\n\n$\\frac{1}$\n",
        &RenderOptions {
            lang: "en",
            default_language: "en",
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("line 3: invalid math"), "{err}");
}

#[test]
fn headings_get_ids_given_or_derived() {
    let r = en("## Formula {#formula}\n\n## Why use it?\n\n## 公式\n");
    assert!(r.html.contains("<h2 id=\"formula\">Formula</h2>"), "{}", r.html);
    assert!(r.html.contains("<h2 id=\"why-use-it\">"), "{}", r.html);
    let ids: Vec<&str> = r.headings.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["formula", "why-use-it", "公式"]);
}

/// Fails with the needle and the whole HTML when the rendered page lacks the needle.
fn has(r: &Rendered, needle: &str) {
    assert!(r.html.contains(needle), "{needle} not in\n{}", r.html);
}

#[test]
fn display_math_scrolls_in_its_own_box() {
    let r = en("$$\nTV = \\frac{CF_n}{r - g}\n$$\n\nInline $r$.\n");
    has(&r, "<span class=\"math-scroll\"><math display=\"block\">");
    has(
        &r,
        "Inline <span class=\"math-tie\"><math display=\"inline\"><mi>r</mi></math>.</span>",
    );
}

#[test]
fn punctuation_after_a_formula_stays_on_its_line() {
    let r = en("其值為 $1.05^3$。下一句，$r$ 與 $g$）。\n");
    has(
        &r,
        "<span class=\"math-tie\"><math display=\"inline\"><msup><mn>1.05</mn><mn>3</mn></msup></math>。</span>下一句",
    );
    has(&r, "，<math display=\"inline\"><mi>r</mi></math> 與");
    has(&r, "<mi>g</mi></math>）。</span></p>");
    assert!(r.text.contains("1.05^3 。下一句"), "{:?}", r.text);
}

#[test]
fn tables_scroll_and_say_which_columns_are_figures() {
    let r =
        en("| Item | Amount | Note |\n|:---|---|:---:|\n| Rent | \\$1,200.00 | monthly |\n| Total | \\$1,200.00 | |\n");
    assert!(
        r.html.starts_with("<div class=\"table-scroll\"><table><thead><tr>"),
        "{}",
        r.html
    );
    has(&r, "<th scope=\"col\" class=\"align-left\">Item</th>");
    has(&r, "<th scope=\"col\" class=\"num\">Amount</th>");
    has(&r, "<td class=\"num\">$1,200.00</td>");
    has(&r, "<td class=\"align-center\">monthly</td>");
    has(&r, "<tr class=\"total\"><td class=\"align-left\">Total</td>");
    // Words alone make no totals row, nor does a label that merely starts with the word.
    let words = en("| | A | B |\n|---|---|---|\n| Cost | low | high |\n| Total | low | high |\n");
    assert!(!words.html.contains("class=\"total\""), "{}", words.html);
    let sums = en("| Item | Amount |\n|---|---|\n| Rent | 1 |\n| Totals so far | 1 |\n");
    assert!(!sums.html.contains("class=\"total\""), "{}", sums.html);
    assert!(r.html.ends_with("</tbody></table></div>\n"), "{}", r.html);
    assert!(!r.html.contains("style="), "{}", r.html);
    assert!(r.text.contains("Rent\n$1,200.00\nmonthly\n"), "{:?}", r.text);
}

#[test]
fn tables_of_words_stack_with_their_headings_as_labels() {
    let words = en("| | To the firm | To \"equity\" |\n|---|---|---|\n| Whose cash | Lenders and shareholders together | Shareholders only, after the lenders |\n| Rate | WACC | The cost of equity |\n");
    has(&words, "<div class=\"table-scroll table-stack\"><table>");
    has(
        &words,
        "<td data-label=\"To &quot;equity&quot;\">Shareholders only, after the lenders</td>",
    );
    // The row's own label has no heading above it, so it carries none.
    has(&words, "<tr><td>Whose cash</td>");
    // Chinese counts two columns a character: as many words in fewer characters.
    let zh = en("| | 企業自由現金流量 | 股東自由現金流量 |\n|---|---|---|\n| 屬於誰 | 債權人與股東共同所有 | 只屬於股東，在債權人之後 |\n");
    has(&zh, "table-stack");
    // Short words, or a column of figures, keep the table's columns (scrolling if need be).
    let short = en("| | A | B |\n|---|---|---|\n| Cost | low | high |\n| Lenders and shareholders | The cost of equity | Shareholders |\n");
    assert!(!short.html.contains("table-stack"), "{}", short.html);
    let figures = en("| Case | Why it happens, in a long sentence | Value |\n|---|---|---|\n| Bear case with lower growth | Margins fall back to the industry average | \\$19.50 |\n");
    assert!(!figures.html.contains("table-stack"), "{}", figures.html);
    assert!(!figures.html.contains("data-label"), "{}", figures.html);
}

#[test]
fn tables_footnotes_strikethrough() {
    let r = en("| a | b |\n|---|---|\n| 1 | 2 |\n\nText[^1] ~~old~~\n\n[^1]: Note.\n");
    assert!(r.html.contains("<table>"));
    assert!(r.html.contains("<del>old</del>"));
    assert!(r.html.contains("footnote-definition"));
}

#[test]
fn internal_links_are_localized_and_recorded() {
    let r = render(
        "See [DCF](/valuation-models/dcf#formula) and ![x](/images/a.svg)\nand [home](/).",
        &RenderOptions {
            lang: "zh",
            default_language: "en",
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        r.html.contains("href=\"/zh/valuation-models/dcf#formula\""),
        "{}",
        r.html
    );
    assert!(r.html.contains("href=\"/zh/\""), "{}", r.html);
    assert!(r.html.contains("src=\"/images/a.svg\""), "{}", r.html);
    assert_eq!(r.links[0], ("/valuation-models/dcf#formula".to_string(), 1));
    assert_eq!(r.links[2], ("/".to_string(), 2));
}

#[test]
fn diagrams_open_full_size_unless_already_a_link() {
    let r = en("![Flow](/images/flow.svg)\n\n[![Logo](/images/logo.svg)](/about)\n\n![Photo](/images/p.png)\n");
    has(
        &r,
        "<a class=\"diagram\" href=\"/images/flow.svg\"><img src=\"/images/flow.svg\" alt=\"Flow\" /></a>",
    );
    assert_eq!(r.html.matches("class=\"diagram\"").count(), 1, "{}", r.html);
}

#[test]
fn code_is_highlighted_with_classes() {
    let r = en("```rust\nfn main() {}\n```\n");
    assert!(r.has_code);
    assert!(r.html.contains("class=\"hl-"), "{}", r.html);
    assert!(r.text.contains("fn main()"));
}

#[test]
fn dark_code_styles_apply_only_in_dark_mode() {
    let light = syntax_stylesheet(false).unwrap();
    let dark = syntax_stylesheet(true).unwrap();
    assert!(light.contains(".hl-code {"), "{light}");
    assert!(dark.contains("html.dark-mode .hl-code {"), "{dark}");
    let rules = dark.lines().filter(|l| l.ends_with('{')).collect::<Vec<_>>();
    assert!(!rules.is_empty());
    assert!(
        rules
            .iter()
            .all(|r| r.split(", ").all(|s| s.starts_with("html.dark-mode "))),
        "{dark}"
    );
}

#[test]
fn light_markup_keeps_line_breaks() {
    let r = render(
        "one\ntwo **bold**",
        &RenderOptions {
            lang: "en",
            default_language: "en",
            line_breaks: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(r.html.contains("one<br />"), "{}", r.html);
    assert!(r.html.contains("<strong>bold</strong>"));
}

#[test]
fn text_is_what_a_reader_sees() {
    let r = en("# Title\n\nSome *emphasis* and `code`.\n\n- item\n");
    assert!(r.text.contains("Title\nSome emphasis and code.\nitem"), "{:?}", r.text);
}
