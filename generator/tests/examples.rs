//! The worked examples of the valuation articles are arithmetic a reader may copy: every figure
//! kept under `example:` in a page's front matter is recomputed here, must appear in the prose of
//! every language exactly as formatted below, and must be the same in en, zh and ja.
//!
//! Each stated result is checked twice, both to half a unit of its last shown decimal: against
//! the exact computation from the inputs, and against the computation from the figures the page
//! shows one step earlier (what a reader with a calculator gets), so rounding cannot drift.

use generator::content::{parse_page, FrontMatter};
use generator::markdown::{render, RenderOptions};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::path::{Path, PathBuf};

const LANGS: [&str; 3] = ["en", "zh", "ja"];
const MODELS: [(&str, i64); 5] = [("pe", 1), ("ps", 2), ("pb", 3), ("dcf", 4), ("ddm", 5)];
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
/// Routes outside this section that the articles may link to: the investment-basics pages they
/// send a beginner to.
const OTHER_ROUTES: [&str; 4] = [
    "/investment-basics",
    "/investment-basics/what-is-investing",
    "/investment-basics/risk-and-reward",
    "/investment-basics/types-of-investments",
];

fn section_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/valuation-models")
}

struct Page {
    lang: &'static str,
    path: PathBuf,
    front: FrontMatter,
    /// The text a reader sees, so a `$` swallowed as math cannot pass for a dollar sign.
    text: String,
    heading_ids: Vec<String>,
    links: Vec<String>,
}

fn load(name: &str) -> Vec<Page> {
    LANGS
        .iter()
        .map(|&lang| {
            let path = section_dir().join(format!("{name}.{lang}.md"));
            let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let file = parse_page(&path, &source).unwrap_or_else(|e| panic!("{e:#}"));
            let rendered = render(
                &file.body,
                &RenderOptions {
                    lang,
                    default_language: "en",
                    line_breaks: false,
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
            Page {
                lang,
                path,
                front: file.front,
                text: rendered.text,
                heading_ids: rendered.heading_ids,
                links: rendered.links.into_iter().map(|(url, _)| url).collect(),
            }
        })
        .collect()
}

/// `1234.5` with 2 decimals -> `1,234.50`.
fn grouped(x: f64, decimals: usize) -> String {
    let fixed = format!("{:.*}", decimals, x.abs());
    let (int, frac) = fixed
        .split_once('.')
        .map_or((fixed.as_str(), None), |(i, f)| (i, Some(f)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(frac) = frac {
        out.push('.');
        out.push_str(frac);
    }
    if x < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

/// How a figure is printed on the pages.
#[derive(Clone, Copy)]
enum Shown {
    /// `$1,234.50`
    Dollars(usize),
    /// `1,234.50`: amounts in millions, whose unit is written out in words in each language.
    Amount(usize),
    /// `15.0`: multiples and discount factors, no grouping.
    Plain(usize),
    /// `6.27%`
    Percent(usize),
}

impl Shown {
    fn decimals(self) -> usize {
        match self {
            Shown::Dollars(d) | Shown::Amount(d) | Shown::Plain(d) => d,
            Shown::Percent(d) => d + 2,
        }
    }

    fn format(self, x: f64) -> String {
        match self {
            Shown::Dollars(d) => format!("${}", grouped(x, d)),
            Shown::Amount(d) => grouped(x, d),
            Shown::Plain(d) => format!("{:.*}", d, x),
            Shown::Percent(d) => format!("{:.*}%", d, x * 100.0),
        }
    }
}

/// The figures of one page: what must appear in its text, and every mismatch found.
#[derive(Default)]
struct Figures {
    shown: Vec<String>,
    errors: Vec<String>,
}

impl Figures {
    /// An input: printed as given, so it must not carry more precision than the page shows.
    fn input(&mut self, name: &str, value: f64, shown: Shown) {
        let text = shown.format(value);
        let printed: f64 = text
            .trim_start_matches('$')
            .trim_end_matches('%')
            .replace(',', "")
            .parse()
            .unwrap();
        let printed = if matches!(shown, Shown::Percent(_)) {
            printed / 100.0
        } else {
            printed
        };
        if (printed - value).abs() > 1e-9 {
            self.errors
                .push(format!("{name}: {value} would be shown rounded as {text}"));
        }
        self.shown.push(text);
    }

    /// A result: within half a unit of its last shown decimal of both the exact value and the
    /// value computed from the figures shown before it.
    fn result(&mut self, name: &str, stated: f64, exact: f64, from_shown: f64, shown: Shown) {
        let tolerance = 0.5 * 10f64.powi(-(shown.decimals() as i32)) + 1e-9;
        for (what, computed) in [("exact", exact), ("from the shown figures", from_shown)] {
            if (stated - computed).abs() > tolerance {
                self.errors.push(format!(
                    "{name}: the page states {stated} but {what} it is {computed:.6} ({})",
                    shown.format(computed)
                ));
            }
        }
        self.shown.push(shown.format(stated));
    }

    fn check(&mut self, claim: &str, holds: bool) {
        if !holds {
            self.errors
                .push(format!("the text's conclusion no longer holds: {claim}"));
        }
    }
}

fn parse<T: DeserializeOwned>(value: &serde_yaml::Value, what: &str) -> T {
    serde_yaml::from_value(value.clone()).unwrap_or_else(|e| panic!("example of {what}: {e}"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceEarnings {
    net_income: f64,
    shares: f64,
    eps: f64,
    price: f64,
    pe: f64,
    peer_pe: f64,
    implied_price: f64,
}

fn price_earnings(value: &serde_yaml::Value, f: &mut Figures) {
    let e: PriceEarnings = parse(value, "pe");
    f.input("net_income", e.net_income, Shown::Amount(0));
    f.input("price", e.price, Shown::Dollars(2));
    f.input("peer_pe", e.peer_pe, Shown::Plain(1));
    let eps = e.net_income / e.shares;
    f.result("eps", e.eps, eps, eps, Shown::Dollars(2));
    f.result("pe", e.pe, e.price / eps, e.price / e.eps, Shown::Plain(1));
    f.result(
        "implied_price",
        e.implied_price,
        e.peer_pe * eps,
        e.peer_pe * e.eps,
        Shown::Dollars(2),
    );
    f.check("the share trades below its peers' multiple", e.pe < e.peer_pe);
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceSales {
    price: f64,
    shares: f64,
    market_cap: f64,
    revenue: f64,
    sales_per_share: f64,
    ps: f64,
    peer_ps: f64,
    implied_price: f64,
}

fn price_sales(value: &serde_yaml::Value, f: &mut Figures) {
    let e: PriceSales = parse(value, "ps");
    f.input("price", e.price, Shown::Dollars(2));
    f.input("revenue", e.revenue, Shown::Amount(0));
    f.input("peer_ps", e.peer_ps, Shown::Plain(1));
    let market_cap = e.price * e.shares;
    f.result("market_cap", e.market_cap, market_cap, market_cap, Shown::Amount(0));
    f.result(
        "ps",
        e.ps,
        market_cap / e.revenue,
        e.market_cap / e.revenue,
        Shown::Plain(1),
    );
    let sales_per_share = e.revenue / e.shares;
    f.result(
        "sales_per_share",
        e.sales_per_share,
        sales_per_share,
        sales_per_share,
        Shown::Dollars(2),
    );
    f.result(
        "implied_price",
        e.implied_price,
        e.peer_ps * sales_per_share,
        e.peer_ps * e.sales_per_share,
        Shown::Dollars(2),
    );
    // The text calls the premium over peers "about 20%".
    f.check(
        "the premium over peers is about 20%",
        ((e.ps / e.peer_ps - 1.0) - 0.20).abs() < 0.005,
    );
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceBook {
    price: f64,
    total_assets: f64,
    total_liabilities: f64,
    book_value: f64,
    shares: f64,
    book_value_per_share: f64,
    pb: f64,
    buyback: Buyback,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Buyback {
    amount: f64,
    shares_retired: f64,
    book_value_after: f64,
    shares_after: f64,
    book_value_per_share_after: f64,
    pb_after: f64,
}

fn price_book(value: &serde_yaml::Value, f: &mut Figures) {
    let e: PriceBook = parse(value, "pb");
    let b = &e.buyback;
    f.input("price", e.price, Shown::Dollars(2));
    f.input("total_assets", e.total_assets, Shown::Amount(0));
    f.input("total_liabilities", e.total_liabilities, Shown::Amount(0));
    f.input("shares", e.shares, Shown::Amount(0));
    f.input("buyback.amount", b.amount, Shown::Amount(0));
    let book = e.total_assets - e.total_liabilities;
    f.result("book_value", e.book_value, book, book, Shown::Amount(0));
    let bvps = book / e.shares;
    f.result(
        "book_value_per_share",
        e.book_value_per_share,
        bvps,
        e.book_value / e.shares,
        Shown::Dollars(2),
    );
    f.result(
        "pb",
        e.pb,
        e.price / bvps,
        e.price / e.book_value_per_share,
        Shown::Plain(2),
    );

    let retired = b.amount / e.price;
    f.result(
        "buyback.shares_retired",
        b.shares_retired,
        retired,
        retired,
        Shown::Amount(0),
    );
    let shares_after = e.shares - retired;
    f.result(
        "buyback.shares_after",
        b.shares_after,
        shares_after,
        e.shares - b.shares_retired,
        Shown::Amount(0),
    );
    let book_after = book - b.amount;
    f.result(
        "buyback.book_value_after",
        b.book_value_after,
        book_after,
        e.book_value - b.amount,
        Shown::Amount(0),
    );
    let bvps_after = book_after / shares_after;
    f.result(
        "buyback.book_value_per_share_after",
        b.book_value_per_share_after,
        bvps_after,
        b.book_value_after / b.shares_after,
        Shown::Dollars(2),
    );
    f.result(
        "buyback.pb_after",
        b.pb_after,
        e.price / bvps_after,
        e.price / b.book_value_per_share_after,
        Shown::Plain(2),
    );
    f.check(
        "the buyback shrinks book value per share and raises P/B",
        b.pb_after > e.pb && bvps_after < bvps,
    );
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiscountedCashFlow {
    lottery: Lottery,
    company: Company,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Lottery {
    prize_now: f64,
    prize_later: f64,
    years: i32,
    rate: f64,
    present_value: f64,
    higher_rate: f64,
    present_value_at_higher_rate: f64,
    break_even_rate: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Company {
    cash_flows: Vec<f64>,
    discount_rate: f64,
    terminal_growth: f64,
    present_values: Vec<f64>,
    explicit_total: f64,
    terminal_value: f64,
    terminal_present_value: f64,
    enterprise_value: f64,
    net_debt: f64,
    equity_value: f64,
    shares: f64,
    value_per_share: f64,
}

fn discounted_cash_flow(value: &serde_yaml::Value, f: &mut Figures) {
    let e: DiscountedCashFlow = parse(value, "dcf");
    lottery(&e.lottery, f);
    company(&e.company, f);
}

/// The opening example: a prize now or a larger one later, at two discount rates.
fn lottery(l: &Lottery, f: &mut Figures) {
    f.input("lottery.prize_now", l.prize_now, Shown::Dollars(0));
    f.input("lottery.prize_later", l.prize_later, Shown::Dollars(0));
    f.input("lottery.rate", l.rate, Shown::Percent(0));
    f.input("lottery.higher_rate", l.higher_rate, Shown::Percent(0));
    let pv = l.prize_later / (1.0 + l.rate).powi(l.years);
    f.result("lottery.present_value", l.present_value, pv, pv, Shown::Dollars(2));
    let pv_high = l.prize_later / (1.0 + l.higher_rate).powi(l.years);
    f.result(
        "lottery.present_value_at_higher_rate",
        l.present_value_at_higher_rate,
        pv_high,
        pv_high,
        Shown::Dollars(2),
    );
    let break_even = (l.prize_later / l.prize_now).powf(1.0 / l.years as f64) - 1.0;
    f.result(
        "lottery.break_even_rate",
        l.break_even_rate,
        break_even,
        break_even,
        Shown::Percent(2),
    );
    f.check("waiting is worth more at the stated rate", pv > l.prize_now);
    f.check(
        "taking the prize now is better at the higher rate",
        pv_high < l.prize_now,
    );
}

/// The worked valuation: explicit cash flows, a terminal value, then equity per share.
fn company(c: &Company, f: &mut Figures) {
    let r = c.discount_rate;
    let n = c.cash_flows.len();
    assert!(
        n > 0 && c.present_values.len() == n,
        "dcf: one present value per cash flow"
    );
    assert!(
        c.terminal_growth < r,
        "dcf: terminal growth must be below the discount rate"
    );
    f.input("company.discount_rate", r, Shown::Percent(0));
    f.input("company.terminal_growth", c.terminal_growth, Shown::Percent(0));
    f.input("company.net_debt", c.net_debt, Shown::Amount(0));
    let mut explicit = 0.0;
    for (t, (cf, stated)) in c.cash_flows.iter().zip(&c.present_values).enumerate() {
        f.input(&format!("company.cash_flows[{t}]"), *cf, Shown::Amount(0));
        let pv = cf / (1.0 + r).powi(t as i32 + 1);
        f.result(
            &format!("company.present_values[{t}]"),
            *stated,
            pv,
            pv,
            Shown::Amount(2),
        );
        explicit += pv;
    }
    let shown_sum: f64 = c.present_values.iter().sum();
    f.result(
        "company.explicit_total",
        c.explicit_total,
        explicit,
        shown_sum,
        Shown::Amount(2),
    );
    let last = c.cash_flows[n - 1];
    let tv = last * (1.0 + c.terminal_growth) / (r - c.terminal_growth);
    f.result("company.terminal_value", c.terminal_value, tv, tv, Shown::Amount(2));
    let growth_factor = (1.0 + r).powi(n as i32);
    let tv_pv = tv / growth_factor;
    f.result(
        "company.terminal_present_value",
        c.terminal_present_value,
        tv_pv,
        c.terminal_value / growth_factor,
        Shown::Amount(2),
    );
    let ev = explicit + tv_pv;
    f.result(
        "company.enterprise_value",
        c.enterprise_value,
        ev,
        c.explicit_total + c.terminal_present_value,
        Shown::Amount(2),
    );
    let equity = ev - c.net_debt;
    f.result(
        "company.equity_value",
        c.equity_value,
        equity,
        c.enterprise_value - c.net_debt,
        Shown::Amount(2),
    );
    f.result(
        "company.value_per_share",
        c.value_per_share,
        equity / c.shares,
        c.equity_value / c.shares,
        Shown::Dollars(2),
    );
    // The text says the terminal value supplies about 71% of the enterprise value.
    f.check(
        "the terminal value is about 71% of the total",
        (tv_pv / ev - 0.71).abs() < 0.005,
    );
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DividendDiscount {
    gordon: Gordon,
    multi_stage: MultiStage,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Gordon {
    last_dividend: f64,
    growth: f64,
    required_return: f64,
    next_dividend: f64,
    price: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MultiStage {
    last_dividend: f64,
    high_growth: f64,
    high_growth_years: usize,
    stable_growth: f64,
    required_return: f64,
    dividends: Vec<f64>,
    present_values: Vec<f64>,
    dividends_present_value: f64,
    first_stable_dividend: f64,
    terminal_price: f64,
    terminal_present_value: f64,
    price: f64,
}

fn dividend_discount(value: &serde_yaml::Value, f: &mut Figures) {
    let e: DividendDiscount = parse(value, "ddm");
    gordon(&e.gordon, f);
    multi_stage(&e.multi_stage, f);
}

/// The Gordon growth model: one dividend growing for ever.
fn gordon(g: &Gordon, f: &mut Figures) {
    assert!(
        g.growth < g.required_return,
        "ddm: Gordon growth must be below the required return"
    );
    f.input("gordon.last_dividend", g.last_dividend, Shown::Dollars(2));
    f.input("gordon.growth", g.growth, Shown::Percent(0));
    f.input("gordon.required_return", g.required_return, Shown::Percent(0));
    let d1 = g.last_dividend * (1.0 + g.growth);
    f.result("gordon.next_dividend", g.next_dividend, d1, d1, Shown::Dollars(2));
    let spread = g.required_return - g.growth;
    f.result(
        "gordon.price",
        g.price,
        d1 / spread,
        g.next_dividend / spread,
        Shown::Dollars(2),
    );
    // The text says one point more growth lifts the value by about a quarter.
    let faster = g.last_dividend * (1.0 + g.growth + 0.01) / (spread - 0.01);
    f.check(
        "one point more growth lifts the value by about a quarter",
        (faster / (d1 / spread) - 1.25).abs() < 0.03,
    );
}

/// Each high-growth year's dividend and its present value; returns the last dividend and the
/// sum of present values, both exact.
fn high_growth_years(m: &MultiStage, f: &mut Figures) -> (f64, f64) {
    let r = m.required_return;
    let (mut exact_dividend, mut shown_dividend, mut exact_sum) = (m.last_dividend, m.last_dividend, 0.0);
    for t in 0..m.high_growth_years {
        let from_shown = shown_dividend * (1.0 + m.high_growth);
        exact_dividend *= 1.0 + m.high_growth;
        f.result(
            &format!("multi_stage.dividends[{t}]"),
            m.dividends[t],
            exact_dividend,
            from_shown,
            Shown::Dollars(2),
        );
        let factor = (1.0 + r).powi(t as i32 + 1);
        f.result(
            &format!("multi_stage.present_values[{t}]"),
            m.present_values[t],
            exact_dividend / factor,
            m.dividends[t] / factor,
            Shown::Dollars(2),
        );
        exact_sum += exact_dividend / factor;
        shown_dividend = m.dividends[t];
    }
    (exact_dividend, exact_sum)
}

/// Years of high growth, then stable growth priced as a terminal value.
fn multi_stage(m: &MultiStage, f: &mut Figures) {
    let r = m.required_return;
    let n = m.high_growth_years;
    assert!(
        m.stable_growth < r,
        "ddm: stable growth must be below the required return"
    );
    assert!(
        n > 0 && m.dividends.len() == n && m.present_values.len() == n,
        "ddm: one dividend and present value per high-growth year"
    );
    f.input("multi_stage.last_dividend", m.last_dividend, Shown::Dollars(2));
    f.input("multi_stage.high_growth", m.high_growth, Shown::Percent(0));
    f.input("multi_stage.stable_growth", m.stable_growth, Shown::Percent(0));
    f.input("multi_stage.required_return", r, Shown::Percent(0));
    let (exact_dividend, exact_sum) = high_growth_years(m, f);
    let shown_sum: f64 = m.present_values.iter().sum();
    f.result(
        "multi_stage.dividends_present_value",
        m.dividends_present_value,
        exact_sum,
        shown_sum,
        Shown::Dollars(2),
    );
    let next = exact_dividend * (1.0 + m.stable_growth);
    f.result(
        "multi_stage.first_stable_dividend",
        m.first_stable_dividend,
        next,
        m.dividends[n - 1] * (1.0 + m.stable_growth),
        Shown::Dollars(2),
    );
    let spread = r - m.stable_growth;
    let terminal = next / spread;
    f.result(
        "multi_stage.terminal_price",
        m.terminal_price,
        terminal,
        m.first_stable_dividend / spread,
        Shown::Dollars(2),
    );
    let factor = (1.0 + r).powi(n as i32);
    f.result(
        "multi_stage.terminal_present_value",
        m.terminal_present_value,
        terminal / factor,
        m.terminal_price / factor,
        Shown::Dollars(2),
    );
    let price = exact_sum + terminal / factor;
    f.result(
        "multi_stage.price",
        m.price,
        price,
        m.dividends_present_value + m.terminal_present_value,
        Shown::Dollars(2),
    );
    // The text says about 80% of the value comes after the high-growth years.
    f.check(
        "the stable stage is about 80% of the value",
        ((terminal / factor) / price - 0.80).abs() < 0.005,
    );
}

fn figures_of(model: &str, example: &serde_yaml::Value) -> Figures {
    let mut figures = Figures::default();
    match model {
        "pe" => price_earnings(example, &mut figures),
        "ps" => price_sales(example, &mut figures),
        "pb" => price_book(example, &mut figures),
        "dcf" => discounted_cash_flow(example, &mut figures),
        "ddm" => dividend_discount(example, &mut figures),
        other => panic!("no checks for model {other}"),
    }
    figures
}

#[test]
fn every_example_is_arithmetically_right_and_in_every_language() {
    let mut problems = Vec::new();
    for (model, _) in MODELS {
        let pages = load(model);
        let en = pages[0]
            .front
            .example
            .as_ref()
            .unwrap_or_else(|| panic!("{model}.en.md has no `example:`"));
        for page in &pages[1..] {
            if page.front.example.as_ref() != Some(en) {
                problems.push(format!(
                    "{}: `example:` differs from the English page",
                    page.path.display()
                ));
            }
        }
        let figures = figures_of(model, en);
        problems.extend(figures.errors.iter().map(|e| format!("{model}: {e}")));
        for page in &pages {
            for text in &figures.shown {
                if !page.text.contains(text.as_str()) {
                    problems.push(format!("{}: the text never shows `{text}`", page.path.display()));
                }
            }
        }
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
            if model == "dcf" || model == "ddm" {
                let mut required: Vec<&str> = ARTICLE_SECTIONS.to_vec();
                if model == "dcf" {
                    required.extend(["lottery-example", "discount-rate"]);
                }
                for id in &required {
                    assert!(
                        page.heading_ids.iter().any(|h| h == id),
                        "{}: no heading {{#{id}}}",
                        page.path.display()
                    );
                }
                let order: Vec<&String> = page
                    .heading_ids
                    .iter()
                    .filter(|h| ARTICLE_SECTIONS.contains(&h.as_str()))
                    .collect();
                assert_eq!(
                    order,
                    ARTICLE_SECTIONS,
                    "{}: sections out of order",
                    page.path.display()
                );
            }
        }
    }
}

/// CommonMark will not close `**` between CJK punctuation and a letter (`**注意。**下一句`); the
/// reader would see the asterisks.
#[test]
fn emphasis_is_closed_in_every_language() {
    for name in std::iter::once("_index").chain(MODELS.iter().map(|(m, _)| *m)) {
        for page in load(name) {
            for (number, line) in page.text.lines().enumerate() {
                assert!(
                    !line.contains("**"),
                    "{}: stray `**` in text line {}: {line}",
                    page.path.display(),
                    number + 1
                );
            }
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
    let mut f = Figures::default();
    f.result("x", 15.1, 15.0, 15.0, Shown::Plain(1));
    f.input("rate", 0.055, Shown::Percent(0));
    assert_eq!(f.errors.len(), 3, "{:?}", f.errors);
}
