// The articles that carry Company D of the DCF article further: ROIC and value drivers, the
// reverse DCF and the scenarios with their margin of safety, recomputed with the DCF calculator's
// own arithmetic (`../dcf`, `../reverseDcf`).
import { dcf } from '../dcf';
import { presentValue } from '../discount';
import { impliedGrowth, impliedReturn, marginOfSafety } from '../reverseDcf';
import { companyValue, companyValuePerShare, explicitValue } from './cashFlow';
import { amount, dollars, FACTOR, Figures, percent, plain, type Example } from './figures';

/** Company D's value per share for a terminal value, with the explicit forecast of the DCF. */
const perShare = (d: Example, terminalValue: number) =>
  (explicitValue(d.cash_flows, d.discount_rate) + presentValue(terminalValue, d.discount_rate, d.cash_flows.length) - d.net_debt) /
  d.shares;

/** Company D's return on invested capital, the growth its reinvestment buys, and its DCF's
 * terminal value recomputed from NOPAT, growth and the return on new capital. */
export function returnOnCapitalExample(f: Figures, d: Example, w: Example) {
  const e = f.example;
  const n = d.cash_flows.length;
  f.same('wacc', d.discount_rate, percent(0));
  f.same('tax_rate', w.tax_rate, percent(0));
  f.same('net_debt', d.net_debt, amount(0));
  f.same('fcff', d.cash_flows[0], amount(0));
  f.same('shares', d.shares, amount(0));
  f.same('explicit_total', d.explicit_total, amount(2));
  f.same('discount_factor', d.discount_factors[n - 1], FACTOR);
  // Invested capital from both sides of the balance sheet, NOPAT, ROIC and the growth that this
  // year's reinvestment buys.
  for (const input of ['working_capital', 'fixed_assets', 'book_equity', 'ebit']) f.input(input, amount(0));
  const capital = e.working_capital + e.fixed_assets;
  f.exact('invested_capital', capital, amount(0));
  f.check('operating and financing invested capital agree', Math.abs(e.book_equity + e.net_debt - capital) < 1e-9);
  const nopat = e.ebit * (1 - e.tax_rate);
  f.exact('nopat', nopat, amount(0));
  const roic = nopat / capital;
  f.result('roic', roic, e.nopat / e.invested_capital, percent(0));
  f.result('economic_profit', (roic - e.wacc) * capital, (e.roic - e.wacc) * e.invested_capital, amount(0));
  f.check('Company D earns more than its cost of capital', roic > e.wacc);
  const invested = nopat - e.fcff;
  f.result('net_investment', invested, e.nopat - e.fcff, amount(0));
  f.result('reinvestment_rate', invested / nopat, e.net_investment / e.nopat, percent(1));
  f.result('growth', (invested / nopat) * roic, e.reinvestment_rate * e.roic, percent(1));
  roicCases(f, d, roicTerminal(f, d, w.risk_free));
}

/** The NOPAT and reinvestment behind the DCF's terminal free cash flow at the stated RONIC;
 * returns the exact NOPAT of the first year after the forecast. */
function roicTerminal(f: Figures, d: Example, riskFree: number): number {
  const e = f.example;
  const t = e.terminal;
  f.same('terminal.growth', d.terminal_growth, percent(0));
  f.same('terminal.risk_free', riskFree, percent(0));
  f.input('terminal.ronic', percent(1));
  const fcff = d.cash_flows[d.cash_flows.length - 1] * (1 + t.growth);
  f.exact('terminal.fcff', fcff, amount(1));
  const rate = t.growth / t.ronic;
  f.exact('terminal.reinvestment_rate', rate, percent(0));
  const nopat = fcff / (1 - rate);
  f.result('terminal.nopat', nopat, t.fcff / (1 - t.reinvestment_rate), amount(0));
  f.result('terminal.reinvestment', nopat * rate, t.nopat * t.reinvestment_rate, amount(1));
  f.check('terminal growth is no higher than the risk-free rate', t.growth <= riskFree);
  f.check('the terminal RONIC lies between the WACC and today’s ROIC', e.wacc < t.ronic && t.ronic < e.roic);
  return nopat;
}

/** The same NOPAT and growth at several returns on new capital, and without growth. */
function roicCases(f: Figures, d: Example, nopat: number) {
  const e = f.example;
  const [g, r] = [e.terminal.growth, e.wacc];
  const shownPerShare = (tv: number) => (e.explicit_total + tv * e.discount_factor - e.net_debt) / e.shares;
  const flatTv = nopat / r;
  const flatValue = perShare(d, flatTv);
  e.cases.forEach((c: Example, i: number) => {
    const name = `cases[${i}]`;
    f.input(`${name}.ronic`, percent(1));
    const rate = g / c.ronic;
    f.exact(`${name}.reinvestment_rate`, rate, percent(0));
    const fcff = nopat * (1 - rate);
    f.result(`${name}.fcff`, fcff, e.terminal.nopat * (1 - c.reinvestment_rate), amount(1));
    const tv = fcff / (r - g);
    f.result(`${name}.terminal_value`, tv, c.fcff / (r - g), amount(2));
    const value = perShare(d, tv);
    f.result(`${name}.value_per_share`, value, shownPerShare(c.terminal_value), dollars(2));
    const [above, at] = [c.ronic > r + 1e-12, Math.abs(c.ronic - r) < 1e-12];
    f.check(
      `${name}: growth adds value only when RONIC exceeds the WACC`,
      at ? Math.abs(value - flatValue) < 1e-9 : value > flatValue === above,
    );
  });
  const first = e.cases[0];
  f.check(
    'the first case is the DCF’s terminal value and value per share',
    Math.abs(first.ronic - e.terminal.ronic) < 1e-12 &&
      Math.abs(first.terminal_value - d.terminal_value) < 1e-9 &&
      Math.abs(first.value_per_share - d.value_per_share) < 1e-9,
  );
  const z = e.no_growth;
  f.result('no_growth.terminal_value', flatTv, e.terminal.nopat / r, amount(2));
  f.result('no_growth.value_per_share', flatValue, shownPerShare(z.terminal_value), dollars(2));
  const tv = (nopat * (1 - g / first.ronic)) / (r - g);
  f.check('growth at the stated RONIC adds value', tv > flatTv);
  f.result('no_growth.value_of_growth', tv - flatTv, first.terminal_value - z.terminal_value, amount(2));
}

/** The input of the DCF calculator for Company D. */
const dcfInputOf = (d: Example) => ({
  cashFlows: d.cash_flows,
  rate: d.discount_rate,
  growth: d.terminal_growth,
  netDebt: d.net_debt,
  shares: d.shares,
});

/** Company D's share price read backwards through the DCF: the terminal growth it implies at each
 * discount rate of the sensitivity table, and the return it implies at the DCF's growth. */
export function reverseDcfExample(f: Figures, d: Example, w: Example, roic: Example) {
  const e = f.example;
  const n = d.cash_flows.length;
  f.same('price', w.share_price, dollars(2));
  f.same('shares', d.shares, amount(0));
  f.same('net_debt', d.net_debt, amount(0));
  f.same('dcf_enterprise_value', d.enterprise_value, amount(2));
  f.same('discount_rate', d.discount_rate, percent(0));
  f.same('explicit_total', d.explicit_total, amount(2));
  f.same('terminal_growth', d.terminal_growth, percent(0));
  f.same('value_per_share', d.value_per_share, dollars(2));
  f.same('last_cash_flow', d.cash_flows[n - 1], amount(0));
  const cap = e.price * e.shares;
  f.exact('market_cap', cap, amount(0));
  const ev = cap + e.net_debt;
  f.result('enterprise_value', ev, e.market_cap + e.net_debt, amount(0));
  // The terminal value and growth the price requires at the DCF's discount rate.
  const r = e.discount_rate;
  const last = e.last_cash_flow;
  const needed = ev - explicitValue(d.cash_flows, r);
  f.result('terminal_present_value', needed, e.enterprise_value - e.explicit_total, amount(2));
  const compound = (1 + r) ** n;
  f.exact('compound_factor', compound, FACTOR);
  const tv = needed * compound;
  f.result('terminal_value', tv, e.terminal_present_value * e.compound_factor, amount(0));
  f.result('growth_numerator', tv * r - last, e.terminal_value * r - last, amount(1));
  f.result('growth_denominator', tv + last, e.terminal_value + last, amount(0));
  const input = dcfInputOf(d);
  const g = impliedGrowth(input, e.price) ?? NaN;
  f.result('implied_growth', g, e.growth_numerator / e.growth_denominator, percent(2));
  // The closed form must agree with the model it inverts.
  f.check('the implied growth gives back the market’s enterprise value', Math.abs(companyValue(d, r, g) - ev) < 1e-6);
  f.check('the price implies less growth than the DCF assumes', g < e.terminal_growth);
  f.result('cash_flow_cut', 1 - ev / companyValue(d, r, e.terminal_growth), 1 - e.enterprise_value / e.dcf_enterprise_value, percent(1));
  f.same('no_growth_value', roic.no_growth.value_per_share, dollars(2));
  f.check('the price is just below the value without value from growth', e.price < e.no_growth_value && e.no_growth_value - e.price < 0.1);
  // The return the price implies at the DCF's terminal growth, found by bisection.
  const rate = impliedReturn(input, e.price) ?? NaN;
  f.exact('implied_rate', rate, percent(2));
  f.result('excess_return_points', (rate - r) * 100, (e.implied_rate - r) * 100, plain(2));
  f.check('the implied return lies between the table’s 10% and 11% rows', 0.1 < rate && rate < 0.11);
  reverseGrid(f, d);
}

/** The implied growth of every row of the DCF's sensitivity table, and the cells around the price. */
function reverseGrid(f: Figures, d: Example) {
  const e = f.example;
  const [table, grid] = [d.sensitivity, e.grid];
  f.check('one implied growth per row of the DCF’s table', JSON.stringify(grid.rates) === JSON.stringify(table.rates));
  f.check('one implied growth per rate', grid.growths.length === grid.rates.length);
  grid.rates.forEach((r: number, i: number) => {
    f.input(`grid.rates[${i}]`, percent(0));
    f.exact(`grid.growths[${i}]`, impliedGrowth({ ...dcfInputOf(d), rate: r }, e.price) ?? NaN, percent(2));
  });
  const cell = (r: number, g: number) =>
    table.values[table.rates.findIndex((x: number) => Math.abs(x - r) < 1e-12)]?.[
      table.growths.findIndex((x: number) => Math.abs(x - g) < 1e-12)
    ] ?? NaN;
  f.same('grid.below', cell(0.1, 0.01), dollars(2));
  f.same('grid.above', cell(0.1, 0.02), dollars(2));
  f.same('grid.higher_rate', cell(0.11, 0.02), dollars(2));
  f.same('grid.nearest', cell(0.11, 0.03), dollars(2));
  const p = e.price;
  f.check('the price lies between the 10% row’s 1% and 2% cells', grid.below < p && p < grid.above);
  f.check('the price lies between the 2% column’s 10% and 11% cells', grid.higher_rate < p && p < grid.above);
  const closest = table.values.flat().every((v: number) => Math.abs(v - p) >= Math.abs(grid.nearest - p));
  f.check('the 11%, 3% cell is the one nearest the price', closest);
}

/** Company D valued under bear, base and bull cases with the DCF's model, weighted by
 * probability, and set against its share price. */
export function marginOfSafetyExample(f: Figures, d: Example, w: Example, reverse: Example) {
  const e = f.example;
  const n = d.cash_flows.length;
  f.same('price', w.share_price, dollars(2));
  f.same('discount_rate', d.discount_rate, percent(0));
  f.same('net_debt', d.net_debt, amount(0));
  f.same('shares', d.shares, amount(0));
  f.same('discount_factor', d.discount_factors[n - 1], FACTOR);
  f.check('a bear, a base and a bull case', e.scenarios.length === 3);
  const values: number[] = e.scenarios.map((_: Example, i: number) => scenarioValue(f, i));
  const base = e.scenarios[1];
  f.check(
    'the base case is the DCF article’s forecast',
    JSON.stringify(base.cash_flows) === JSON.stringify(d.cash_flows) &&
      Math.abs(base.terminal_growth - d.terminal_growth) < 1e-12 &&
      Math.abs(base.value_per_share - d.value_per_share) < 1e-9,
  );
  f.check('the scenarios run from bear to bull', values[0] < values[1] && values[1] < values[2]);
  const total = e.scenarios.reduce((s: number, c: Example) => s + c.probability, 0);
  f.check('the probabilities add up to 100%', Math.abs(total - 1) < 1e-12);
  const weighted = margins(f, values);
  requiredMargin(f, d, values, weighted, reverse);
}

/** One scenario through the DCF's model; returns its exact value per share. */
function scenarioValue(f: Figures, i: number): number {
  const e = f.example;
  const s = e.scenarios[i];
  const name = `scenarios[${i}]`;
  const r = e.discount_rate;
  f.check(`${name}: growth is below the discount rate`, s.terminal_growth < r);
  f.input(`${name}.probability`, percent(0));
  // 2% in whole points, 2.5% with its half point, as the text writes them.
  const whole = Math.abs(Math.round(s.terminal_growth * 100) - s.terminal_growth * 100) < 1e-9;
  f.input(`${name}.terminal_growth`, percent(whole ? 0 : 1));
  s.cash_flows.forEach((_: number, t: number) => f.input(`${name}.cash_flows[${t}]`, amount(0)));
  const exact = dcf({ cashFlows: s.cash_flows, rate: r, growth: s.terminal_growth, netDebt: e.net_debt, shares: e.shares });
  f.exact(`${name}.explicit_total`, exact.explicitTotal, amount(2));
  f.exact(`${name}.terminal_value`, exact.terminalValue, amount(2));
  f.result(`${name}.enterprise_value`, exact.enterpriseValue, s.explicit_total + s.terminal_value * e.discount_factor, amount(2));
  f.result(`${name}.value_per_share`, exact.valuePerShare, (s.enterprise_value - e.net_debt) / e.shares, dollars(2));
  return exact.valuePerShare;
}

/** The weighted value, the range and the margins against the price; returns the exact weighted value. */
function margins(f: Figures, values: number[]): number {
  const e = f.example;
  const s = e.scenarios;
  const weighted = values.reduce((sum, v, i) => sum + s[i].probability * v, 0);
  const shownWeighted = s.reduce((sum: number, c: Example) => sum + c.probability * c.value_per_share, 0);
  f.result('weighted_value', weighted, shownWeighted, dollars(2));
  const [bear, base, bull] = values;
  const [shownBear, shownBase, shownBull] = s.map((c: Example) => c.value_per_share);
  const p = e.price;
  const pct = percent(1);
  const margin = (value: number) => marginOfSafety(value, p) ?? NaN;
  f.result('base_margin', margin(base), margin(shownBase), pct);
  const weightedMargin = margin(weighted);
  f.result('weighted_margin', weightedMargin, margin(e.weighted_value), pct);
  f.result('bear_downside', 1 - bear / base, 1 - shownBear / shownBase, pct);
  f.result('bull_upside', bull / base - 1, shownBull / shownBase - 1, pct);
  f.result('bear_loss', 1 - bear / p, 1 - shownBear / p, pct);
  f.result('bull_gain', bull / p - 1, shownBull / p - 1, pct);
  f.check('the downside is larger than the upside, so the weighted value is below the base', base - bear > bull - base && weighted < base);
  f.check('the price is below the weighted value, by less than against the base', 0 < weightedMargin && weightedMargin < margin(base));
  return weighted;
}

/** Why the margin against the base is not enough, and the price a wider margin asks for. */
function requiredMargin(f: Figures, d: Example, values: number[], weighted: number, reverse: Example) {
  const e = f.example;
  const [r, g, base] = [d.discount_rate, d.terminal_growth, values[1]];
  const shownBase = e.scenarios[1].value_per_share;
  const pct = percent(1);
  const lowGrowth = companyValuePerShare(d, r, g - 0.01);
  f.exact('growth_point_value', lowGrowth, dollars(2));
  const drop = 1 - lowGrowth / base;
  f.result('growth_point_drop', drop, 1 - e.growth_point_value / shownBase, pct);
  const highRate = companyValuePerShare(d, r + 0.01, g);
  f.exact('rate_point_value', highRate, dollars(2));
  const rateDrop = 1 - highRate / base;
  f.result('rate_point_drop', rateDrop, 1 - e.rate_point_value / shownBase, pct);
  f.same('implied_rate', reverse.implied_rate, percent(2));
  f.check('one point on either input moves the value by more than the margin', e.base_margin < Math.min(drop, rateDrop));
  f.check('the bear case is far below the base, by more than the margin', e.bear_downside > e.base_margin);
  f.input('required_margin', percent(0));
  const buy = weighted * (1 - e.required_margin);
  f.result('buy_below', buy, e.weighted_value * (1 - e.required_margin), dollars(2));
  f.result('bear_loss_at_buy', 1 - values[0] / buy, 1 - e.scenarios[0].value_per_share / e.buy_below, pct);
  f.check('the price to buy at is below the market price', buy < e.price);
}
