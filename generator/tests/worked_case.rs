//! The worked case of the equity-research page (README, "Writing content") is one company carried
//! from its statements to a price. Every figure kept under `example:` in its front matter is
//! recomputed here from the inputs, must appear in the text of every language as formatted below
//! (amounts in millions may be counted in 億/萬 in zh and ja), and must be the same in en, zh
//! and ja.
//!
//! As in `examples.rs`, each stated result is checked twice to half a unit of its last shown
//! decimal: against the exact computation from the inputs, and against the computation from the
//! figures the page shows one step earlier (what a reader with a calculator gets). Both files
//! check figures with the helpers of `figures/mod.rs`.

#[path = "figures/mod.rs"]
mod figures;

use figures::{content_dir, Figures, Page, Shown, FACTOR};
use serde::Deserialize;
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

const MILLIONS: Shown = Shown::Amount(0);

impl Figures {
    fn inputs(&mut self, name: &str, values: &[f64], shown: Shown) {
        for (i, &value) in values.iter().enumerate() {
            self.input(&format!("{name}[{i}]"), value, shown);
        }
    }

    /// A result of whole figures (the statements' subtotals): exact and shown are the same.
    fn total(&mut self, name: &str, stated: f64, computed: f64) {
        self.result(name, stated, computed, computed, MILLIONS);
    }
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    statements: Statements,
    normalisation: Normalisation,
    roic: Roic,
    forecast: Forecast,
    wacc: Wacc,
    terminal: Terminal,
    bridge: Bridge,
    scenarios: Vec<Scenario>,
    weighted_value: f64,
    price: Price,
}

/// Three years of the three statements, oldest first.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Statements {
    years: Vec<i32>,
    revenue: Vec<f64>,
    operating_costs: Vec<f64>,
    depreciation: Vec<f64>,
    restructuring: Vec<f64>,
    operating_profit: Vec<f64>,
    interest: Vec<f64>,
    pretax_profit: Vec<f64>,
    tax: Vec<f64>,
    net_income: Vec<f64>,
    minority_share: Vec<f64>,
    shareholders_income: Vec<f64>,
    share_based_pay: Vec<f64>,
    cash: Vec<f64>,
    receivables: Vec<f64>,
    inventories: Vec<f64>,
    equipment: Vec<f64>,
    lease_assets: Vec<f64>,
    goodwill: Vec<f64>,
    total_assets: Vec<f64>,
    payables: Vec<f64>,
    borrowings: Vec<f64>,
    lease_liabilities: Vec<f64>,
    pension_deficit: Vec<f64>,
    total_liabilities: Vec<f64>,
    minority_interest: Vec<f64>,
    shareholders_equity: Vec<f64>,
    working_capital: Vec<f64>,
    working_capital_increase: Vec<f64>,
    operating_cash_flow: Vec<f64>,
    capex: Vec<f64>,
    net_borrowing: Vec<f64>,
    dividends: Vec<f64>,
    minority_dividends: Vec<f64>,
    financing_cash_flow: Vec<f64>,
    change_in_cash: Vec<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Normalisation {
    effective_tax_rate: f64,
    tax_rate: f64,
    lease_rate: f64,
    lease_interest: f64,
    operating_profit: f64,
    margin: f64,
    nopat: f64,
    net_income: f64,
    operating_cash_share: f64,
    operating_cash: f64,
    operating_cash_increase: f64,
    excess_cash: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Roic {
    operating_cash_opening: f64,
    invested_capital_opening: f64,
    invested_capital: f64,
    roic: f64,
    net_capex: f64,
    net_investment: f64,
    reinvestment_rate: f64,
    implied_growth: f64,
    revenue_growth: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Forecast {
    years: Vec<i32>,
    growth: Vec<f64>,
    roic: f64,
    after_tax_margin: f64,
    revenue: Vec<f64>,
    nopat: Vec<f64>,
    reinvestment: Vec<f64>,
    fcff: Vec<f64>,
    discount_factors: Vec<f64>,
    present_values: Vec<f64>,
    explicit_total: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wacc {
    risk_free: f64,
    unlevered_beta: f64,
    equity_risk_premium: f64,
    pre_tax_cost_of_debt: f64,
    market_cap: f64,
    debt: f64,
    capital: f64,
    average_borrowings: f64,
    interest_rate_paid: f64,
    debt_to_equity: f64,
    beta: f64,
    cost_of_equity: f64,
    after_tax_cost_of_debt: f64,
    equity_weight: f64,
    debt_weight: f64,
    wacc: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Terminal {
    growth: f64,
    ronic: f64,
    reinvestment_rate: f64,
    nopat: f64,
    fcff: f64,
    value: f64,
    present_value: f64,
    share_of_value: f64,
    enterprise_value: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Bridge {
    net_debt: f64,
    pension_after_tax: f64,
    minority_pe: f64,
    minority_value: f64,
    claims: f64,
    equity_value: f64,
    basic_shares: f64,
    options: f64,
    strike: f64,
    exercise_proceeds: f64,
    repurchased: f64,
    option_shares: f64,
    rsus: f64,
    diluted_shares: f64,
    value_per_share: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    probability: f64,
    growth: Vec<f64>,
    margin: f64,
    terminal_growth: f64,
    ronic: f64,
    value_per_share: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Price {
    price: f64,
    margin_of_safety: f64,
    weighted_margin_of_safety: f64,
    required_margin: f64,
    buy_below: f64,
    bull_upside: f64,
    bear_downside: f64,
    implied_growth: f64,
    implied_margin: f64,
    eps: f64,
    pe_at_price: f64,
    pe_at_value: f64,
}

/// What the whole model needs to turn a set of drivers into a value per share: the base year,
/// the tax rate, the return on new capital in the forecast, the discount rate and the claims
/// ahead of the shares.
struct Model {
    revenue: f64,
    tax_rate: f64,
    roic: f64,
    wacc: f64,
    claims: f64,
    shares: f64,
}

/// The drivers a scenario or a reverse DCF changes.
struct Drivers<'a> {
    growth: &'a [f64],
    margin: f64,
    terminal_growth: f64,
    ronic: f64,
}

impl Model {
    /// The exact value per share: FCFF = NOPAT − g ÷ ROIC × NOPAT for each forecast year, then a
    /// terminal value whose reinvestment is g ÷ RONIC.
    fn value_per_share(&self, d: &Drivers) -> f64 {
        let (mut revenue, mut nopat, mut explicit) = (self.revenue, 0.0, 0.0);
        for (t, g) in d.growth.iter().enumerate() {
            revenue *= 1.0 + g;
            nopat = revenue * d.margin * (1.0 - self.tax_rate);
            let fcff = nopat * (1.0 - g / self.roic);
            explicit += fcff / (1.0 + self.wacc).powi(t as i32 + 1);
        }
        let g = d.terminal_growth;
        let terminal = nopat * (1.0 + g) * (1.0 - g / d.ronic) / (self.wacc - g);
        let ev = explicit + terminal / (1.0 + self.wacc).powi(d.growth.len() as i32);
        (ev - self.claims) / self.shares
    }

    /// The driver value at which the price equals the value, by bisection over `range`, in which
    /// the value must rise with the driver.
    fn solve(&self, price: f64, range: (f64, f64), value: impl Fn(f64) -> f64) -> f64 {
        let (mut low, mut high) = range;
        assert!(
            value(low) < price && price < value(high),
            "the price must lie within the range searched"
        );
        for _ in 0..100 {
            let mid = (low + high) / 2.0;
            if value(mid) < price {
                low = mid;
            } else {
                high = mid;
            }
        }
        (low + high) / 2.0
    }
}

fn statements(s: &Statements, f: &mut Figures) {
    let n = s.years.len();
    assert_eq!(n, 3, "three years of statements");
    for (name, line) in [
        ("revenue", &s.revenue),
        ("operating_costs", &s.operating_costs),
        ("depreciation", &s.depreciation),
        ("restructuring", &s.restructuring),
        ("interest", &s.interest),
        ("tax", &s.tax),
        ("minority_share", &s.minority_share),
        ("share_based_pay", &s.share_based_pay),
        ("cash", &s.cash),
        ("receivables", &s.receivables),
        ("inventories", &s.inventories),
        ("lease_assets", &s.lease_assets),
        ("goodwill", &s.goodwill),
        ("payables", &s.payables),
        ("lease_liabilities", &s.lease_liabilities),
        ("pension_deficit", &s.pension_deficit),
        ("capex", &s.capex),
        ("dividends", &s.dividends),
        ("minority_dividends", &s.minority_dividends),
        ("net_borrowing", &s.net_borrowing),
    ] {
        assert_eq!(line.len(), n, "{name}: one figure a year");
        f.inputs(name, line, MILLIONS);
    }
    // The opening year's balances, which the later years roll forward from.
    f.input("equipment[0]", s.equipment[0], MILLIONS);
    f.input("borrowings[0]", s.borrowings[0], MILLIONS);
    f.input("minority_interest[0]", s.minority_interest[0], MILLIONS);
    f.input("shareholders_equity[0]", s.shareholders_equity[0], MILLIONS);
    f.input("working_capital_increase[0]", s.working_capital_increase[0], MILLIONS);
    for t in 0..n {
        income_statement(s, t, f);
        balance_sheet(s, t, f);
        cash_flow_statement(s, t, f);
    }
}

fn income_statement(s: &Statements, t: usize, f: &mut Figures) {
    let ebit = s.revenue[t] - s.operating_costs[t] - s.depreciation[t] - s.restructuring[t];
    f.total(&format!("operating_profit[{t}]"), s.operating_profit[t], ebit);
    let pretax = s.operating_profit[t] - s.interest[t];
    f.total(&format!("pretax_profit[{t}]"), s.pretax_profit[t], pretax);
    f.total(
        &format!("net_income[{t}]"),
        s.net_income[t],
        s.pretax_profit[t] - s.tax[t],
    );
    f.total(
        &format!("shareholders_income[{t}]"),
        s.shareholders_income[t],
        s.net_income[t] - s.minority_share[t],
    );
}

/// The balance sheet balances, and each year's balances roll forward from the year before
/// through the income and cash-flow statements.
fn balance_sheet(s: &Statements, t: usize, f: &mut Figures) {
    let assets = s.cash[t] + s.receivables[t] + s.inventories[t] + s.equipment[t] + s.lease_assets[t] + s.goodwill[t];
    f.total(&format!("total_assets[{t}]"), s.total_assets[t], assets);
    let liabilities = s.payables[t] + s.borrowings[t] + s.lease_liabilities[t] + s.pension_deficit[t];
    f.total(&format!("total_liabilities[{t}]"), s.total_liabilities[t], liabilities);
    f.check(
        &format!("the balance sheet of year {t} balances"),
        s.total_assets[t] == s.total_liabilities[t] + s.minority_interest[t] + s.shareholders_equity[t],
    );
    let working_capital = s.receivables[t] + s.inventories[t] - s.payables[t];
    f.total(&format!("working_capital[{t}]"), s.working_capital[t], working_capital);
    if t == 0 {
        return;
    }
    let p = t - 1;
    let rolled = [
        (
            "equipment",
            &s.equipment,
            s.equipment[p] + s.capex[t] - s.depreciation[t],
        ),
        ("borrowings", &s.borrowings, s.borrowings[p] + s.net_borrowing[t]),
        (
            "minority_interest",
            &s.minority_interest,
            s.minority_interest[p] + s.minority_share[t] - s.minority_dividends[t],
        ),
        (
            "shareholders_equity",
            &s.shareholders_equity,
            s.shareholders_equity[p] + s.shareholders_income[t] - s.dividends[t] + s.share_based_pay[t],
        ),
        (
            "working_capital_increase",
            &s.working_capital_increase,
            s.working_capital[t] - s.working_capital[p],
        ),
    ];
    for (name, line, computed) in rolled {
        f.total(&format!("{name}[{t}]"), line[t], computed);
    }
    f.check(
        &format!("the change in cash of year {t} is the balance sheet's"),
        s.change_in_cash[t] == s.cash[t] - s.cash[p],
    );
    // Operating leases sit on both sides at the same amount: no cash moves.
    f.check(
        "lease assets equal lease liabilities",
        s.lease_assets[t] == s.lease_liabilities[t],
    );
}

fn cash_flow_statement(s: &Statements, t: usize, f: &mut Figures) {
    let operating = s.net_income[t] + s.depreciation[t] + s.share_based_pay[t] - s.working_capital_increase[t];
    f.total(
        &format!("operating_cash_flow[{t}]"),
        s.operating_cash_flow[t],
        operating,
    );
    let financing = s.net_borrowing[t] - s.dividends[t] - s.minority_dividends[t];
    f.total(
        &format!("financing_cash_flow[{t}]"),
        s.financing_cash_flow[t],
        financing,
    );
    let change = s.operating_cash_flow[t] - s.capex[t] + s.financing_cash_flow[t];
    f.total(&format!("change_in_cash[{t}]"), s.change_in_cash[t], change);
}

/// One-off items, the interest inside the lease cost and excess cash; returns the exact NOPAT.
fn normalisation(c: &Case, f: &mut Figures) -> f64 {
    let (s, n) = (&c.statements, &c.normalisation);
    let last = s.years.len() - 1;
    f.input("tax_rate", n.tax_rate, Shown::Percent(0));
    f.input("lease_rate", n.lease_rate, Shown::Percent(0));
    f.input("operating_cash_share", n.operating_cash_share, Shown::Percent(0));
    let effective = s.tax[last] / s.pretax_profit[last];
    f.result(
        "effective_tax_rate",
        n.effective_tax_rate,
        effective,
        effective,
        Shown::Percent(1),
    );
    f.check(
        "the effective tax rate has been close to the statutory rate",
        (0..=last).all(|t| (s.tax[t] / s.pretax_profit[t] - n.tax_rate).abs() < 0.01),
    );
    let lease_interest = s.lease_liabilities[last] * n.lease_rate;
    f.result(
        "lease_interest",
        n.lease_interest,
        lease_interest,
        lease_interest,
        Shown::Amount(1),
    );
    let ebit = s.operating_profit[last] + s.restructuring[last] + lease_interest;
    let ebit_shown = s.operating_profit[last] + s.restructuring[last] + n.lease_interest;
    f.result(
        "normalised operating_profit",
        n.operating_profit,
        ebit,
        ebit_shown,
        Shown::Amount(1),
    );
    let margin = ebit / s.revenue[last];
    let margin_shown = n.operating_profit / s.revenue[last];
    f.result("margin", n.margin, margin, margin_shown, Shown::Percent(0));
    let nopat = ebit * (1.0 - n.tax_rate);
    let nopat_shown = n.operating_profit * (1.0 - n.tax_rate);
    f.result("nopat", n.nopat, nopat, nopat_shown, Shown::Amount(1));
    let income = s.shareholders_income[last] + s.restructuring[last] * (1.0 - n.tax_rate);
    f.result("normalised net_income", n.net_income, income, income, Shown::Amount(1));
    let operating_cash = n.operating_cash_share * s.revenue[last];
    f.result(
        "operating_cash",
        n.operating_cash,
        operating_cash,
        operating_cash,
        Shown::Amount(1),
    );
    let excess = s.cash[last] - operating_cash;
    let excess_shown = s.cash[last] - n.operating_cash;
    f.result("excess_cash", n.excess_cash, excess, excess_shown, Shown::Amount(1));
    nopat
}

/// Invested capital at the start and the end of the last year; returns both, exact.
fn invested_capital(c: &Case, f: &mut Figures) -> (f64, f64) {
    let (s, n, r) = (&c.statements, &c.normalisation, &c.roic);
    let last = s.years.len() - 1;
    let opening_cash = n.operating_cash_share * s.revenue[last - 1];
    f.result(
        "operating_cash_opening",
        r.operating_cash_opening,
        opening_cash,
        opening_cash,
        Shown::Amount(1),
    );
    let capital =
        |t: usize, cash: f64| s.working_capital[t] + cash + s.equipment[t] + s.lease_assets[t] + s.goodwill[t];
    let opening = capital(last - 1, opening_cash);
    let opening_shown = capital(last - 1, r.operating_cash_opening);
    f.result(
        "invested_capital_opening",
        r.invested_capital_opening,
        opening,
        opening_shown,
        Shown::Amount(1),
    );
    let closing = capital(last, n.operating_cash_share * s.revenue[last]);
    let closing_shown = capital(last, n.operating_cash);
    f.result(
        "invested_capital",
        r.invested_capital,
        closing,
        closing_shown,
        Shown::Amount(1),
    );
    (opening, closing)
}

/// The return on invested capital, and the growth that reinvestment at that return supports.
fn roic(c: &Case, nopat: f64, f: &mut Figures) {
    let (s, n, r) = (&c.statements, &c.normalisation, &c.roic);
    let last = s.years.len() - 1;
    let (opening, closing) = invested_capital(c, f);
    let roic = nopat / opening;
    let roic_shown = n.nopat / r.invested_capital_opening;
    f.result("roic", r.roic, roic, roic_shown, Shown::Percent(1));
    let net_capex = s.capex[last] - s.depreciation[last];
    f.total("net_capex", r.net_capex, net_capex);
    let cash_increase = n.operating_cash_share * (s.revenue[last] - s.revenue[last - 1]);
    let cash_increase_shown = n.operating_cash - r.operating_cash_opening;
    f.result(
        "operating_cash_increase",
        n.operating_cash_increase,
        cash_increase,
        cash_increase_shown,
        Shown::Amount(1),
    );
    let invested = closing - opening;
    f.result(
        "net_investment",
        r.net_investment,
        invested,
        r.invested_capital - r.invested_capital_opening,
        Shown::Amount(1),
    );
    let by_parts = r.net_capex + s.working_capital_increase[last] + n.operating_cash_increase;
    f.check(
        "new capital is capex beyond depreciation plus working capital and cash",
        (by_parts - r.net_investment).abs() < 1e-9,
    );
    let rate = invested / nopat;
    f.result(
        "reinvestment_rate",
        r.reinvestment_rate,
        rate,
        r.net_investment / n.nopat,
        Shown::Percent(1),
    );
    let growth = rate * roic;
    f.result(
        "implied_growth",
        r.implied_growth,
        growth,
        r.reinvestment_rate * r.roic,
        Shown::Percent(1),
    );
    let revenue_growth = s.revenue[last] / s.revenue[last - 1] - 1.0;
    f.result(
        "revenue_growth",
        r.revenue_growth,
        revenue_growth,
        revenue_growth,
        Shown::Percent(1),
    );
    f.check(
        "revenue grew faster than reinvestment supports",
        revenue_growth > growth,
    );
}

/// The model of the base case, with the claims and shares of the bridge.
fn model(c: &Case, claims: f64, shares: f64) -> Model {
    let s = &c.statements;
    Model {
        revenue: s.revenue[s.revenue.len() - 1],
        tax_rate: c.normalisation.tax_rate,
        roic: c.forecast.roic,
        wacc: c.wacc.wacc,
        claims,
        shares,
    }
}

/// Every line of the forecast has a figure for each of its years.
fn assert_one_figure_a_year(p: &Forecast) {
    for line in [
        &p.growth,
        &p.revenue,
        &p.nopat,
        &p.reinvestment,
        &p.fcff,
        &p.discount_factors,
        &p.present_values,
    ] {
        assert_eq!(line.len(), p.years.len(), "forecast: one figure a year");
    }
}

/// The five forecast years; returns the exact NOPAT of the last year and the exact present
/// value of the forecast.
fn forecast(c: &Case, f: &mut Figures) -> (f64, f64) {
    let (p, n) = (&c.forecast, &c.normalisation);
    assert_one_figure_a_year(p);
    f.input("forecast.roic", p.roic, Shown::Percent(0));
    f.inputs("forecast.growth", &p.growth, Shown::Percent(1));
    let after_tax = n.margin * (1.0 - n.tax_rate);
    f.result(
        "after_tax_margin",
        p.after_tax_margin,
        after_tax,
        after_tax,
        Shown::Percent(1),
    );
    let base = c.statements.revenue[c.statements.revenue.len() - 1];
    let (mut revenue, mut shown_revenue, mut nopat, mut explicit, mut shown_sum) = (base, base, 0.0, 0.0, 0.0);
    for (t, &g) in p.growth.iter().enumerate() {
        let name = |line: &str| format!("forecast.{line}[{t}]");
        revenue *= 1.0 + g;
        f.result(
            &name("revenue"),
            p.revenue[t],
            revenue,
            shown_revenue * (1.0 + g),
            Shown::Amount(2),
        );
        nopat = revenue * after_tax;
        f.result(
            &name("nopat"),
            p.nopat[t],
            nopat,
            p.revenue[t] * after_tax,
            Shown::Amount(2),
        );
        let reinvestment = g / p.roic * nopat;
        f.result(
            &name("reinvestment"),
            p.reinvestment[t],
            reinvestment,
            g / p.roic * p.nopat[t],
            Shown::Amount(2),
        );
        let fcff = nopat - reinvestment;
        f.result(
            &name("fcff"),
            p.fcff[t],
            fcff,
            p.nopat[t] - p.reinvestment[t],
            Shown::Amount(2),
        );
        let factor = 1.0 / (1.0 + c.wacc.wacc).powi(t as i32 + 1);
        f.result(&name("discount_factors"), p.discount_factors[t], factor, factor, FACTOR);
        let pv = fcff * factor;
        f.result(
            &name("present_values"),
            p.present_values[t],
            pv,
            p.fcff[t] * p.discount_factors[t],
            Shown::Amount(2),
        );
        explicit += pv;
        shown_sum += p.present_values[t];
        shown_revenue = p.revenue[t];
    }
    f.result(
        "explicit_total",
        p.explicit_total,
        explicit,
        shown_sum,
        Shown::Amount(1),
    );
    (nopat, explicit)
}

/// CAPM with a relevered industry beta, the after-tax cost of debt and market-value weights.
fn cost_of_capital(c: &Case, f: &mut Figures) {
    let (w, b, s) = (&c.wacc, &c.bridge, &c.statements);
    let last = s.years.len() - 1;
    let tax = c.normalisation.tax_rate;
    f.input("risk_free", w.risk_free, Shown::Percent(0));
    f.input("unlevered_beta", w.unlevered_beta, Shown::Plain(2));
    f.input("equity_risk_premium", w.equity_risk_premium, Shown::Percent(0));
    f.input("pre_tax_cost_of_debt", w.pre_tax_cost_of_debt, Shown::Percent(0));
    let average = (s.borrowings[last] + s.borrowings[last - 1]) / 2.0;
    f.total("average_borrowings", w.average_borrowings, average);
    let paid = s.interest[last] / average;
    f.result(
        "interest_rate_paid",
        w.interest_rate_paid,
        paid,
        paid,
        Shown::Percent(1),
    );
    let equity = c.price.price * b.diluted_shares;
    f.result("market_cap", w.market_cap, equity, equity, MILLIONS);
    let debt = b.net_debt + s.lease_liabilities[last];
    f.result("wacc.debt", w.debt, debt, debt, MILLIONS);
    f.total("capital", w.capital, w.market_cap + w.debt);
    let de = debt / equity;
    f.result(
        "debt_to_equity",
        w.debt_to_equity,
        de,
        w.debt / w.market_cap,
        Shown::Plain(2),
    );
    let beta = w.unlevered_beta * (1.0 + (1.0 - tax) * de);
    let beta_shown = w.unlevered_beta * (1.0 + (1.0 - tax) * w.debt_to_equity);
    f.result("beta", w.beta, beta, beta_shown, Shown::Plain(2));
    let ke = w.risk_free + beta * w.equity_risk_premium;
    let ke_shown = w.risk_free + w.beta * w.equity_risk_premium;
    f.result("cost_of_equity", w.cost_of_equity, ke, ke_shown, Shown::Percent(1));
    let kd = w.pre_tax_cost_of_debt * (1.0 - tax);
    f.result(
        "after_tax_cost_of_debt",
        w.after_tax_cost_of_debt,
        kd,
        kd,
        Shown::Percent(1),
    );
    let total = equity + debt;
    f.result(
        "equity_weight",
        w.equity_weight,
        equity / total,
        w.market_cap / w.capital,
        Shown::Percent(1),
    );
    f.result(
        "debt_weight",
        w.debt_weight,
        debt / total,
        w.debt / w.capital,
        Shown::Percent(1),
    );
    let wacc = equity / total * ke + debt / total * kd;
    let wacc_shown = w.equity_weight * w.cost_of_equity + w.debt_weight * w.after_tax_cost_of_debt;
    f.result("wacc", w.wacc, wacc, wacc_shown, Shown::Percent(1));
    f.check("debt is cheaper than equity after tax", kd < ke);
    f.check("the company earns more than its cost of capital", c.roic.roic > w.wacc);
}

/// The value after the forecast, with its reinvestment tied to RONIC; returns the exact
/// enterprise value.
fn terminal_value(c: &Case, last_nopat: f64, explicit: f64, f: &mut Figures) -> f64 {
    let (t, p, w) = (&c.terminal, &c.forecast, c.wacc.wacc);
    let n = p.years.len();
    f.input("terminal.growth", t.growth, Shown::Percent(0));
    f.input("terminal.ronic", t.ronic, Shown::Percent(0));
    f.check(
        "terminal growth is at most the risk-free rate",
        t.growth <= c.wacc.risk_free,
    );
    f.check("new capital earns more than the WACC", t.ronic > w);
    let rate = t.growth / t.ronic;
    f.result(
        "terminal.reinvestment_rate",
        t.reinvestment_rate,
        rate,
        rate,
        Shown::Percent(0),
    );
    let nopat = last_nopat * (1.0 + t.growth);
    f.result(
        "terminal.nopat",
        t.nopat,
        nopat,
        p.nopat[n - 1] * (1.0 + t.growth),
        Shown::Amount(2),
    );
    let fcff = nopat * (1.0 - rate);
    f.result(
        "terminal.fcff",
        t.fcff,
        fcff,
        t.nopat * (1.0 - t.reinvestment_rate),
        Shown::Amount(2),
    );
    let value = fcff / (w - t.growth);
    f.result(
        "terminal.value",
        t.value,
        value,
        t.fcff / (w - t.growth),
        Shown::Amount(1),
    );
    let pv = value / (1.0 + w).powi(n as i32);
    let pv_shown = t.value * p.discount_factors[n - 1];
    f.result(
        "terminal.present_value",
        t.present_value,
        pv,
        pv_shown,
        Shown::Amount(1),
    );
    let ev = explicit + pv;
    let ev_shown = p.explicit_total + t.present_value;
    f.result("enterprise_value", t.enterprise_value, ev, ev_shown, Shown::Amount(1));
    f.result(
        "share_of_value",
        t.share_of_value,
        pv / ev,
        t.present_value / t.enterprise_value,
        Shown::Percent(0),
    );
    ev
}

/// Every claim ahead of the shares, and the shares fully diluted; returns the exact claims and
/// diluted share count.
fn equity_bridge(c: &Case, f: &mut Figures) -> (f64, f64) {
    let (b, s, n) = (&c.bridge, &c.statements, &c.normalisation);
    let last = s.years.len() - 1;
    f.input("minority_pe", b.minority_pe, Shown::Plain(1));
    f.input("basic_shares", b.basic_shares, MILLIONS);
    f.input("options", b.options, MILLIONS);
    f.input("strike", b.strike, Shown::Dollars(2));
    f.input("rsus", b.rsus, MILLIONS);
    f.input("price", c.price.price, Shown::Dollars(2));
    let net_debt = s.borrowings[last] - (s.cash[last] - n.operating_cash_share * s.revenue[last]);
    let net_debt_shown = s.borrowings[last] - n.excess_cash;
    f.result("net_debt", b.net_debt, net_debt, net_debt_shown, Shown::Amount(1));
    let pension = s.pension_deficit[last] * (1.0 - n.tax_rate);
    f.result(
        "pension_after_tax",
        b.pension_after_tax,
        pension,
        pension,
        Shown::Amount(1),
    );
    let minority = s.minority_share[last] * b.minority_pe;
    f.result("minority_value", b.minority_value, minority, minority, Shown::Amount(1));
    f.check(
        "minority interests are worth more than their book value",
        minority > s.minority_interest[last],
    );
    let claims = net_debt + s.lease_liabilities[last] + pension + minority;
    let claims_shown = b.net_debt + s.lease_liabilities[last] + b.pension_after_tax + b.minority_value;
    f.result("claims", b.claims, claims, claims_shown, Shown::Amount(1));
    assert!(b.strike < c.price.price, "the options must be in the money");
    let proceeds = b.options * b.strike;
    f.total("exercise_proceeds", b.exercise_proceeds, proceeds);
    let repurchased = proceeds / c.price.price;
    f.result(
        "repurchased",
        b.repurchased,
        repurchased,
        b.exercise_proceeds / c.price.price,
        Shown::Amount(1),
    );
    f.result(
        "option_shares",
        b.option_shares,
        b.options - repurchased,
        b.options - b.repurchased,
        Shown::Amount(1),
    );
    let diluted = b.basic_shares + b.options - repurchased + b.rsus;
    let diluted_shown = b.basic_shares + b.options - b.repurchased + b.rsus;
    f.result(
        "diluted_shares",
        b.diluted_shares,
        diluted,
        diluted_shown,
        Shown::Amount(1),
    );
    (claims, diluted)
}

fn value_per_share(c: &Case, ev: f64, claims: f64, shares: f64, f: &mut Figures) -> f64 {
    let b = &c.bridge;
    let equity = ev - claims;
    let equity_shown = c.terminal.enterprise_value - b.claims;
    f.result("equity_value", b.equity_value, equity, equity_shown, Shown::Amount(1));
    let value = equity / shares;
    f.result(
        "value_per_share",
        b.value_per_share,
        value,
        b.equity_value / b.diluted_shares,
        Shown::Dollars(2),
    );
    value
}

/// Each scenario recomputed through the whole model, and their probability-weighted value;
/// returns the exact weighted value.
fn scenarios(c: &Case, m: &Model, base_value: f64, f: &mut Figures) -> f64 {
    let names: Vec<&str> = c.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["bull", "base", "bear"], "the scenarios and their order");
    let total: f64 = c.scenarios.iter().map(|s| s.probability).sum();
    f.check("the probabilities add up to one", (total - 1.0).abs() < 1e-9);
    let (mut weighted, mut weighted_shown) = (0.0, 0.0);
    for s in &c.scenarios {
        let name = |what: &str| format!("scenarios.{}.{what}", s.name);
        f.input(&name("probability"), s.probability, Shown::Percent(0));
        f.inputs(&name("growth"), &s.growth, Shown::Percent(1));
        f.input(&name("margin"), s.margin, Shown::Percent(0));
        f.input(&name("terminal_growth"), s.terminal_growth, Shown::Percent(0));
        f.input(&name("ronic"), s.ronic, Shown::Percent(1));
        f.check(
            &name("terminal growth is at most the risk-free rate"),
            s.terminal_growth <= c.wacc.risk_free,
        );
        f.check(&name("new capital earns at least the WACC"), s.ronic >= c.wacc.wacc);
        let value = m.value_per_share(&drivers_of(s));
        f.result(
            &name("value_per_share"),
            s.value_per_share,
            value,
            value,
            Shown::Dollars(2),
        );
        weighted += s.probability * value;
        weighted_shown += s.probability * s.value_per_share;
    }
    let base = &c.scenarios[1];
    f.check(
        "the base scenario is the forecast",
        base.growth == c.forecast.growth
            && base.margin == c.normalisation.margin
            && base.terminal_growth == c.terminal.growth
            && base.ronic == c.terminal.ronic
            && (base.value_per_share - c.bridge.value_per_share).abs() < 1e-9
            && (m.value_per_share(&drivers_of(base)) - base_value).abs() < 1e-9,
    );
    f.check(
        "the bear case's new capital earns only the WACC",
        c.scenarios[2].ronic == c.wacc.wacc,
    );
    f.result(
        "weighted_value",
        c.weighted_value,
        weighted,
        weighted_shown,
        Shown::Dollars(2),
    );
    weighted
}

fn drivers_of(s: &Scenario) -> Drivers<'_> {
    Drivers {
        growth: &s.growth,
        margin: s.margin,
        terminal_growth: s.terminal_growth,
        ronic: s.ronic,
    }
}

/// The margin of safety against the price, and the upside and downside of the scenarios.
fn margin_of_safety(c: &Case, m: &Model, value: f64, weighted: f64, f: &mut Figures) {
    let (p, b) = (&c.price, &c.bridge);
    let (bull, bear) = (&c.scenarios[0], &c.scenarios[2]);
    let stated = b.value_per_share;
    f.input("required_margin", p.required_margin, Shown::Percent(0));
    let mos = (value - p.price) / value;
    f.result(
        "margin_of_safety",
        p.margin_of_safety,
        mos,
        (stated - p.price) / stated,
        Shown::Percent(1),
    );
    let wmos = (weighted - p.price) / weighted;
    let wmos_shown = (c.weighted_value - p.price) / c.weighted_value;
    f.result(
        "weighted_margin_of_safety",
        p.weighted_margin_of_safety,
        wmos,
        wmos_shown,
        Shown::Percent(1),
    );
    let below = value * (1.0 - p.required_margin);
    f.result(
        "buy_below",
        p.buy_below,
        below,
        stated * (1.0 - p.required_margin),
        Shown::Dollars(2),
    );
    f.check("the price is above the buy-below price", p.price > p.buy_below);
    let up = |v: f64| (v - p.price) / p.price;
    let bull_exact = m.value_per_share(&drivers_of(bull));
    let bear_exact = m.value_per_share(&drivers_of(bear));
    f.result(
        "bull_upside",
        p.bull_upside,
        up(bull_exact),
        up(bull.value_per_share),
        Shown::Percent(1),
    );
    f.result(
        "bear_downside",
        p.bear_downside,
        up(bear_exact),
        up(bear.value_per_share),
        Shown::Percent(1),
    );
    f.check("the bear case is below the price", bear_exact < p.price);
}

/// What the price implies, read backwards through the base case, and the P/E cross-check.
fn reverse_dcf(c: &Case, m: &Model, value: f64, f: &mut Figures) {
    let (p, b) = (&c.price, &c.bridge);
    let stated = b.value_per_share;
    let bear = &c.scenarios[2];
    let base = drivers_of(&c.scenarios[1]);
    let growth = m.solve(p.price, (-0.2, 0.2), |g| {
        let path = vec![g; base.growth.len()];
        m.value_per_share(&Drivers { growth: &path, ..base })
    });
    f.result("implied_growth", p.implied_growth, growth, growth, Shown::Percent(1));
    let margin = m.solve(p.price, (0.05, 0.25), |margin| {
        m.value_per_share(&Drivers { margin, ..base })
    });
    f.result("implied_margin", p.implied_margin, margin, margin, Shown::Percent(1));
    f.check(
        "the implied margin is the bear case's",
        (margin - bear.margin).abs() < 0.0005,
    );
    let income = c.normalisation.net_income;
    let eps = income / b.diluted_shares;
    f.result("eps", p.eps, eps, eps, Shown::Dollars(2));
    f.result(
        "pe_at_price",
        p.pe_at_price,
        p.price / eps,
        p.price / p.eps,
        Shown::Plain(1),
    );
    f.result(
        "pe_at_value",
        p.pe_at_value,
        value / eps,
        stated / p.eps,
        Shown::Plain(1),
    );
    f.check(
        "the value's P/E is close to the minority interests'",
        (p.pe_at_value - b.minority_pe).abs() < 2.0,
    );
}

fn figures_of(example: &serde_yaml::Value) -> Figures {
    let c: Case = serde_yaml::from_value(example.clone()).unwrap_or_else(|e| panic!("example: {e}"));
    let mut f = Figures::default();
    statements(&c.statements, &mut f);
    let nopat = normalisation(&c, &mut f);
    roic(&c, nopat, &mut f);
    cost_of_capital(&c, &mut f);
    let (last_nopat, explicit) = forecast(&c, &mut f);
    let ev = terminal_value(&c, last_nopat, explicit, &mut f);
    let (claims, shares) = equity_bridge(&c, &mut f);
    let value = value_per_share(&c, ev, claims, shares, &mut f);
    let m = model(&c, claims, shares);
    f.check(
        "the model reproduces the forecast's value",
        (m.value_per_share(&drivers_of(&c.scenarios[1])) - value).abs() < 1e-9,
    );
    let weighted = scenarios(&c, &m, value, &mut f);
    margin_of_safety(&c, &m, value, weighted, &mut f);
    reverse_dcf(&c, &m, value, &mut f);
    f
}

#[test]
fn every_figure_of_the_case_recomputes_and_is_in_every_language() {
    let pages = load();
    let en = pages[0]
        .front
        .example
        .as_ref()
        .expect("equity-research.en.md has an `example:`");
    let figures = figures_of(en);
    let mut problems = figures.errors.clone();
    problems.extend(figures::page_problems(&pages, &figures));
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
    assert!((Shown::Percent(1).read("−0.7%") + 0.007).abs() < 1e-12);
    let mut f = Figures::default();
    f.result("x", 19.16, 19.15, 19.15, Shown::Dollars(2));
    f.input("rate", 0.0845, Shown::Percent(1));
    assert_eq!(f.errors.len(), 3, "{:?}", f.errors);
    f.input("amount", 1861.0, MILLIONS);
    assert_eq!(f.shown.last().unwrap().forms("zh"), ["1,861", "18.61 億"]);
    assert_eq!(f.shown.last().unwrap().forms("ja"), ["1,861", "18.61億"]);
}
