//! Reverse DCF: Company D's share price read backwards through the DCF, for the terminal growth
//! it implies at each discount rate of the sensitivity table and the return it implies at the
//! DCF's terminal growth (found by bisection, as the article explains).

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReverseDcf {
    price: f64,
    shares: f64,
    market_cap: f64,
    net_debt: f64,
    enterprise_value: f64,
    dcf_enterprise_value: f64,
    discount_rate: f64,
    explicit_total: f64,
    terminal_present_value: f64,
    compound_factor: f64,
    terminal_value: f64,
    last_cash_flow: f64,
    growth_numerator: f64,
    growth_denominator: f64,
    implied_growth: f64,
    terminal_growth: f64,
    value_per_share: f64,
    implied_rate: f64,
    excess_return_points: f64,
    cash_flow_cut: f64,
    no_growth_value: f64,
    grid: ImpliedGrid,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImpliedGrid {
    rates: Vec<f64>,
    growths: Vec<f64>,
    below: f64,
    above: f64,
    higher_rate: f64,
    nearest: f64,
}

/// The rate in `(low, high)` at which `f`, falling as the rate rises, reaches zero.
pub(super) fn bisect(f: impl Fn(f64) -> f64, mut low: f64, mut high: f64) -> f64 {
    assert!(
        f(low) > 0.0 && f(high) < 0.0,
        "bisection: the answer is not in the interval"
    );
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// The terminal growth at which Company D's enterprise value at rate `r` is `market_ev`.
fn implied_growth(d: &Company, r: f64, market_ev: f64) -> f64 {
    let n = d.cash_flows.len();
    let tv = (market_ev - explicit_value(&d.cash_flows, r)) * (1.0 + r).powi(n as i32);
    (tv * r - d.cash_flows[n - 1]) / (tv + d.cash_flows[n - 1])
}

pub(super) fn reverse_dcf(value: &serde_yaml::Value, f: &mut Figures) {
    let e: ReverseDcf = parse(value, "reverse-dcf");
    let (d, w) = (company_d(), roic::cost_of_capital_example());
    f.same("price", e.price, w.share_price, Shown::Dollars(2));
    f.same("shares", e.shares, d.shares, Shown::Amount(0));
    f.same("net_debt", e.net_debt, d.net_debt, Shown::Amount(0));
    f.same(
        "dcf_enterprise_value",
        e.dcf_enterprise_value,
        d.enterprise_value,
        Shown::Amount(2),
    );
    f.same("discount_rate", e.discount_rate, d.discount_rate, Shown::Percent(0));
    f.same("explicit_total", e.explicit_total, d.explicit_total, Shown::Amount(2));
    f.same(
        "terminal_growth",
        e.terminal_growth,
        d.terminal_growth,
        Shown::Percent(0),
    );
    f.same(
        "value_per_share",
        e.value_per_share,
        d.value_per_share,
        Shown::Dollars(2),
    );
    let n = d.cash_flows.len();
    f.same(
        "last_cash_flow",
        e.last_cash_flow,
        d.cash_flows[n - 1],
        Shown::Amount(0),
    );
    let cap = e.price * e.shares;
    f.result("market_cap", e.market_cap, cap, cap, Shown::Amount(0));
    let ev = cap + e.net_debt;
    f.result(
        "enterprise_value",
        e.enterprise_value,
        ev,
        e.market_cap + e.net_debt,
        Shown::Amount(0),
    );
    reverse_growth(&e, &d, ev, f);
    reverse_rate(&e, &d, ev, f);
    reverse_grid(&e, &d, ev, f);
}

/// The terminal value and growth the price requires at the DCF's discount rate.
fn reverse_growth(e: &ReverseDcf, d: &Company, ev: f64, f: &mut Figures) {
    let (r, n) = (e.discount_rate, d.cash_flows.len());
    let last = e.last_cash_flow;
    let needed = ev - explicit_value(&d.cash_flows, r);
    let shown_needed = e.enterprise_value - e.explicit_total;
    f.result(
        "terminal_present_value",
        e.terminal_present_value,
        needed,
        shown_needed,
        Shown::Amount(2),
    );
    let compound = (1.0 + r).powi(n as i32);
    f.result("compound_factor", e.compound_factor, compound, compound, FACTOR);
    let tv = needed * compound;
    let shown_tv = e.terminal_present_value * e.compound_factor;
    f.result("terminal_value", e.terminal_value, tv, shown_tv, Shown::Amount(0));
    let (top, bottom) = (tv * r - last, tv + last);
    let shown_top = e.terminal_value * r - last;
    f.result("growth_numerator", e.growth_numerator, top, shown_top, Shown::Amount(1));
    let shown_bottom = e.terminal_value + last;
    f.result(
        "growth_denominator",
        e.growth_denominator,
        bottom,
        shown_bottom,
        Shown::Amount(0),
    );
    let g = implied_growth(d, r, ev);
    let shown_g = e.growth_numerator / e.growth_denominator;
    f.result("implied_growth", e.implied_growth, g, shown_g, Shown::Percent(2));
    // The closed form must agree with the model it inverts.
    f.check(
        "the implied growth gives back the market's enterprise value",
        (company_value(&d.cash_flows, r, g) - ev).abs() < 1e-6,
    );
    f.check(
        "the price implies less growth than the DCF assumes",
        g < e.terminal_growth,
    );
    let cut = 1.0 - ev / company_value(&d.cash_flows, r, e.terminal_growth);
    let shown_cut = 1.0 - e.enterprise_value / e.dcf_enterprise_value;
    f.result("cash_flow_cut", e.cash_flow_cut, cut, shown_cut, Shown::Percent(1));
    let no_growth = roic::no_growth_value_per_share();
    f.same("no_growth_value", e.no_growth_value, no_growth, Shown::Dollars(2));
    f.check(
        "the price is just below the value without value from growth",
        e.price < e.no_growth_value && e.no_growth_value - e.price < 0.1,
    );
}

/// The return the price implies at the DCF's terminal growth.
fn reverse_rate(e: &ReverseDcf, d: &Company, ev: f64, f: &mut Figures) {
    let g = e.terminal_growth;
    let rate = bisect(|r| company_value(&d.cash_flows, r, g) - ev, g + 1e-6, 1.0);
    f.result("implied_rate", e.implied_rate, rate, rate, Shown::Percent(2));
    let points = (rate - e.discount_rate) * 100.0;
    let shown_points = (e.implied_rate - e.discount_rate) * 100.0;
    f.result(
        "excess_return_points",
        e.excess_return_points,
        points,
        shown_points,
        Shown::Plain(2),
    );
    f.check(
        "the implied return lies between the table's 10% and 11% rows",
        0.10 < rate && rate < 0.11,
    );
    for page in load("dcf") {
        for figure in [
            Shown::Percent(2).format(e.implied_growth),
            Shown::Percent(2).format(rate),
        ] {
            f.check(
                &format!("{}: the DCF page answers its grid question with {figure}", page.lang),
                page.text.contains(&figure),
            );
        }
    }
}

/// The implied growth of every row of the DCF's sensitivity table, and the cells around the price.
fn reverse_grid(e: &ReverseDcf, d: &Company, ev: f64, f: &mut Figures) {
    let (table, grid) = (&d.sensitivity, &e.grid);
    assert_eq!(
        grid.rates, table.rates,
        "reverse-dcf: one implied growth per row of the DCF's table"
    );
    assert_eq!(
        grid.growths.len(),
        grid.rates.len(),
        "reverse-dcf: one implied growth per rate"
    );
    for (i, (&r, &stated)) in grid.rates.iter().zip(&grid.growths).enumerate() {
        f.input(&format!("grid.rates[{i}]"), r, Shown::Percent(0));
        let g = implied_growth(d, r, ev);
        f.result(&format!("grid.growths[{i}]"), stated, g, g, Shown::Percent(2));
    }
    let cell = |r: f64, g: f64| {
        let i = table.rates.iter().position(|&x| (x - r).abs() < 1e-12).unwrap();
        let j = table.growths.iter().position(|&x| (x - g).abs() < 1e-12).unwrap();
        table.values[i][j]
    };
    f.same("grid.below", grid.below, cell(0.10, 0.01), Shown::Dollars(2));
    f.same("grid.above", grid.above, cell(0.10, 0.02), Shown::Dollars(2));
    f.same(
        "grid.higher_rate",
        grid.higher_rate,
        cell(0.11, 0.02),
        Shown::Dollars(2),
    );
    f.same("grid.nearest", grid.nearest, cell(0.11, 0.03), Shown::Dollars(2));
    let p = e.price;
    f.check(
        "the price lies between the 10% row's 1% and 2% cells",
        grid.below < p && p < grid.above,
    );
    f.check(
        "the price lies between the 2% column's 10% and 11% cells",
        grid.higher_rate < p && p < grid.above,
    );
    let closest = table
        .values
        .iter()
        .flatten()
        .all(|v| (v - p).abs() >= (grid.nearest - p).abs());
    f.check("the 11%, 3% cell is the one nearest the price", closest);
}

/// The return Company D's price implies at the DCF's terminal growth, as the reverse DCF states
/// it; the margin-of-safety article quotes it.
pub(super) fn implied_rate() -> f64 {
    let pages = load("reverse-dcf");
    let example = pages[0]
        .front
        .example
        .as_ref()
        .expect("reverse-dcf.en.md has an example");
    parse::<ReverseDcf>(example, "reverse-dcf").implied_rate
}
