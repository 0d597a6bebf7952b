//! The worked examples of the valuation articles are arithmetic a reader may copy: every figure
//! kept under `example:` in a page's front matter is recomputed here, must appear in the prose of
//! every language exactly as formatted below (amounts in millions may be counted in 億/萬 in zh
//! and ja), and must be the same in en, zh and ja.
//!
//! Each stated result is checked twice, both to half a unit of its last shown decimal: against
//! the exact computation from the inputs, and against the computation from the figures the page
//! shows one step earlier (what a reader with a calculator gets), so rounding cannot drift.

use figures::{content_dir, Figures, Page, Printed, Shown, FACTOR};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[path = "figures/mod.rs"]
mod figures;
#[path = "examples/margin_of_safety.rs"]
mod margin_of_safety;
#[path = "examples/reverse_dcf.rs"]
mod reverse_dcf;
#[path = "examples/roic.rs"]
mod roic;

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

impl Figures {
    /// A figure that repeats one from another article's example: it must be the same number.
    fn same(&mut self, name: &str, stated: f64, there: f64, shown: Shown) {
        if (stated - there).abs() > 1e-9 {
            self.errors.push(format!(
                "{name}: {stated} here but {there} in the article it comes from"
            ));
        }
        self.show(stated, shown);
    }

    /// A table of values for every pair of rate (rows) and growth (columns), each recomputed
    /// with `value(r, g)`; the row and column of the base case must give the base value.
    fn sensitivity(
        &mut self,
        name: &str,
        table: &Sensitivity,
        base: (f64, f64, f64),
        shown: Shown,
        value: impl Fn(f64, f64) -> f64,
    ) {
        assert_eq!(table.values.len(), table.rates.len(), "{name}: one row per rate");
        let (base_rate, base_growth, base_value) = base;
        let mut has_base = false;
        for (i, (&r, row)) in table.rates.iter().zip(&table.values).enumerate() {
            assert_eq!(row.len(), table.growths.len(), "{name}: one column per growth rate");
            self.input(&format!("{name}.rates[{i}]"), r, Shown::Percent(0));
            for (j, (&g, &stated)) in table.growths.iter().zip(row).enumerate() {
                assert!(g < r, "{name}: growth {g} must be below the rate {r}");
                let exact = value(r, g);
                self.result(&format!("{name}.values[{i}][{j}]"), stated, exact, exact, shown);
                if (r - base_rate).abs() < 1e-12 && (g - base_growth).abs() < 1e-12 {
                    has_base = true;
                    self.check(
                        &format!("{name}: the base case is in the table"),
                        (stated - base_value).abs() < 1e-9,
                    );
                }
                if j > 0 {
                    self.check(&format!("{name}: value rises with growth"), stated > row[j - 1]);
                }
                if i > 0 {
                    self.check(
                        &format!("{name}: value falls as the rate rises"),
                        stated < table.values[i - 1][j],
                    );
                }
            }
        }
        for (j, &g) in table.growths.iter().enumerate() {
            self.input(&format!("{name}.growths[{j}]"), g, Shown::Percent(0));
        }
        self.check(&format!("{name}: the table includes the base case"), has_base);
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Sensitivity {
    rates: Vec<f64>,
    growths: Vec<f64>,
    values: Vec<Vec<f64>>,
}

fn parse<T: DeserializeOwned>(value: &serde_yaml::Value, what: &str) -> T {
    serde_yaml::from_value(value.clone()).unwrap_or_else(|e| panic!("example of {what}: {e}"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceEarnings {
    net_income: f64,
    preferred_dividends: f64,
    shares: f64,
    eps: f64,
    price: f64,
    pe: f64,
    peer_pe: f64,
    implied_price: f64,
    justified: JustifiedPe,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JustifiedPe {
    payout: f64,
    roe: f64,
    growth: f64,
    required_return: f64,
    trailing_pe: f64,
    leading_pe: f64,
}

fn price_earnings(value: &serde_yaml::Value, f: &mut Figures) {
    let e: PriceEarnings = parse(value, "pe");
    f.input("net_income", e.net_income, Shown::Amount(0));
    f.input("preferred_dividends", e.preferred_dividends, Shown::Amount(0));
    f.input("shares", e.shares, Shown::Amount(0));
    f.input("price", e.price, Shown::Dollars(2));
    f.input("peer_pe", e.peer_pe, Shown::Plain(1));
    // Preferred dividends belong to the preferred shareholders, not to the common shares.
    let eps = (e.net_income - e.preferred_dividends) / e.shares;
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

    let j = &e.justified;
    f.input("justified.payout", j.payout, Shown::Percent(0));
    f.input("justified.roe", j.roe, Shown::Percent(0));
    f.input("justified.required_return", j.required_return, Shown::Percent(0));
    let g = (1.0 - j.payout) * j.roe;
    f.result("justified.growth", j.growth, g, g, Shown::Percent(0));
    let trailing = j.payout * (1.0 + g) / (j.required_return - g);
    f.result(
        "justified.trailing_pe",
        j.trailing_pe,
        trailing,
        j.payout * (1.0 + j.growth) / (j.required_return - j.growth),
        Shown::Plain(2),
    );
    let leading = j.payout / (j.required_return - g);
    f.result(
        "justified.leading_pe",
        j.leading_pe,
        leading,
        j.payout / (j.required_return - j.growth),
        Shown::Plain(2),
    );
    f.check(
        "the market's P/E is above what these fundamentals justify",
        trailing < e.pe,
    );
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
    justified: JustifiedPb,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JustifiedPb {
    roe: f64,
    payout: f64,
    growth: f64,
    required_return: f64,
    pb: f64,
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
    pb_buyback(&e, book, bvps, f);
    pb_justified(&e, f);
}

/// A buyback at the market price: fewer shares, less book value, and a higher P/B.
fn pb_buyback(e: &PriceBook, book: f64, bvps: f64, f: &mut Figures) {
    let b = &e.buyback;
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

/// The P/B that the company's ROE, payout and required return justify.
fn pb_justified(e: &PriceBook, f: &mut Figures) {
    let j = &e.justified;
    f.input("justified.roe", j.roe, Shown::Percent(0));
    f.input("justified.payout", j.payout, Shown::Percent(0));
    f.input("justified.required_return", j.required_return, Shown::Percent(0));
    let g = (1.0 - j.payout) * j.roe;
    f.result("justified.growth", j.growth, g, g, Shown::Percent(1));
    f.result(
        "justified.pb",
        j.pb,
        (j.roe - g) / (j.required_return - g),
        (j.roe - j.growth) / (j.required_return - j.growth),
        Shown::Plain(2),
    );
    f.check(
        "the justified P/B is close to what the market pays",
        (j.pb - e.pb).abs() < 0.05,
    );
    f.check(
        "ROE above the required return justifies a P/B above 1",
        (j.roe > j.required_return) == (j.pb > 1.0),
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
    discount_factors: Vec<f64>,
    present_values: Vec<f64>,
    explicit_total: f64,
    terminal_value: f64,
    terminal_present_value: f64,
    enterprise_value: f64,
    net_debt: f64,
    equity_value: f64,
    shares: f64,
    value_per_share: f64,
    mid_year: MidYear,
    sensitivity: Sensitivity,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MidYear {
    factor: f64,
    enterprise_value: f64,
    equity_value: f64,
    value_per_share: f64,
}

/// The discount factors of a table, each checked against 1/(1 + r)^t; returns the exact ones.
fn discount_factors(name: &str, stated: &[f64], rate: f64, f: &mut Figures) -> Vec<f64> {
    stated
        .iter()
        .enumerate()
        .map(|(t, &factor)| {
            let exact = 1.0 / (1.0 + rate).powi(t as i32 + 1);
            f.result(&format!("{name}[{t}]"), factor, exact, exact, FACTOR);
            exact
        })
        .collect()
}

/// The present value of the explicit forecast at rate `r`.
fn explicit_value(cash_flows: &[f64], r: f64) -> f64 {
    cash_flows
        .iter()
        .enumerate()
        .map(|(t, cf)| cf / (1.0 + r).powi(t as i32 + 1))
        .sum()
}

/// Company D's enterprise value for a discount rate and a terminal growth rate.
fn company_value(cash_flows: &[f64], r: f64, g: f64) -> f64 {
    let n = cash_flows.len() as i32;
    explicit_value(cash_flows, r) + cash_flows[cash_flows.len() - 1] * (1.0 + g) / (r - g) / (1.0 + r).powi(n)
}

fn discounted_cash_flow(value: &serde_yaml::Value, f: &mut Figures) {
    let e: DiscountedCashFlow = parse(value, "dcf");
    dcf_lottery(&e.lottery, f);
    let c = &e.company;
    let (factors, explicit) = dcf_explicit_forecast(c, f);
    let ev = dcf_terminal_and_equity(c, &factors, explicit, f);
    dcf_mid_year(c, ev, f);
    f.sensitivity(
        "company.sensitivity",
        &c.sensitivity,
        (c.discount_rate, c.terminal_growth, c.value_per_share),
        Shown::Dollars(2),
        |r, g| (company_value(&c.cash_flows, r, g) - c.net_debt) / c.shares,
    );
}

/// A prize now or a larger one later: its present value at two rates and the break-even rate.
fn dcf_lottery(l: &Lottery, f: &mut Figures) {
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

/// Company D's forecast years discounted one by one; returns the exact discount factors and the
/// exact present value of the forecast.
fn dcf_explicit_forecast(c: &Company, f: &mut Figures) -> (Vec<f64>, f64) {
    let r = c.discount_rate;
    let n = c.cash_flows.len();
    assert!(
        n > 0 && c.present_values.len() == n && c.discount_factors.len() == n,
        "dcf: one discount factor and present value per cash flow"
    );
    assert!(
        c.terminal_growth < r,
        "dcf: terminal growth must be below the discount rate"
    );
    f.input("company.discount_rate", r, Shown::Percent(0));
    f.input("company.terminal_growth", c.terminal_growth, Shown::Percent(0));
    f.input("company.net_debt", c.net_debt, Shown::Amount(0));
    let factors = discount_factors("company.discount_factors", &c.discount_factors, r, f);
    let mut explicit = 0.0;
    for (t, (cf, stated)) in c.cash_flows.iter().zip(&c.present_values).enumerate() {
        f.input(&format!("company.cash_flows[{t}]"), *cf, Shown::Amount(0));
        f.result(
            &format!("company.present_values[{t}]"),
            *stated,
            cf * factors[t],
            cf * c.discount_factors[t],
            Shown::Amount(2),
        );
        explicit += cf * factors[t];
    }
    let shown_sum: f64 = c.present_values.iter().sum();
    f.result(
        "company.explicit_total",
        c.explicit_total,
        explicit,
        shown_sum,
        Shown::Amount(2),
    );
    (factors, explicit)
}

/// The terminal value on top of the forecast, and the equity per share it leaves after net debt;
/// returns the exact enterprise value.
fn dcf_terminal_and_equity(c: &Company, factors: &[f64], explicit: f64, f: &mut Figures) -> f64 {
    let (r, n) = (c.discount_rate, c.cash_flows.len());
    let last = c.cash_flows[n - 1];
    let tv = last * (1.0 + c.terminal_growth) / (r - c.terminal_growth);
    f.result("company.terminal_value", c.terminal_value, tv, tv, Shown::Amount(2));
    let tv_pv = tv * factors[n - 1];
    f.result(
        "company.terminal_present_value",
        c.terminal_present_value,
        tv_pv,
        c.terminal_value * c.discount_factors[n - 1],
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
    ev
}

/// Cash arriving through the year is, on average, half a year earlier than year-end.
fn dcf_mid_year(c: &Company, ev: f64, f: &mut Figures) {
    let m = &c.mid_year;
    let half_year = (1.0 + c.discount_rate).sqrt();
    f.result("company.mid_year.factor", m.factor, half_year, half_year, FACTOR);
    let ev_mid = ev * half_year;
    f.result(
        "company.mid_year.enterprise_value",
        m.enterprise_value,
        ev_mid,
        c.enterprise_value * m.factor,
        Shown::Amount(2),
    );
    f.result(
        "company.mid_year.equity_value",
        m.equity_value,
        ev_mid - c.net_debt,
        m.enterprise_value - c.net_debt,
        Shown::Amount(2),
    );
    f.result(
        "company.mid_year.value_per_share",
        m.value_per_share,
        (ev_mid - c.net_debt) / c.shares,
        m.equity_value / c.shares,
        Shown::Dollars(2),
    );
}

/// Company D's example, which the WACC and EV/EBITDA articles continue.
fn company_d() -> Company {
    let pages = load("dcf");
    let example = pages[0].front.example.as_ref().expect("dcf.en.md has an example");
    parse::<DiscountedCashFlow>(example, "dcf").company
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CostOfCapital {
    risk_free: f64,
    equity_risk_premium: f64,
    unlevered_beta: f64,
    tax_rate: f64,
    share_price: f64,
    shares: f64,
    market_cap: f64,
    debt: f64,
    debt_to_equity: f64,
    beta: f64,
    cost_of_equity: f64,
    pre_tax_cost_of_debt: f64,
    after_tax_cost_of_debt: f64,
    equity_weight: f64,
    debt_weight: f64,
    wacc: f64,
}

fn cost_of_capital(value: &serde_yaml::Value, f: &mut Figures) {
    let e: CostOfCapital = parse(value, "wacc");
    let d = company_d();
    f.input("risk_free", e.risk_free, Shown::Percent(0));
    f.input("equity_risk_premium", e.equity_risk_premium, Shown::Percent(0));
    f.input("unlevered_beta", e.unlevered_beta, Shown::Plain(2));
    f.input("tax_rate", e.tax_rate, Shown::Percent(0));
    f.input("share_price", e.share_price, Shown::Dollars(2));
    f.input("pre_tax_cost_of_debt", e.pre_tax_cost_of_debt, Shown::Percent(0));
    f.same("shares", e.shares, d.shares, Shown::Amount(0));
    f.same("debt", e.debt, d.net_debt, Shown::Amount(0));
    let market_cap = e.share_price * e.shares;
    f.result("market_cap", e.market_cap, market_cap, market_cap, Shown::Amount(0));
    let de = e.debt / market_cap;
    f.result(
        "debt_to_equity",
        e.debt_to_equity,
        de,
        e.debt / e.market_cap,
        Shown::Plain(2),
    );
    // Hamada: the peers' business risk, levered up by this company's own debt.
    let beta = e.unlevered_beta * (1.0 + (1.0 - e.tax_rate) * de);
    f.result(
        "beta",
        e.beta,
        beta,
        e.unlevered_beta * (1.0 + (1.0 - e.tax_rate) * e.debt_to_equity),
        Shown::Plain(2),
    );
    let ke = e.risk_free + beta * e.equity_risk_premium;
    f.result(
        "cost_of_equity",
        e.cost_of_equity,
        ke,
        e.risk_free + e.beta * e.equity_risk_premium,
        Shown::Percent(1),
    );
    let kd = e.pre_tax_cost_of_debt * (1.0 - e.tax_rate);
    f.result(
        "after_tax_cost_of_debt",
        e.after_tax_cost_of_debt,
        kd,
        kd,
        Shown::Percent(1),
    );
    let total = market_cap + e.debt;
    f.result(
        "equity_weight",
        e.equity_weight,
        market_cap / total,
        e.market_cap / (e.market_cap + e.debt),
        Shown::Percent(0),
    );
    f.result(
        "debt_weight",
        e.debt_weight,
        e.debt / total,
        e.debt / (e.market_cap + e.debt),
        Shown::Percent(0),
    );
    let wacc = market_cap / total * ke + e.debt / total * kd;
    f.result(
        "wacc",
        e.wacc,
        wacc,
        e.equity_weight * e.cost_of_equity + e.debt_weight * e.after_tax_cost_of_debt,
        Shown::Percent(1),
    );
    f.check(
        "the WACC is the rate the DCF example discounts at",
        (e.wacc - d.discount_rate).abs() < 1e-9,
    );
    f.check("debt is cheaper than equity after tax", kd < ke);
    f.check(
        "the share trades below the DCF's value per share",
        e.share_price < d.value_per_share,
    );
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnterpriseMultiple {
    share_price: f64,
    basic_shares: f64,
    options: f64,
    strike: f64,
    shares_repurchased: f64,
    diluted_shares: f64,
    equity_value: f64,
    debt: f64,
    preferred: f64,
    minority_interest: f64,
    cash: f64,
    enterprise_value: f64,
    ebitda: f64,
    ev_ebitda: f64,
    revenue: f64,
    ev_sales: f64,
    peer_ev_ebitda: f64,
    implied_enterprise_value: f64,
    implied_equity_value: f64,
    implied_price: f64,
    exit: ExitMultiple,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExitMultiple {
    explicit_total: f64,
    discount_factor: f64,
    gordon_terminal_value: f64,
    ebitda: f64,
    multiple: f64,
    terminal_value: f64,
    terminal_present_value: f64,
    enterprise_value: f64,
    implied_growth: f64,
    gordon_multiple: f64,
}

fn enterprise_multiple(value: &serde_yaml::Value, f: &mut Figures) {
    let e: EnterpriseMultiple = parse(value, "ev-ebitda");
    f.input("share_price", e.share_price, Shown::Dollars(2));
    f.input("basic_shares", e.basic_shares, Shown::Amount(0));
    f.input("options", e.options, Shown::Amount(0));
    f.input("strike", e.strike, Shown::Dollars(2));
    f.input("debt", e.debt, Shown::Amount(0));
    f.input("preferred", e.preferred, Shown::Amount(0));
    f.input("minority_interest", e.minority_interest, Shown::Amount(0));
    f.input("cash", e.cash, Shown::Amount(0));
    f.input("ebitda", e.ebitda, Shown::Amount(0));
    f.input("revenue", e.revenue, Shown::Amount(0));
    f.input("peer_ev_ebitda", e.peer_ev_ebitda, Shown::Plain(1));
    let diluted = diluted_shares(&e, f);
    ev_and_multiples(&e, diluted, f);
    exit_multiple(&e.exit, f);
}

/// Treasury-stock method: the exercise money buys shares back at the market price. Returns the
/// exact diluted share count.
fn diluted_shares(e: &EnterpriseMultiple, f: &mut Figures) -> f64 {
    assert!(e.strike < e.share_price, "ev-ebitda: the options must be in the money");
    let repurchased = e.options * e.strike / e.share_price;
    f.result(
        "shares_repurchased",
        e.shares_repurchased,
        repurchased,
        repurchased,
        Shown::Amount(0),
    );
    let diluted = e.basic_shares + e.options - repurchased;
    f.result(
        "diluted_shares",
        e.diluted_shares,
        diluted,
        e.basic_shares + e.options - e.shares_repurchased,
        Shown::Amount(0),
    );
    diluted
}

/// Equity plus the other claims, the company's multiples, and the price its peers' multiple implies.
fn ev_and_multiples(e: &EnterpriseMultiple, diluted: f64, f: &mut Figures) {
    let equity = e.share_price * diluted;
    f.result(
        "equity_value",
        e.equity_value,
        equity,
        e.share_price * e.diluted_shares,
        Shown::Amount(0),
    );
    let claims = e.debt + e.preferred + e.minority_interest - e.cash;
    let ev = equity + claims;
    f.result(
        "enterprise_value",
        e.enterprise_value,
        ev,
        e.equity_value + claims,
        Shown::Amount(0),
    );
    f.result(
        "ev_ebitda",
        e.ev_ebitda,
        ev / e.ebitda,
        e.enterprise_value / e.ebitda,
        Shown::Plain(1),
    );
    f.result(
        "ev_sales",
        e.ev_sales,
        ev / e.revenue,
        e.enterprise_value / e.revenue,
        Shown::Plain(1),
    );
    let implied_ev = e.peer_ev_ebitda * e.ebitda;
    f.result(
        "implied_enterprise_value",
        e.implied_enterprise_value,
        implied_ev,
        implied_ev,
        Shown::Amount(0),
    );
    f.result(
        "implied_equity_value",
        e.implied_equity_value,
        implied_ev - claims,
        e.implied_enterprise_value - claims,
        Shown::Amount(0),
    );
    f.result(
        "implied_price",
        e.implied_price,
        (implied_ev - claims) / diluted,
        e.implied_equity_value / e.diluted_shares,
        Shown::Dollars(2),
    );
    f.check(
        "the company trades below its peers' multiple",
        e.ev_ebitda < e.peer_ev_ebitda,
    );
}

/// The exit multiple, applied to Company D of the DCF article.
fn exit_multiple(x: &ExitMultiple, f: &mut Figures) {
    let d = company_d();
    let n = d.cash_flows.len();
    let r = d.discount_rate;
    f.same(
        "exit.explicit_total",
        x.explicit_total,
        d.explicit_total,
        Shown::Amount(2),
    );
    f.same(
        "exit.discount_factor",
        x.discount_factor,
        d.discount_factors[n - 1],
        FACTOR,
    );
    f.same(
        "exit.gordon_terminal_value",
        x.gordon_terminal_value,
        d.terminal_value,
        Shown::Amount(2),
    );
    f.input("exit.ebitda", x.ebitda, Shown::Amount(0));
    f.input("exit.multiple", x.multiple, Shown::Plain(1));
    let tv = x.ebitda * x.multiple;
    f.result("exit.terminal_value", x.terminal_value, tv, tv, Shown::Amount(0));
    let factor = 1.0 / (1.0 + r).powi(n as i32);
    f.result(
        "exit.terminal_present_value",
        x.terminal_present_value,
        tv * factor,
        x.terminal_value * x.discount_factor,
        Shown::Amount(2),
    );
    let explicit = explicit_value(&d.cash_flows, r);
    f.result(
        "exit.enterprise_value",
        x.enterprise_value,
        explicit + tv * factor,
        x.explicit_total + x.terminal_present_value,
        Shown::Amount(2),
    );
    // The growth forever that makes the Gordon formula give the exit multiple's value.
    let last = d.cash_flows[n - 1];
    let growth = (tv * r - last) / (tv + last);
    f.result(
        "exit.implied_growth",
        x.implied_growth,
        growth,
        (x.terminal_value * r - last) / (x.terminal_value + last),
        Shown::Percent(2),
    );
    f.result(
        "exit.gordon_multiple",
        x.gordon_multiple,
        d.terminal_value / x.ebitda,
        x.gordon_terminal_value / x.ebitda,
        Shown::Plain(1),
    );
    f.check(
        "the exit multiple implies growth close to the DCF's terminal growth",
        (growth - d.terminal_growth).abs() < 0.001,
    );
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DividendDiscount {
    gordon: Gordon,
    justified: JustifiedMultiples,
    h_model: HModel,
    mid_year: GordonMidYear,
    sensitivity: Sensitivity,
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
struct JustifiedMultiples {
    eps: f64,
    roe: f64,
    payout: f64,
    retention: f64,
    growth: f64,
    next_eps: f64,
    book_value_per_share: f64,
    trailing_pe: f64,
    leading_pe: f64,
    pb: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HModel {
    initial_growth: f64,
    years: f64,
    half_life: f64,
    stable_value: f64,
    extra_value: f64,
    price: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GordonMidYear {
    factor: f64,
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
    discount_factors: Vec<f64>,
    present_values: Vec<f64>,
    dividends_present_value: f64,
    first_stable_dividend: f64,
    terminal_price: f64,
    terminal_present_value: f64,
    price: f64,
}

fn dividend_discount(value: &serde_yaml::Value, f: &mut Figures) {
    let e: DividendDiscount = parse(value, "ddm");
    let g = &e.gordon;
    let price = ddm_gordon(g, f);
    ddm_justified_multiples(&e.justified, g, price, f);
    ddm_h_model(&e.h_model, g, price, f);
    ddm_mid_year(&e.mid_year, g, price, f);
    f.sensitivity(
        "sensitivity",
        &e.sensitivity,
        (g.required_return, g.growth, g.price),
        Shown::Dollars(2),
        |r, growth| g.last_dividend * (1.0 + growth) / (r - growth),
    );
    let (factors, last_dividend, dividends_value) = ddm_high_growth(&e.multi_stage, f);
    ddm_stable_stage(&e.multi_stage, &factors, last_dividend, dividends_value, f);
}

/// Constant growth forever; returns the exact price.
fn ddm_gordon(g: &Gordon, f: &mut Figures) -> f64 {
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
    let price = d1 / spread;
    f.result(
        "gordon.price",
        g.price,
        price,
        g.next_dividend / spread,
        Shown::Dollars(2),
    );
    // The text says one point more growth lifts the value by about a quarter.
    let faster = g.last_dividend * (1.0 + g.growth + 0.01) / (spread - 0.01);
    f.check(
        "one point more growth lifts the value by about a quarter",
        (faster / price - 1.25).abs() < 0.03,
    );
    price
}

/// Justified multiples of the same company: its growth must be the sustainable b × ROE.
fn ddm_justified_multiples(j: &JustifiedMultiples, g: &Gordon, price: f64, f: &mut Figures) {
    let spread = g.required_return - g.growth;
    f.input("justified.eps", j.eps, Shown::Dollars(2));
    f.input("justified.roe", j.roe, Shown::Percent(0));
    let payout = g.last_dividend / j.eps;
    f.result(
        "justified.payout",
        j.payout,
        payout,
        g.last_dividend / j.eps,
        Shown::Percent(0),
    );
    f.result(
        "justified.retention",
        j.retention,
        1.0 - payout,
        1.0 - j.payout,
        Shown::Percent(0),
    );
    let sustainable = (1.0 - payout) * j.roe;
    f.result(
        "justified.growth",
        j.growth,
        sustainable,
        j.retention * j.roe,
        Shown::Percent(0),
    );
    f.check(
        "the Gordon example's growth is the sustainable growth",
        (j.growth - g.growth).abs() < 1e-9,
    );
    let next_eps = j.eps * (1.0 + g.growth);
    f.result("justified.next_eps", j.next_eps, next_eps, next_eps, Shown::Dollars(2));
    let bvps = next_eps / j.roe;
    f.result(
        "justified.book_value_per_share",
        j.book_value_per_share,
        bvps,
        j.next_eps / j.roe,
        Shown::Dollars(2),
    );
    let trailing = payout * (1.0 + g.growth) / spread;
    f.result(
        "justified.trailing_pe",
        j.trailing_pe,
        trailing,
        j.payout * (1.0 + j.growth) / spread,
        Shown::Plain(2),
    );
    f.result(
        "justified.leading_pe",
        j.leading_pe,
        payout / spread,
        j.payout / spread,
        Shown::Plain(2),
    );
    let pb = (j.roe - g.growth) / spread;
    f.result("justified.pb", j.pb, pb, (j.roe - j.growth) / spread, Shown::Plain(2));
    f.check(
        "the justified multiples give back the Gordon price",
        (trailing * j.eps - price).abs() < 1e-6 && (pb * bvps - price).abs() < 1e-6,
    );
}

/// H-model: growth fading in a straight line from the initial rate to the Gordon rate.
fn ddm_h_model(h: &HModel, g: &Gordon, price: f64, f: &mut Figures) {
    let spread = g.required_return - g.growth;
    f.input("h_model.initial_growth", h.initial_growth, Shown::Percent(0));
    f.input("h_model.years", h.years, Shown::Plain(0));
    f.result(
        "h_model.half_life",
        h.half_life,
        h.years / 2.0,
        h.years / 2.0,
        Shown::Plain(0),
    );
    f.same("h_model.stable_value", h.stable_value, g.price, Shown::Dollars(2));
    let extra = g.last_dividend * (h.years / 2.0) * (h.initial_growth - g.growth) / spread;
    f.result(
        "h_model.extra_value",
        h.extra_value,
        extra,
        g.last_dividend * h.half_life * (h.initial_growth - g.growth) / spread,
        Shown::Dollars(2),
    );
    f.result(
        "h_model.price",
        h.price,
        price + extra,
        h.stable_value + h.extra_value,
        Shown::Dollars(2),
    );
}

/// The Gordon price with dividends arriving mid-year on average.
fn ddm_mid_year(m: &GordonMidYear, g: &Gordon, price: f64, f: &mut Figures) {
    let half_year = (1.0 + g.required_return).sqrt();
    f.result("mid_year.factor", m.factor, half_year, half_year, FACTOR);
    f.result(
        "mid_year.price",
        m.price,
        price * half_year,
        g.price * m.factor,
        Shown::Dollars(2),
    );
}

/// The high-growth years of the multi-stage model, dividend by dividend; returns the exact
/// discount factors, the exact last high-growth dividend and the exact present value of them all.
fn ddm_high_growth(m: &MultiStage, f: &mut Figures) -> (Vec<f64>, f64, f64) {
    let r = m.required_return;
    let n = m.high_growth_years;
    assert!(
        m.stable_growth < r,
        "ddm: stable growth must be below the required return"
    );
    assert!(
        n > 0 && m.dividends.len() == n && m.present_values.len() == n && m.discount_factors.len() == n,
        "ddm: one dividend, discount factor and present value per high-growth year"
    );
    f.input("multi_stage.last_dividend", m.last_dividend, Shown::Dollars(2));
    f.input("multi_stage.high_growth", m.high_growth, Shown::Percent(0));
    f.input("multi_stage.stable_growth", m.stable_growth, Shown::Percent(0));
    f.input("multi_stage.required_return", r, Shown::Percent(0));
    let factors = discount_factors("multi_stage.discount_factors", &m.discount_factors, r, f);
    let (mut exact_dividend, mut shown_dividend, mut exact_sum) = (m.last_dividend, m.last_dividend, 0.0);
    for (t, &factor) in factors.iter().enumerate() {
        let from_shown = shown_dividend * (1.0 + m.high_growth);
        exact_dividend *= 1.0 + m.high_growth;
        f.result(
            &format!("multi_stage.dividends[{t}]"),
            m.dividends[t],
            exact_dividend,
            from_shown,
            Shown::Dollars(2),
        );
        f.result(
            &format!("multi_stage.present_values[{t}]"),
            m.present_values[t],
            exact_dividend * factor,
            m.dividends[t] * m.discount_factors[t],
            Shown::Dollars(2),
        );
        exact_sum += exact_dividend * factor;
        shown_dividend = m.dividends[t];
    }
    let shown_sum: f64 = m.present_values.iter().sum();
    f.result(
        "multi_stage.dividends_present_value",
        m.dividends_present_value,
        exact_sum,
        shown_sum,
        Shown::Dollars(2),
    );
    (factors, exact_dividend, exact_sum)
}

/// The stable stage after the high-growth years: a Gordon price at its start, discounted back.
fn ddm_stable_stage(m: &MultiStage, factors: &[f64], exact_dividend: f64, exact_sum: f64, f: &mut Figures) {
    let (r, n) = (m.required_return, m.high_growth_years);
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
    f.result(
        "multi_stage.terminal_present_value",
        m.terminal_present_value,
        terminal * factors[n - 1],
        m.terminal_price * m.discount_factors[n - 1],
        Shown::Dollars(2),
    );
    let price = exact_sum + terminal * factors[n - 1];
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
        ((terminal * factors[n - 1]) / price - 0.80).abs() < 0.005,
    );
}

/// The example of another article, parsed as that article's own checks parse it.
fn example_of<T: DeserializeOwned>(name: &str) -> T {
    let pages = load(name);
    let example = pages[0]
        .front
        .example
        .as_ref()
        .unwrap_or_else(|| panic!("{name}.en.md has no `example:`"));
    parse(example, name)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FullDilution {
    enterprise_value: f64,
    net_debt: f64,
    shares: f64,
    value_per_share: f64,
    share_price: f64,
    stock_pay: StockPay,
    leases: f64,
    pension: PensionDeficit,
    minority: MinorityAtMarket,
    equity_value: f64,
    basic_value_per_share: f64,
    options: EmployeeOptions,
    rsus: f64,
    diluted_shares: f64,
    diluted_value_per_share: f64,
    convertible: Convertible,
    decline: f64,
    price_premium: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StockPay {
    annual: f64,
    growth: f64,
    rate: f64,
    value: f64,
    per_share: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PensionDeficit {
    deficit: f64,
    tax_rate: f64,
    after_tax: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MinorityAtMarket {
    subsidiary_value: f64,
    stake: f64,
    book_value: f64,
    market_value: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EmployeeOptions {
    count: f64,
    strike: f64,
    proceeds: f64,
    repurchased: f64,
    added: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Convertible {
    face: f64,
    shares: f64,
    conversion_price: f64,
    equity_value: f64,
    diluted_shares: f64,
    value_per_share: f64,
}

/// Company D of the DCF article with illustrative claims added: from its enterprise value to a
/// fully diluted value per share.
fn full_dilution(value: &serde_yaml::Value, f: &mut Figures) {
    let e: FullDilution = parse(value, "dilution");
    let d = company_d();
    let w: CostOfCapital = example_of("wacc");
    f.same(
        "enterprise_value",
        e.enterprise_value,
        d.enterprise_value,
        Shown::Amount(2),
    );
    f.same("net_debt", e.net_debt, d.net_debt, Shown::Amount(0));
    f.same("shares", e.shares, d.shares, Shown::Amount(0));
    f.same(
        "value_per_share",
        e.value_per_share,
        d.value_per_share,
        Shown::Dollars(2),
    );
    f.same("share_price", e.share_price, w.share_price, Shown::Dollars(2));
    dilution_stock_pay(&e, &d, f);
    let equity = dilution_debt_like(&e, &w, f);
    let (diluted, diluted_value) = dilution_options_rsus(&e, equity, f);
    dilution_convertible(&e, equity, diluted, diluted_value, f);
}

/// Stock pay added back to a cash flow that grows with the business: the value it adds is a
/// growing perpetuity of a cost the shareholders do bear.
fn dilution_stock_pay(e: &FullDilution, d: &Company, f: &mut Figures) {
    let s = &e.stock_pay;
    f.input("stock_pay.annual", s.annual, Shown::Amount(0));
    f.same("stock_pay.growth", s.growth, d.terminal_growth, Shown::Percent(0));
    f.same("stock_pay.rate", s.rate, d.discount_rate, Shown::Percent(0));
    let overstated = s.annual / (s.rate - s.growth);
    f.result("stock_pay.value", s.value, overstated, overstated, Shown::Amount(0));
    f.result(
        "stock_pay.per_share",
        s.per_share,
        overstated / e.shares,
        s.value / e.shares,
        Shown::Dollars(2),
    );
    f.check(
        "the stock pay added back is about a tenth of the value per share",
        (s.per_share / e.value_per_share - 0.10).abs() < 0.005,
    );
}

/// The debt-like claims between enterprise value and equity value; returns the exact equity value.
fn dilution_debt_like(e: &FullDilution, w: &CostOfCapital, f: &mut Figures) -> f64 {
    let (p, m) = (&e.pension, &e.minority);
    f.input("leases", e.leases, Shown::Amount(0));
    f.input("pension.deficit", p.deficit, Shown::Amount(0));
    f.same("pension.tax_rate", p.tax_rate, w.tax_rate, Shown::Percent(0));
    // Contributions that close the deficit are tax-deductible, so the claim is the deficit after tax.
    let pension = p.deficit * (1.0 - p.tax_rate);
    f.result("pension.after_tax", p.after_tax, pension, pension, Shown::Amount(0));
    f.input("minority.subsidiary_value", m.subsidiary_value, Shown::Amount(0));
    f.input("minority.stake", m.stake, Shown::Percent(0));
    f.input("minority.book_value", m.book_value, Shown::Amount(0));
    let minority = m.subsidiary_value * m.stake;
    f.result(
        "minority.market_value",
        m.market_value,
        minority,
        minority,
        Shown::Amount(0),
    );
    f.check(
        "the outside owners' stake is worth more than its book value",
        minority > m.book_value,
    );
    let equity = e.enterprise_value - e.net_debt - e.leases - pension - minority;
    f.result(
        "equity_value",
        e.equity_value,
        equity,
        e.enterprise_value - e.net_debt - e.leases - p.after_tax - m.market_value,
        Shown::Amount(2),
    );
    f.result(
        "basic_value_per_share",
        e.basic_value_per_share,
        equity / e.shares,
        e.equity_value / e.shares,
        Shown::Dollars(2),
    );
    equity
}

/// Options by the treasury-stock method at the market price, RSUs in full; returns the exact
/// diluted share count and value per share.
fn dilution_options_rsus(e: &FullDilution, equity: f64, f: &mut Figures) -> (f64, f64) {
    let o = &e.options;
    f.input("options.count", o.count, Shown::Amount(0));
    f.input("options.strike", o.strike, Shown::Dollars(2));
    f.input("rsus", e.rsus, Shown::Amount(1));
    assert!(o.strike < e.share_price, "dilution: the options must be in the money");
    let proceeds = o.count * o.strike;
    f.result("options.proceeds", o.proceeds, proceeds, proceeds, Shown::Amount(0));
    let repurchased = proceeds / e.share_price;
    f.result(
        "options.repurchased",
        o.repurchased,
        repurchased,
        o.proceeds / e.share_price,
        Shown::Amount(0),
    );
    f.result(
        "options.added",
        o.added,
        o.count - repurchased,
        o.count - o.repurchased,
        Shown::Amount(0),
    );
    let diluted = e.shares + o.count - repurchased + e.rsus;
    f.result(
        "diluted_shares",
        e.diluted_shares,
        diluted,
        e.shares + o.added + e.rsus,
        Shown::Amount(1),
    );
    let value = equity / diluted;
    f.result(
        "diluted_value_per_share",
        e.diluted_value_per_share,
        value,
        e.equity_value / e.diluted_shares,
        Shown::Dollars(2),
    );
    (diluted, value)
}

/// If-converted: the bond leaves the debt and its shares join the count; the lower value per
/// share is the one to keep, and it is lower exactly when the holders would convert.
fn dilution_convertible(e: &FullDilution, equity: f64, diluted: f64, diluted_value: f64, f: &mut Figures) {
    let c = &e.convertible;
    f.input("convertible.face", c.face, Shown::Amount(0));
    f.input("convertible.shares", c.shares, Shown::Amount(0));
    let conversion_price = c.face / c.shares;
    f.result(
        "convertible.conversion_price",
        c.conversion_price,
        conversion_price,
        conversion_price,
        Shown::Dollars(2),
    );
    let equity_converted = equity + c.face;
    f.result(
        "convertible.equity_value",
        c.equity_value,
        equity_converted,
        e.equity_value + c.face,
        Shown::Amount(2),
    );
    let shares_converted = diluted + c.shares;
    f.result(
        "convertible.diluted_shares",
        c.diluted_shares,
        shares_converted,
        e.diluted_shares + c.shares,
        Shown::Amount(1),
    );
    let value = equity_converted / shares_converted;
    f.result(
        "convertible.value_per_share",
        c.value_per_share,
        value,
        c.equity_value / c.diluted_shares,
        Shown::Dollars(2),
    );
    f.check(
        "the holders convert: the value per share is above the conversion price",
        value > conversion_price,
    );
    f.check(
        "conversion dilutes: the if-converted value is below the value with the bond as debt",
        value < diluted_value,
    );
    f.result(
        "decline",
        e.decline,
        1.0 - value / e.value_per_share,
        1.0 - c.value_per_share / e.value_per_share,
        Shown::Percent(0),
    );
    f.result(
        "price_premium",
        e.price_premium,
        e.share_price / value - 1.0,
        e.share_price / c.value_per_share - 1.0,
        Shown::Percent(1),
    );
    f.check(
        "the price below the DCF's value is above the fully diluted value",
        e.share_price < e.value_per_share && e.share_price > value,
    );
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResidualIncome {
    single: SingleStageResidualIncome,
    forecast: ResidualIncomeForecast,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SingleStageResidualIncome {
    book_value_per_share: f64,
    roe: f64,
    required_return: f64,
    payout: f64,
    growth: f64,
    residual_value: f64,
    value: f64,
    pb: f64,
    next_dividend: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResidualIncomeForecast {
    book_value: f64,
    shares: f64,
    price: f64,
    roes: Vec<f64>,
    net_incomes: Vec<f64>,
    dividends: Vec<f64>,
    closing_book_values: Vec<f64>,
    equity_charges: Vec<f64>,
    residual_incomes: Vec<f64>,
    divisors: Vec<f64>,
    present_values: Vec<f64>,
    residual_present_value: f64,
    terminal_value: f64,
    terminal_present_value: f64,
    value: f64,
    value_per_share: f64,
    pb: f64,
    shortfall: f64,
    dividend_present_values: Vec<f64>,
    dividends_present_value: f64,
    next_dividend: f64,
    terminal_price: f64,
    terminal_pb: f64,
    terminal_price_present_value: f64,
    ddm_value: f64,
    terminal_price_share: f64,
}

/// Bank C of the P/B article valued from its book value and the income it earns above the
/// shareholders' required return, first at a steady ROE, then with three weaker years.
fn residual_income(value: &serde_yaml::Value, f: &mut Figures) {
    let e: ResidualIncome = parse(value, "residual-income");
    let bank: PriceBook = example_of("pb");
    let s = &e.single;
    let j = &bank.justified;
    f.same(
        "single.book_value_per_share",
        s.book_value_per_share,
        bank.book_value_per_share,
        Shown::Dollars(2),
    );
    f.same("single.roe", s.roe, j.roe, Shown::Percent(0));
    f.same(
        "single.required_return",
        s.required_return,
        j.required_return,
        Shown::Percent(0),
    );
    f.same("single.payout", s.payout, j.payout, Shown::Percent(0));
    let (r, b) = (s.required_return, s.book_value_per_share);
    let g = (1.0 - s.payout) * s.roe;
    f.result(
        "single.growth",
        s.growth,
        g,
        (1.0 - s.payout) * s.roe,
        Shown::Percent(1),
    );
    let residual = (s.roe - r) * b / (r - g);
    f.result(
        "single.residual_value",
        s.residual_value,
        residual,
        (s.roe - r) * b / (r - s.growth),
        Shown::Dollars(2),
    );
    f.result(
        "single.value",
        s.value,
        b + residual,
        b + s.residual_value,
        Shown::Dollars(2),
    );
    f.result("single.pb", s.pb, (b + residual) / b, s.value / b, Shown::Plain(2));
    f.check(
        "the single-stage P/B is the P/B article's justified P/B",
        (s.pb - j.pb).abs() < 1e-9,
    );
    // With clean surplus the Gordon price of the dividends is the same number.
    let next = s.payout * s.roe * b;
    f.result("single.next_dividend", s.next_dividend, next, next, Shown::Dollars(2));
    let gordon = next / (r - g);
    f.check(
        "the single-stage value is the Gordon value of the dividends",
        (gordon - (b + residual)).abs() < 1e-9,
    );
    let forecast = residual_income_forecast(&e.forecast, s, &bank, f);
    residual_income_as_dividends(&e.forecast, s, forecast, f);
}

/// The forecast years and the terminal value; returns the exact closing book value of the last
/// year and the exact value of the equity.
fn residual_income_forecast(
    c: &ResidualIncomeForecast,
    s: &SingleStageResidualIncome,
    bank: &PriceBook,
    f: &mut Figures,
) -> (f64, f64) {
    let n = c.roes.len();
    assert!(
        n > 0
            && [&c.net_incomes, &c.dividends, &c.closing_book_values, &c.equity_charges]
                .iter()
                .chain(
                    [
                        &c.residual_incomes,
                        &c.divisors,
                        &c.present_values,
                        &c.dividend_present_values
                    ]
                    .iter()
                )
                .all(|column| column.len() == n),
        "residual-income: one figure per forecast year in every column"
    );
    f.same("forecast.book_value", c.book_value, bank.book_value, Shown::Amount(0));
    f.same("forecast.shares", c.shares, bank.shares, Shown::Amount(0));
    f.same("forecast.price", c.price, bank.price, Shown::Dollars(2));
    let (mut book, mut shown_book, mut exact_sum) = (c.book_value, c.book_value, 0.0);
    for t in 0..n {
        let (closing, present_value) = residual_income_year(c, s, t, (book, shown_book), f);
        exact_sum += present_value;
        book = closing;
        shown_book = c.closing_book_values[t];
    }
    let shown_sum: f64 = c.present_values.iter().sum();
    f.result(
        "forecast.residual_present_value",
        c.residual_present_value,
        exact_sum,
        shown_sum,
        Shown::Amount(2),
    );
    let value = residual_income_terminal(c, s, book, exact_sum, f);
    (book, value)
}

/// One forecast year: income on the opening book value, the dividend, the equity charge and the
/// residual income; returns the exact closing book value and present value of the residual income.
fn residual_income_year(
    c: &ResidualIncomeForecast,
    s: &SingleStageResidualIncome,
    t: usize,
    (book, shown_book): (f64, f64),
    f: &mut Figures,
) -> (f64, f64) {
    let (r, payout, roe) = (s.required_return, s.payout, c.roes[t]);
    f.input(&format!("forecast.roes[{t}]"), roe, Shown::Percent(0));
    let divisor = (1.0 + r).powi(t as i32 + 1);
    f.result(
        &format!("forecast.divisors[{t}]"),
        c.divisors[t],
        divisor,
        divisor,
        Shown::Plain(t + 1),
    );
    let income = roe * book;
    f.result(
        &format!("forecast.net_incomes[{t}]"),
        c.net_incomes[t],
        income,
        roe * shown_book,
        Shown::Amount(2),
    );
    let dividend = payout * income;
    f.result(
        &format!("forecast.dividends[{t}]"),
        c.dividends[t],
        dividend,
        payout * c.net_incomes[t],
        Shown::Amount(2),
    );
    let charge = r * book;
    f.result(
        &format!("forecast.equity_charges[{t}]"),
        c.equity_charges[t],
        charge,
        r * shown_book,
        Shown::Amount(2),
    );
    let residual = income - charge;
    f.result(
        &format!("forecast.residual_incomes[{t}]"),
        c.residual_incomes[t],
        residual,
        c.net_incomes[t] - c.equity_charges[t],
        Shown::Amount(2),
    );
    f.check(
        "residual income is negative exactly when ROE is below the required return",
        (residual < -1e-9) == (roe < r),
    );
    f.result(
        &format!("forecast.present_values[{t}]"),
        c.present_values[t],
        residual / divisor,
        c.residual_incomes[t] / c.divisors[t],
        Shown::Amount(2),
    );
    // Clean surplus: book value changes only by income kept, not by anything bypassing income.
    let closing = book + income - dividend;
    f.result(
        &format!("forecast.closing_book_values[{t}]"),
        c.closing_book_values[t],
        closing,
        shown_book + c.net_incomes[t] - c.dividends[t],
        Shown::Amount(2),
    );
    (closing, residual / divisor)
}

/// From the last forecast year on, Bank C earns its steady ROE and grows at b × ROE; returns the
/// exact value of the equity.
fn residual_income_terminal(
    c: &ResidualIncomeForecast,
    s: &SingleStageResidualIncome,
    book: f64,
    exact_sum: f64,
    f: &mut Figures,
) -> f64 {
    let (r, n) = (s.required_return, c.roes.len());
    let g = (1.0 - s.payout) * s.roe;
    let last_book = c.closing_book_values[n - 1];
    let last_divisor = (1.0 + r).powi(n as i32);
    let terminal = (s.roe - r) * book / (r - g);
    f.result(
        "forecast.terminal_value",
        c.terminal_value,
        terminal,
        (s.roe - r) * last_book / (r - s.growth),
        Shown::Amount(2),
    );
    f.result(
        "forecast.terminal_present_value",
        c.terminal_present_value,
        terminal / last_divisor,
        c.terminal_value / c.divisors[n - 1],
        Shown::Amount(2),
    );
    let value = c.book_value + exact_sum + terminal / last_divisor;
    f.result(
        "forecast.value",
        c.value,
        value,
        c.book_value + c.residual_present_value + c.terminal_present_value,
        Shown::Amount(2),
    );
    f.result(
        "forecast.value_per_share",
        c.value_per_share,
        value / c.shares,
        c.value / c.shares,
        Shown::Dollars(2),
    );
    f.result(
        "forecast.pb",
        c.pb,
        value / c.book_value,
        c.value / c.book_value,
        Shown::Plain(2),
    );
    f.result(
        "forecast.shortfall",
        c.shortfall,
        s.value - value / c.shares,
        s.value - c.value_per_share,
        Shown::Dollars(2),
    );
    f.check(
        "the weak years leave the value below the single-stage value",
        value / c.shares < s.value,
    );
    f.check("the market price is above the value", c.price > value / c.shares);
    value
}

/// The present value of the forecast years' dividends, rebuilt from the ROEs and clean surplus;
/// returns the exact sum.
fn forecast_dividends_value(c: &ResidualIncomeForecast, s: &SingleStageResidualIncome, f: &mut Figures) -> f64 {
    let r = s.required_return;
    let mut exact_sum = 0.0;
    let mut book_t = c.book_value;
    for t in 0..c.roes.len() {
        let dividend = s.payout * c.roes[t] * book_t;
        let divisor = (1.0 + r).powi(t as i32 + 1);
        f.result(
            &format!("forecast.dividend_present_values[{t}]"),
            c.dividend_present_values[t],
            dividend / divisor,
            c.dividends[t] / c.divisors[t],
            Shown::Amount(2),
        );
        exact_sum += dividend / divisor;
        book_t += c.roes[t] * book_t - dividend;
    }
    let shown_sum: f64 = c.dividend_present_values.iter().sum();
    f.result(
        "forecast.dividends_present_value",
        c.dividends_present_value,
        exact_sum,
        shown_sum,
        Shown::Amount(2),
    );
    exact_sum
}

/// The same forecast valued by its dividends (the DDM): with clean surplus it gives the same value.
fn residual_income_as_dividends(
    c: &ResidualIncomeForecast,
    s: &SingleStageResidualIncome,
    (book, value): (f64, f64),
    f: &mut Figures,
) {
    let (r, n) = (s.required_return, c.roes.len());
    let g = (1.0 - s.payout) * s.roe;
    let exact_sum = forecast_dividends_value(c, s, f);
    let last_book = c.closing_book_values[n - 1];
    let next = s.payout * s.roe * book;
    f.result(
        "forecast.next_dividend",
        c.next_dividend,
        next,
        s.payout * s.roe * last_book,
        Shown::Amount(2),
    );
    // From the book value rather than the rounded dividend: dividing by r − g would magnify its rounding.
    let price = next / (r - g);
    f.result(
        "forecast.terminal_price",
        c.terminal_price,
        price,
        s.payout * s.roe * last_book / (r - s.growth),
        Shown::Amount(2),
    );
    f.result(
        "forecast.terminal_pb",
        c.terminal_pb,
        price / book,
        c.terminal_price / last_book,
        Shown::Plain(2),
    );
    f.check(
        "the terminal price is book value times the justified P/B",
        (c.terminal_pb - s.pb).abs() < 1e-9,
    );
    let last_divisor = (1.0 + r).powi(n as i32);
    f.result(
        "forecast.terminal_price_present_value",
        c.terminal_price_present_value,
        price / last_divisor,
        c.terminal_price / c.divisors[n - 1],
        Shown::Amount(2),
    );
    let ddm = exact_sum + price / last_divisor;
    f.result(
        "forecast.ddm_value",
        c.ddm_value,
        ddm,
        c.dividends_present_value + c.terminal_price_present_value,
        Shown::Amount(2),
    );
    f.result(
        "forecast.terminal_price_share",
        c.terminal_price_share,
        price / last_divisor / ddm,
        c.terminal_price_present_value / c.ddm_value,
        Shown::Percent(0),
    );
    f.check(
        "the dividends give the same value as residual income",
        (ddm - value).abs() < 1e-6 && c.ddm_value == c.value,
    );
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarketInputs {
    risk_free: f64,
    equity_risk_premium: f64,
    peers: Vec<Peer>,
    industry_unlevered_beta: f64,
    net_debt: f64,
    market_cap: f64,
    debt_to_equity: f64,
    tax_rate: f64,
    beta: f64,
    cost_of_equity: f64,
    regression: RegressionBeta,
    history: HistoricalPremium,
    implied: ImpliedPremium,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Peer {
    levered_beta: f64,
    debt_to_equity: f64,
    tax_rate: f64,
    factor: f64,
    unlevered_beta: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegressionBeta {
    beta: f64,
    standard_error: f64,
    low: f64,
    high: f64,
    cost_of_equity: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HistoricalPremium {
    volatility: f64,
    years: f64,
    standard_error: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImpliedPremium {
    cash_yield: f64,
    growth: f64,
    expected_return: f64,
    premium: f64,
}

/// The WACC article's example, whose market inputs the guide to them explains.
fn wacc_example() -> CostOfCapital {
    let pages = load("wacc");
    parse(
        pages[0].front.example.as_ref().expect("wacc.en.md has an example"),
        "wacc",
    )
}

/// "Where the numbers come from": the industry beta of Company D's peers, unlevered and
/// relevered into the WACC article's beta, against a regression beta; and two estimates of the
/// equity risk premium.
fn market_inputs(value: &serde_yaml::Value, f: &mut Figures) {
    let e: MarketInputs = parse(value, "where-the-numbers-come-from");
    let w = wacc_example();
    f.same("risk_free", e.risk_free, w.risk_free, Shown::Percent(0));
    f.same(
        "equity_risk_premium",
        e.equity_risk_premium,
        w.equity_risk_premium,
        Shown::Percent(0),
    );
    let (exact, from_shown) = peers_unlevered(&e.peers, f);
    f.result(
        "industry_unlevered_beta",
        e.industry_unlevered_beta,
        exact,
        from_shown,
        Shown::Plain(2),
    );
    f.same(
        "industry_unlevered_beta (wacc)",
        e.industry_unlevered_beta,
        w.unlevered_beta,
        Shown::Plain(2),
    );
    f.same("net_debt", e.net_debt, w.debt, Shown::Amount(0));
    f.same("market_cap", e.market_cap, w.market_cap, Shown::Amount(0));
    f.same("debt_to_equity", e.debt_to_equity, w.debt_to_equity, Shown::Plain(2));
    f.same("tax_rate", e.tax_rate, w.tax_rate, Shown::Percent(0));
    let relever = |beta_u: f64| beta_u * (1.0 + (1.0 - e.tax_rate) * e.net_debt / e.market_cap);
    f.result(
        "beta",
        e.beta,
        relever(exact),
        relever(e.industry_unlevered_beta),
        Shown::Plain(2),
    );
    f.same("beta (wacc)", e.beta, w.beta, Shown::Plain(2));
    let ke = e.risk_free + e.beta * e.equity_risk_premium;
    f.result("cost_of_equity", e.cost_of_equity, ke, ke, Shown::Percent(1));
    f.same(
        "cost_of_equity (wacc)",
        e.cost_of_equity,
        w.cost_of_equity,
        Shown::Percent(1),
    );
    regression_beta(&e, f);
    equity_risk_premium(&e, f);
}

/// Each peer's beta without its debt; returns the industry average, exact and from the shown
/// unlevered betas.
fn peers_unlevered(peers: &[Peer], f: &mut Figures) -> (f64, f64) {
    let mut exact = Vec::new();
    for (i, p) in peers.iter().enumerate() {
        f.input(&format!("peers[{i}].levered_beta"), p.levered_beta, Shown::Plain(2));
        f.input(&format!("peers[{i}].debt_to_equity"), p.debt_to_equity, Shown::Plain(2));
        f.input(&format!("peers[{i}].tax_rate"), p.tax_rate, Shown::Percent(0));
        let factor = 1.0 + (1.0 - p.tax_rate) * p.debt_to_equity;
        f.result(&format!("peers[{i}].factor"), p.factor, factor, factor, Shown::Plain(2));
        let beta_u = p.levered_beta / factor;
        f.result(
            &format!("peers[{i}].unlevered_beta"),
            p.unlevered_beta,
            beta_u,
            p.levered_beta / p.factor,
            Shown::Plain(2),
        );
        exact.push(beta_u);
    }
    let n = peers.len() as f64;
    f.check("the peers' debt explains most of their spread", {
        let spread =
            |xs: Vec<f64>| xs.iter().cloned().fold(f64::MIN, f64::max) - xs.iter().cloned().fold(f64::MAX, f64::min);
        spread(exact.clone()) < spread(peers.iter().map(|p| p.levered_beta).collect())
    });
    (
        exact.iter().sum::<f64>() / n,
        peers.iter().map(|p| p.unlevered_beta).sum::<f64>() / n,
    )
}

fn regression_beta(e: &MarketInputs, f: &mut Figures) {
    let r = &e.regression;
    f.input("regression.beta", r.beta, Shown::Plain(2));
    f.input("regression.standard_error", r.standard_error, Shown::Plain(2));
    let (low, high) = (r.beta - 2.0 * r.standard_error, r.beta + 2.0 * r.standard_error);
    f.result("regression.low", r.low, low, low, Shown::Plain(2));
    f.result("regression.high", r.high, high, high, Shown::Plain(2));
    f.check(
        "the industry beta lies inside the regression's range",
        r.low <= e.beta && e.beta <= r.high,
    );
    let ke = e.risk_free + r.beta * e.equity_risk_premium;
    f.result("regression.cost_of_equity", r.cost_of_equity, ke, ke, Shown::Percent(1));
    f.check(
        "the regression beta gives a cost of equity two points lower",
        ((e.cost_of_equity - r.cost_of_equity) - 0.02).abs() < 1e-9,
    );
}

fn equity_risk_premium(e: &MarketInputs, f: &mut Figures) {
    let h = &e.history;
    f.input("history.volatility", h.volatility, Shown::Percent(0));
    f.input("history.years", h.years, Shown::Plain(0));
    let se = h.volatility / h.years.sqrt();
    f.result("history.standard_error", h.standard_error, se, se, Shown::Percent(2));
    f.check(
        "the standard error is more than half the premium",
        h.standard_error > e.equity_risk_premium / 2.0,
    );
    let i = &e.implied;
    f.input("implied.cash_yield", i.cash_yield, Shown::Percent(0));
    f.input("implied.growth", i.growth, Shown::Percent(0));
    // Gordon solved for the return: next year's cash yield plus its growth.
    let expected = i.cash_yield * (1.0 + i.growth) + i.growth;
    f.result(
        "implied.expected_return",
        i.expected_return,
        expected,
        expected,
        Shown::Percent(2),
    );
    f.show(i.cash_yield * (1.0 + i.growth), Shown::Percent(2));
    f.result(
        "implied.premium",
        i.premium,
        expected - e.risk_free,
        i.expected_return - e.risk_free,
        Shown::Percent(2),
    );
    f.check(
        "the implied premium lies within the WACC article's 4% to 6%",
        (0.04..=0.06).contains(&i.premium),
    );
}

fn figures_of(model: &str, example: &serde_yaml::Value) -> Figures {
    let mut figures = Figures::default();
    match model {
        "pe" => price_earnings(example, &mut figures),
        "ps" => price_sales(example, &mut figures),
        "pb" => price_book(example, &mut figures),
        "ev-ebitda" => enterprise_multiple(example, &mut figures),
        "dcf" => discounted_cash_flow(example, &mut figures),
        "wacc" => cost_of_capital(example, &mut figures),
        "ddm" => dividend_discount(example, &mut figures),
        "roic" => roic::return_on_capital(example, &mut figures),
        "reverse-dcf" => reverse_dcf::reverse_dcf(example, &mut figures),
        "margin-of-safety" => margin_of_safety::margin_of_safety(example, &mut figures),
        "dilution" => full_dilution(example, &mut figures),
        "residual-income" => residual_income(example, &mut figures),
        "where-the-numbers-come-from" => market_inputs(example, &mut figures),
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
        let figures = figures_of(model, en);
        problems.extend(figures.errors.iter().map(|e| format!("{model}: {e}")));
        problems.extend(figures::page_problems(&pages, &figures));
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
    let mut f = Figures::default();
    f.result("x", 15.1, 15.0, 15.0, Shown::Plain(1));
    f.input("rate", 0.055, Shown::Percent(0));
    assert_eq!(f.errors.len(), 3, "{:?}", f.errors);
}

#[test]
fn amounts_in_millions_may_be_counted_in_yi_and_wan() {
    let forms = |x: f64, decimals: usize, lang: &str| {
        let mut f = Figures::default();
        f.input("x", x, Shown::Amount(decimals));
        f.shown[0].forms(lang)
    };
    assert_eq!(forms(400.0, 0, "en"), ["400"]);
    assert_eq!(forms(400.0, 0, "zh"), ["400", "4 億"]);
    assert_eq!(forms(420.0, 0, "ja"), ["420", "4.2億"]);
    assert_eq!(forms(50000.0, 0, "zh"), ["50,000", "500 億"]);
    assert_eq!(forms(20.0, 0, "zh"), ["20", "2,000 萬"]);
    assert_eq!(forms(50.0, 0, "ja"), ["50", "5,000万"]);
    assert_eq!(forms(1785.0, 2, "zh"), ["1,785.00", "17.85 億"]);
    // Figures that are not amounts keep their one form.
    let mut f = Figures::default();
    f.input("price", 12.0, Shown::Dollars(2));
    assert_eq!(f.shown[0].forms("zh"), ["$12.00"]);
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
        let figures = figures_of(model, pages[0].front.example.as_ref().unwrap());
        let english = bold_spans(&pages[0].path);
        for page in &pages[1..] {
            let spans = bold_spans(&page.path);
            for figure in figures.shown.iter().filter(|f| is_bold(f, "en", &english)) {
                if !is_bold(figure, page.lang, &spans) {
                    problems.push(format!("{}: `{}` is not bold", page.path.display(), figure.text));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
