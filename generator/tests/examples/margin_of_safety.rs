//! Scenarios and margin of safety: Company D valued under bear, base and bull cases with the DCF's
//! model, weighted by probability, and set against its share price.

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarginOfSafety {
    price: f64,
    discount_rate: f64,
    net_debt: f64,
    shares: f64,
    discount_factor: f64,
    scenarios: Vec<Scenario>,
    weighted_value: f64,
    base_margin: f64,
    weighted_margin: f64,
    bear_downside: f64,
    bull_upside: f64,
    bear_loss: f64,
    bull_gain: f64,
    growth_point_value: f64,
    growth_point_drop: f64,
    rate_point_value: f64,
    rate_point_drop: f64,
    implied_rate: f64,
    required_margin: f64,
    buy_below: f64,
    bear_loss_at_buy: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    probability: f64,
    cash_flows: Vec<f64>,
    terminal_growth: f64,
    explicit_total: f64,
    terminal_value: f64,
    enterprise_value: f64,
    value_per_share: f64,
}

pub(super) fn margin_of_safety(value: &serde_yaml::Value, f: &mut Figures) {
    let e: MarginOfSafety = parse(value, "margin-of-safety");
    let (d, w) = (company_d(), roic::cost_of_capital_example());
    f.same("price", e.price, w.share_price, Shown::Dollars(2));
    f.same("discount_rate", e.discount_rate, d.discount_rate, Shown::Percent(0));
    f.same("net_debt", e.net_debt, d.net_debt, Shown::Amount(0));
    f.same("shares", e.shares, d.shares, Shown::Amount(0));
    let n = d.cash_flows.len();
    f.same("discount_factor", e.discount_factor, d.discount_factors[n - 1], FACTOR);
    assert_eq!(e.scenarios.len(), 3, "margin-of-safety: a bear, a base and a bull case");
    let values: Vec<f64> = (e.scenarios.iter().enumerate())
        .map(|(i, s)| scenario_value(&e, i, s, f))
        .collect();
    let base = &e.scenarios[1];
    f.check(
        "the base case is the DCF article's forecast",
        base.cash_flows == d.cash_flows
            && (base.terminal_growth - d.terminal_growth).abs() < 1e-12
            && (base.value_per_share - d.value_per_share).abs() < 1e-9,
    );
    f.check(
        "the scenarios run from bear to bull",
        values.windows(2).all(|pair| pair[0] < pair[1]),
    );
    let total: f64 = e.scenarios.iter().map(|s| s.probability).sum();
    f.check("the probabilities add up to 100%", (total - 1.0).abs() < 1e-12);
    let weighted = margins(&e, &values, f);
    required_margin(&e, &d, &values, weighted, f);
}

/// One scenario through the DCF's model; returns its exact value per share.
fn scenario_value(e: &MarginOfSafety, i: usize, s: &Scenario, f: &mut Figures) -> f64 {
    let name = format!("scenarios[{i}]");
    let r = e.discount_rate;
    assert!(s.terminal_growth < r, "{name}: growth must be below the discount rate");
    f.input(&format!("{name}.probability"), s.probability, Shown::Percent(0));
    // 2% in whole points, 2.5% with its half point, as the text writes them.
    let whole = ((s.terminal_growth * 100.0).round() - s.terminal_growth * 100.0).abs() < 1e-9;
    let growth_shown = Shown::Percent(if whole { 0 } else { 1 });
    f.input(&format!("{name}.terminal_growth"), s.terminal_growth, growth_shown);
    for (t, &cf) in s.cash_flows.iter().enumerate() {
        f.input(&format!("{name}.cash_flows[{t}]"), cf, Shown::Amount(0));
    }
    let explicit = explicit_value(&s.cash_flows, r);
    f.result(
        &format!("{name}.explicit_total"),
        s.explicit_total,
        explicit,
        explicit,
        Shown::Amount(2),
    );
    let last = s.cash_flows[s.cash_flows.len() - 1];
    let tv = last * (1.0 + s.terminal_growth) / (r - s.terminal_growth);
    f.result(
        &format!("{name}.terminal_value"),
        s.terminal_value,
        tv,
        tv,
        Shown::Amount(2),
    );
    let ev = company_value(&s.cash_flows, r, s.terminal_growth);
    let shown_ev = s.explicit_total + s.terminal_value * e.discount_factor;
    f.result(
        &format!("{name}.enterprise_value"),
        s.enterprise_value,
        ev,
        shown_ev,
        Shown::Amount(2),
    );
    let value = (ev - e.net_debt) / e.shares;
    let shown_value = (s.enterprise_value - e.net_debt) / e.shares;
    f.result(
        &format!("{name}.value_per_share"),
        s.value_per_share,
        value,
        shown_value,
        Shown::Dollars(2),
    );
    value
}

/// The weighted value, the range and the margins against the price; returns the exact weighted
/// value.
fn margins(e: &MarginOfSafety, values: &[f64], f: &mut Figures) -> f64 {
    let s = &e.scenarios;
    let weighted: f64 = s.iter().zip(values).map(|(s, v)| s.probability * v).sum();
    let shown_weighted: f64 = s.iter().map(|s| s.probability * s.value_per_share).sum();
    f.result(
        "weighted_value",
        e.weighted_value,
        weighted,
        shown_weighted,
        Shown::Dollars(2),
    );
    let (bear, base, bull) = (values[0], values[1], values[2]);
    let (shown_bear, shown_base, shown_bull) = (s[0].value_per_share, s[1].value_per_share, s[2].value_per_share);
    let p = e.price;
    let pct = Shown::Percent(1);
    let base_margin = (base - p) / base;
    let shown_margin = (shown_base - p) / shown_base;
    f.result("base_margin", e.base_margin, base_margin, shown_margin, pct);
    let weighted_margin = (weighted - p) / weighted;
    let shown_weighted_margin = (e.weighted_value - p) / e.weighted_value;
    f.result(
        "weighted_margin",
        e.weighted_margin,
        weighted_margin,
        shown_weighted_margin,
        pct,
    );
    let shown_down = 1.0 - shown_bear / shown_base;
    f.result("bear_downside", e.bear_downside, 1.0 - bear / base, shown_down, pct);
    f.result(
        "bull_upside",
        e.bull_upside,
        bull / base - 1.0,
        shown_bull / shown_base - 1.0,
        pct,
    );
    f.result("bear_loss", e.bear_loss, 1.0 - bear / p, 1.0 - shown_bear / p, pct);
    f.result("bull_gain", e.bull_gain, bull / p - 1.0, shown_bull / p - 1.0, pct);
    f.check(
        "the downside is larger than the upside, so the weighted value is below the base",
        base - bear > bull - base && weighted < base,
    );
    f.check(
        "the price is below the weighted value, by less than against the base",
        0.0 < weighted_margin && weighted_margin < base_margin,
    );
    weighted
}

/// Why 4.5% is not enough, and the price a wider margin asks for.
fn required_margin(e: &MarginOfSafety, d: &Company, values: &[f64], weighted: f64, f: &mut Figures) {
    let (r, g, base) = (d.discount_rate, d.terminal_growth, values[1]);
    let at = |r: f64, g: f64| (company_value(&d.cash_flows, r, g) - d.net_debt) / d.shares;
    let shown_base = e.scenarios[1].value_per_share;
    let pct = Shown::Percent(1);
    let low_growth = at(r, g - 0.01);
    f.result(
        "growth_point_value",
        e.growth_point_value,
        low_growth,
        low_growth,
        Shown::Dollars(2),
    );
    let drop = 1.0 - low_growth / base;
    let shown_drop = 1.0 - e.growth_point_value / shown_base;
    f.result("growth_point_drop", e.growth_point_drop, drop, shown_drop, pct);
    let high_rate = at(r + 0.01, g);
    f.result(
        "rate_point_value",
        e.rate_point_value,
        high_rate,
        high_rate,
        Shown::Dollars(2),
    );
    let rate_drop = 1.0 - high_rate / base;
    let shown_rate_drop = 1.0 - e.rate_point_value / shown_base;
    f.result("rate_point_drop", e.rate_point_drop, rate_drop, shown_rate_drop, pct);
    f.same(
        "implied_rate",
        e.implied_rate,
        reverse_dcf::implied_rate(),
        Shown::Percent(2),
    );
    f.check(
        "one point on either input moves the value by more than the margin",
        e.base_margin < drop.min(rate_drop),
    );
    f.check(
        "the bear case is far below the base, by more than the margin",
        e.bear_downside > e.base_margin,
    );
    f.input("required_margin", e.required_margin, Shown::Percent(0));
    let buy = weighted * (1.0 - e.required_margin);
    let shown_buy = e.weighted_value * (1.0 - e.required_margin);
    f.result("buy_below", e.buy_below, buy, shown_buy, Shown::Dollars(2));
    let bear = values[0];
    let shown_loss = 1.0 - e.scenarios[0].value_per_share / e.buy_below;
    f.result(
        "bear_loss_at_buy",
        e.bear_loss_at_buy,
        1.0 - bear / buy,
        shown_loss,
        pct,
    );
    f.check("the price to buy at is below the market price", buy < e.price);
}
