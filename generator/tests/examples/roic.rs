//! ROIC and value drivers: Company D's return on invested capital, the growth its reinvestment
//! buys, and its DCF's terminal value recomputed from NOPAT, growth and the return on new capital.

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReturnOnCapital {
    working_capital: f64,
    fixed_assets: f64,
    invested_capital: f64,
    book_equity: f64,
    net_debt: f64,
    ebit: f64,
    tax_rate: f64,
    nopat: f64,
    roic: f64,
    wacc: f64,
    economic_profit: f64,
    fcff: f64,
    net_investment: f64,
    reinvestment_rate: f64,
    growth: f64,
    terminal: TerminalDrivers,
    explicit_total: f64,
    discount_factor: f64,
    shares: f64,
    cases: Vec<RonicCase>,
    no_growth: NoGrowth,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerminalDrivers {
    growth: f64,
    risk_free: f64,
    fcff: f64,
    ronic: f64,
    reinvestment_rate: f64,
    nopat: f64,
    reinvestment: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RonicCase {
    ronic: f64,
    reinvestment_rate: f64,
    fcff: f64,
    terminal_value: f64,
    value_per_share: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoGrowth {
    terminal_value: f64,
    value_per_share: f64,
    value_of_growth: f64,
}

/// The WACC article's example, whose tax rate and risk-free rate the later articles reuse.
pub(super) fn cost_of_capital_example() -> CostOfCapital {
    let pages = load("wacc");
    let example = pages[0].front.example.as_ref().expect("wacc.en.md has an example");
    parse(example, "wacc")
}

pub(super) fn return_on_capital(value: &serde_yaml::Value, f: &mut Figures) {
    let e: ReturnOnCapital = parse(value, "roic");
    let (d, w) = (company_d(), cost_of_capital_example());
    f.same("wacc", e.wacc, d.discount_rate, Shown::Percent(0));
    f.same("tax_rate", e.tax_rate, w.tax_rate, Shown::Percent(0));
    f.same("net_debt", e.net_debt, d.net_debt, Shown::Amount(0));
    f.same("fcff", e.fcff, d.cash_flows[0], Shown::Amount(0));
    f.same("shares", e.shares, d.shares, Shown::Amount(0));
    f.same("explicit_total", e.explicit_total, d.explicit_total, Shown::Amount(2));
    let n = d.cash_flows.len();
    f.same("discount_factor", e.discount_factor, d.discount_factors[n - 1], FACTOR);
    roic_today(&e, f);
    let nopat = roic_terminal(&e, &d, w.risk_free, f);
    roic_cases(&e, &d, nopat, f);
}

/// Invested capital from both sides of the balance sheet, NOPAT, ROIC and the growth that this
/// year's reinvestment buys.
fn roic_today(e: &ReturnOnCapital, f: &mut Figures) {
    for (name, x) in [
        ("working_capital", e.working_capital),
        ("fixed_assets", e.fixed_assets),
        ("book_equity", e.book_equity),
        ("ebit", e.ebit),
    ] {
        f.input(name, x, Shown::Amount(0));
    }
    let capital = e.working_capital + e.fixed_assets;
    f.result(
        "invested_capital",
        e.invested_capital,
        capital,
        capital,
        Shown::Amount(0),
    );
    f.check(
        "operating and financing invested capital agree",
        (e.book_equity + e.net_debt - capital).abs() < 1e-9,
    );
    let nopat = e.ebit * (1.0 - e.tax_rate);
    f.result("nopat", e.nopat, nopat, nopat, Shown::Amount(0));
    let roic = nopat / capital;
    f.result("roic", e.roic, roic, e.nopat / e.invested_capital, Shown::Percent(0));
    let profit = (roic - e.wacc) * capital;
    f.result(
        "economic_profit",
        e.economic_profit,
        profit,
        (e.roic - e.wacc) * e.invested_capital,
        Shown::Amount(0),
    );
    f.check("Company D earns more than its cost of capital", roic > e.wacc);
    let invested = nopat - e.fcff;
    f.result(
        "net_investment",
        e.net_investment,
        invested,
        e.nopat - e.fcff,
        Shown::Amount(0),
    );
    let rate = invested / nopat;
    f.result(
        "reinvestment_rate",
        e.reinvestment_rate,
        rate,
        e.net_investment / e.nopat,
        Shown::Percent(1),
    );
    f.result(
        "growth",
        e.growth,
        rate * roic,
        e.reinvestment_rate * e.roic,
        Shown::Percent(1),
    );
}

/// The NOPAT and reinvestment behind the DCF's terminal free cash flow at the stated RONIC;
/// returns the exact NOPAT of the first year after the forecast.
fn roic_terminal(e: &ReturnOnCapital, d: &Company, risk_free: f64, f: &mut Figures) -> f64 {
    let t = &e.terminal;
    f.same("terminal.growth", t.growth, d.terminal_growth, Shown::Percent(0));
    f.same("terminal.risk_free", t.risk_free, risk_free, Shown::Percent(0));
    f.input("terminal.ronic", t.ronic, Shown::Percent(1));
    let fcff = d.cash_flows[d.cash_flows.len() - 1] * (1.0 + t.growth);
    f.result("terminal.fcff", t.fcff, fcff, fcff, Shown::Amount(1));
    let rate = t.growth / t.ronic;
    f.result(
        "terminal.reinvestment_rate",
        t.reinvestment_rate,
        rate,
        rate,
        Shown::Percent(0),
    );
    let nopat = fcff / (1.0 - rate);
    f.result(
        "terminal.nopat",
        t.nopat,
        nopat,
        t.fcff / (1.0 - t.reinvestment_rate),
        Shown::Amount(0),
    );
    f.result(
        "terminal.reinvestment",
        t.reinvestment,
        nopat * rate,
        t.nopat * t.reinvestment_rate,
        Shown::Amount(1),
    );
    f.check(
        "terminal growth is no higher than the risk-free rate",
        t.growth <= risk_free,
    );
    f.check(
        "the terminal RONIC lies between the WACC and today's ROIC",
        e.wacc < t.ronic && t.ronic < e.roic,
    );
    nopat
}

/// Company D's value per share for a terminal value, with the explicit forecast of the DCF.
fn per_share(d: &Company, terminal_value: f64) -> f64 {
    let r = d.discount_rate;
    let ev = explicit_value(&d.cash_flows, r) + terminal_value / (1.0 + r).powi(d.cash_flows.len() as i32);
    (ev - d.net_debt) / d.shares
}

/// The same NOPAT and growth at several returns on new capital, and without growth.
fn roic_cases(e: &ReturnOnCapital, d: &Company, nopat: f64, f: &mut Figures) {
    let (g, r) = (e.terminal.growth, e.wacc);
    let shown_per_share = |tv: f64| (e.explicit_total + tv * e.discount_factor - e.net_debt) / e.shares;
    let flat_tv = nopat / r;
    let flat_value = per_share(d, flat_tv);
    for (i, c) in e.cases.iter().enumerate() {
        let name = format!("cases[{i}]");
        f.input(&format!("{name}.ronic"), c.ronic, Shown::Percent(1));
        let rate = g / c.ronic;
        let shown = Shown::Percent(0);
        f.result(
            &format!("{name}.reinvestment_rate"),
            c.reinvestment_rate,
            rate,
            rate,
            shown,
        );
        let fcff = nopat * (1.0 - rate);
        let from_shown = e.terminal.nopat * (1.0 - c.reinvestment_rate);
        f.result(&format!("{name}.fcff"), c.fcff, fcff, from_shown, Shown::Amount(1));
        let tv = fcff / (r - g);
        let shown_tv = c.fcff / (r - g);
        f.result(
            &format!("{name}.terminal_value"),
            c.terminal_value,
            tv,
            shown_tv,
            Shown::Amount(2),
        );
        let value = per_share(d, tv);
        let shown_value = shown_per_share(c.terminal_value);
        f.result(
            &format!("{name}.value_per_share"),
            c.value_per_share,
            value,
            shown_value,
            Shown::Dollars(2),
        );
        let (above, at) = (c.ronic > r + 1e-12, (c.ronic - r).abs() < 1e-12);
        f.check(
            &format!("{name}: growth adds value only when RONIC exceeds the WACC"),
            if at {
                (value - flat_value).abs() < 1e-9
            } else {
                (value > flat_value) == above
            },
        );
    }
    let first = &e.cases[0];
    f.check(
        "the first case is the DCF's terminal value and value per share",
        (first.ronic - e.terminal.ronic).abs() < 1e-12
            && (first.terminal_value - d.terminal_value).abs() < 1e-9
            && (first.value_per_share - d.value_per_share).abs() < 1e-9,
    );
    let z = &e.no_growth;
    f.result(
        "no_growth.terminal_value",
        z.terminal_value,
        flat_tv,
        e.terminal.nopat / r,
        Shown::Amount(2),
    );
    let shown_flat = shown_per_share(z.terminal_value);
    f.result(
        "no_growth.value_per_share",
        z.value_per_share,
        flat_value,
        shown_flat,
        Shown::Dollars(2),
    );
    let tv = nopat * (1.0 - g / first.ronic) / (r - g);
    f.check("growth at the stated RONIC adds value", tv > flat_tv);
    f.result(
        "no_growth.value_of_growth",
        z.value_of_growth,
        tv - flat_tv,
        first.terminal_value - z.terminal_value,
        Shown::Amount(2),
    );
}

/// Company D's value per share when growth after the forecast adds nothing, as the ROIC article
/// states it; the reverse DCF sets the market price beside it.
pub(super) fn no_growth_value_per_share() -> f64 {
    let pages = load("roic");
    let example = pages[0].front.example.as_ref().expect("roic.en.md has an example");
    parse::<ReturnOnCapital>(example, "roic").no_growth.value_per_share
}
