// The worked case of the equity-research page: one company carried from its statements to a price
// (README, "Writing content"). Each step is recomputed from the inputs and from the figures shown
// one step earlier.
import { presentValue, sum } from '../discount';
import { dilutedShares } from '../multiples';
import { marginOfSafety } from '../reverseDcf';
import { wacc as costOfCapital } from '../wacc';
import { relever } from './cashFlow';
import { amount, dollars, FACTOR, Figures, MILLIONS, percent, plain, type Example } from './figures';

/** What turns a set of drivers into a value per share: the base year's revenue, the tax rate, the
 * return on new capital in the forecast, the discount rate and the claims ahead of the shares. */
interface Model {
  revenue: number;
  taxRate: number;
  roic: number;
  wacc: number;
  claims: number;
  shares: number;
}

/** The drivers a scenario or a reverse DCF changes. */
interface Drivers {
  growth: number[];
  margin: number;
  terminal_growth: number;
  ronic: number;
}

/** The exact value per share: FCFF = NOPAT − g ÷ ROIC × NOPAT for each forecast year, then a
 * terminal value whose reinvestment is g ÷ RONIC. */
function valuePerShare(m: Model, d: Drivers): number {
  let [revenue, nopat, explicit] = [m.revenue, 0, 0];
  d.growth.forEach((g, t) => {
    revenue *= 1 + g;
    nopat = revenue * d.margin * (1 - m.taxRate);
    explicit += presentValue(nopat * (1 - g / m.roic), m.wacc, t + 1);
  });
  const g = d.terminal_growth;
  const terminal = (nopat * (1 + g) * (1 - g / d.ronic)) / (m.wacc - g);
  return (explicit + presentValue(terminal, m.wacc, d.growth.length) - m.claims) / m.shares;
}

/** The driver at which the value equals `price`, by bisection over `[low, high]`, in which the
 * value rises with the driver; NaN when the price lies outside. */
function solve(price: number, [low, high]: [number, number], value: (x: number) => number): number {
  if (!(value(low) < price && price < value(high))) return NaN;
  for (let i = 0; i < 100; i++) {
    const mid = (low + high) / 2;
    if (value(mid) < price) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

const LINES = [
  'revenue',
  'operating_costs',
  'depreciation',
  'restructuring',
  'interest',
  'tax',
  'minority_share',
  'share_based_pay',
  'cash',
  'receivables',
  'inventories',
  'lease_assets',
  'goodwill',
  'payables',
  'lease_liabilities',
  'pension_deficit',
  'capex',
  'dividends',
  'minority_dividends',
  'net_borrowing',
];

function statements(f: Figures) {
  const s = f.example.statements;
  const n = s.years.length;
  f.check('three years of statements', n === 3);
  for (const line of LINES) {
    f.check(`${line}: one figure a year`, s[line].length === n);
    s[line].forEach((_: number, t: number) => f.input(`statements.${line}[${t}]`, MILLIONS));
  }
  // The opening year's balances, which the later years roll forward from.
  for (const line of ['equipment', 'borrowings', 'minority_interest', 'shareholders_equity', 'working_capital_increase']) {
    f.input(`statements.${line}[0]`, MILLIONS);
  }
  for (let t = 0; t < n; t++) {
    const total = (line: string, computed: number) => f.exact(`statements.${line}[${t}]`, computed, MILLIONS);
    total('operating_profit', s.revenue[t] - s.operating_costs[t] - s.depreciation[t] - s.restructuring[t]);
    total('pretax_profit', s.operating_profit[t] - s.interest[t]);
    total('net_income', s.pretax_profit[t] - s.tax[t]);
    total('shareholders_income', s.net_income[t] - s.minority_share[t]);
    balanceSheet(f, t);
    total('operating_cash_flow', s.net_income[t] + s.depreciation[t] + s.share_based_pay[t] - s.working_capital_increase[t]);
    total('financing_cash_flow', s.net_borrowing[t] - s.dividends[t] - s.minority_dividends[t]);
    total('change_in_cash', s.operating_cash_flow[t] - s.capex[t] + s.financing_cash_flow[t]);
  }
}

/** The balance sheet balances, and each year's balances roll forward from the year before through
 * the income and cash-flow statements. */
function balanceSheet(f: Figures, t: number) {
  const s = f.example.statements;
  const total = (line: string, computed: number) => f.exact(`statements.${line}[${t}]`, computed, MILLIONS);
  total('total_assets', s.cash[t] + s.receivables[t] + s.inventories[t] + s.equipment[t] + s.lease_assets[t] + s.goodwill[t]);
  total('total_liabilities', s.payables[t] + s.borrowings[t] + s.lease_liabilities[t] + s.pension_deficit[t]);
  f.check(
    `the balance sheet of year ${t} balances`,
    s.total_assets[t] === s.total_liabilities[t] + s.minority_interest[t] + s.shareholders_equity[t],
  );
  total('working_capital', s.receivables[t] + s.inventories[t] - s.payables[t]);
  if (t === 0) return;
  const p = t - 1;
  total('equipment', s.equipment[p] + s.capex[t] - s.depreciation[t]);
  total('borrowings', s.borrowings[p] + s.net_borrowing[t]);
  total('minority_interest', s.minority_interest[p] + s.minority_share[t] - s.minority_dividends[t]);
  total('shareholders_equity', s.shareholders_equity[p] + s.shareholders_income[t] - s.dividends[t] + s.share_based_pay[t]);
  total('working_capital_increase', s.working_capital[t] - s.working_capital[p]);
  f.check(`the change in cash of year ${t} is the balance sheet’s`, s.change_in_cash[t] === s.cash[t] - s.cash[p]);
  // Operating leases sit on both sides at the same amount: no cash moves.
  f.check('lease assets equal lease liabilities', s.lease_assets[t] === s.lease_liabilities[t]);
}

/** One-off items, the interest inside the lease cost and excess cash; returns the exact NOPAT. */
function normalisation(f: Figures): number {
  const { statements: s, normalisation: n } = f.example;
  const last = s.years.length - 1;
  for (const input of ['tax_rate', 'lease_rate', 'operating_cash_share']) f.input(`normalisation.${input}`, percent(0));
  f.exact('normalisation.effective_tax_rate', s.tax[last] / s.pretax_profit[last], percent(1));
  f.check(
    'the effective tax rate has been close to the statutory rate',
    s.years.every((_: number, t: number) => Math.abs(s.tax[t] / s.pretax_profit[t] - n.tax_rate) < 0.01),
  );
  const leaseInterest = s.lease_liabilities[last] * n.lease_rate;
  f.exact('normalisation.lease_interest', leaseInterest, amount(1));
  const ebit = s.operating_profit[last] + s.restructuring[last] + leaseInterest;
  f.result('normalisation.operating_profit', ebit, s.operating_profit[last] + s.restructuring[last] + n.lease_interest, amount(1));
  f.result('normalisation.margin', ebit / s.revenue[last], n.operating_profit / s.revenue[last], percent(0));
  const nopat = ebit * (1 - n.tax_rate);
  f.result('normalisation.nopat', nopat, n.operating_profit * (1 - n.tax_rate), amount(1));
  f.exact('normalisation.net_income', s.shareholders_income[last] + s.restructuring[last] * (1 - n.tax_rate), amount(1));
  const operatingCash = n.operating_cash_share * s.revenue[last];
  f.exact('normalisation.operating_cash', operatingCash, amount(1));
  f.result('normalisation.excess_cash', s.cash[last] - operatingCash, s.cash[last] - n.operating_cash, amount(1));
  return nopat;
}

/** Invested capital at both ends of the last year, the return on it, and the growth that
 * reinvestment at that return supports. */
function roic(f: Figures, nopat: number) {
  const { statements: s, normalisation: n, roic: r } = f.example;
  const last = s.years.length - 1;
  const openingCash = n.operating_cash_share * s.revenue[last - 1];
  f.exact('roic.operating_cash_opening', openingCash, amount(1));
  const capital = (t: number, cash: number) => s.working_capital[t] + cash + s.equipment[t] + s.lease_assets[t] + s.goodwill[t];
  const opening = capital(last - 1, openingCash);
  f.result('roic.invested_capital_opening', opening, capital(last - 1, r.operating_cash_opening), amount(1));
  const closing = capital(last, n.operating_cash_share * s.revenue[last]);
  f.result('roic.invested_capital', closing, capital(last, n.operating_cash), amount(1));
  const roic = nopat / opening;
  f.result('roic.roic', roic, n.nopat / r.invested_capital_opening, percent(1));
  f.exact('roic.net_capex', s.capex[last] - s.depreciation[last], MILLIONS);
  const cashIncrease = n.operating_cash_share * (s.revenue[last] - s.revenue[last - 1]);
  f.result('normalisation.operating_cash_increase', cashIncrease, n.operating_cash - r.operating_cash_opening, amount(1));
  const invested = closing - opening;
  f.result('roic.net_investment', invested, r.invested_capital - r.invested_capital_opening, amount(1));
  const byParts = r.net_capex + s.working_capital_increase[last] + n.operating_cash_increase;
  f.check('new capital is capex beyond depreciation plus working capital and cash', Math.abs(byParts - r.net_investment) < 1e-9);
  const rate = invested / nopat;
  f.result('roic.reinvestment_rate', rate, r.net_investment / n.nopat, percent(1));
  const growth = rate * roic;
  f.result('roic.implied_growth', growth, r.reinvestment_rate * r.roic, percent(1));
  const revenueGrowth = s.revenue[last] / s.revenue[last - 1] - 1;
  f.exact('roic.revenue_growth', revenueGrowth, percent(1));
  f.check('revenue grew faster than reinvestment supports', revenueGrowth > growth);
}

/** CAPM with a relevered industry beta, the after-tax cost of debt and market-value weights. */
function wacc(f: Figures) {
  const { wacc: w, bridge: b, statements: s, normalisation: n } = f.example;
  const last = s.years.length - 1;
  const tax = n.tax_rate;
  for (const input of ['risk_free', 'equity_risk_premium', 'pre_tax_cost_of_debt']) f.input(`wacc.${input}`, percent(0));
  f.input('wacc.unlevered_beta', plain(2));
  const average = (s.borrowings[last] + s.borrowings[last - 1]) / 2;
  f.exact('wacc.average_borrowings', average, MILLIONS);
  f.exact('wacc.interest_rate_paid', s.interest[last] / average, percent(1));
  const equity = f.example.price.price * b.diluted_shares;
  f.exact('wacc.market_cap', equity, MILLIONS);
  const debt = b.net_debt + s.lease_liabilities[last];
  f.exact('wacc.debt', debt, MILLIONS);
  f.exact('wacc.capital', w.market_cap + w.debt, MILLIONS);
  const de = debt / equity;
  f.result('wacc.debt_to_equity', de, w.debt / w.market_cap, plain(2));
  const beta = relever(w.unlevered_beta, tax, de);
  f.result('wacc.beta', beta, relever(w.unlevered_beta, tax, w.debt_to_equity), plain(2));
  const inputs = { riskFree: w.risk_free, premium: w.equity_risk_premium, costOfDebt: w.pre_tax_cost_of_debt, taxRate: tax };
  const exact = costOfCapital({ ...inputs, beta, equity, debt });
  const shown = costOfCapital({ ...inputs, beta: w.beta, equity: w.market_cap, debt: w.debt });
  f.result('wacc.cost_of_equity', exact.costOfEquity, shown.costOfEquity, percent(1));
  f.exact('wacc.after_tax_cost_of_debt', exact.afterTaxCostOfDebt, percent(1));
  f.result('wacc.equity_weight', exact.equityWeight, w.market_cap / w.capital, percent(1));
  f.result('wacc.debt_weight', exact.debtWeight, w.debt / w.capital, percent(1));
  f.result('wacc.wacc', exact.wacc, w.equity_weight * w.cost_of_equity + w.debt_weight * w.after_tax_cost_of_debt, percent(1));
  f.check('debt is cheaper than equity after tax', exact.afterTaxCostOfDebt < exact.costOfEquity);
  f.check('the company earns more than its cost of capital', f.example.roic.roic > w.wacc);
}

/** The five forecast years; returns the exact NOPAT of the last year and the exact present value
 * of the forecast. */
function forecast(f: Figures): [number, number] {
  const { forecast: p, normalisation: n, statements: s } = f.example;
  const lines = ['growth', 'revenue', 'nopat', 'reinvestment', 'fcff', 'discount_factors', 'present_values'];
  f.check(
    'forecast: one figure a year',
    lines.every((line) => p[line].length === p.years.length),
  );
  f.input('forecast.roic', percent(0));
  p.growth.forEach((_: number, t: number) => f.input(`forecast.growth[${t}]`, percent(1)));
  const afterTax = n.margin * (1 - n.tax_rate);
  f.exact('forecast.after_tax_margin', afterTax, percent(1));
  let [revenue, shownRevenue, nopat, explicit] = [s.revenue[s.revenue.length - 1], s.revenue[s.revenue.length - 1], 0, 0];
  p.growth.forEach((g: number, t: number) => {
    const name = (line: string) => `forecast.${line}[${t}]`;
    revenue *= 1 + g;
    f.result(name('revenue'), revenue, shownRevenue * (1 + g), amount(2));
    nopat = revenue * afterTax;
    f.result(name('nopat'), nopat, p.revenue[t] * afterTax, amount(2));
    const reinvestment = (g / p.roic) * nopat;
    f.result(name('reinvestment'), reinvestment, (g / p.roic) * p.nopat[t], amount(2));
    const fcff = nopat - reinvestment;
    f.result(name('fcff'), fcff, p.nopat[t] - p.reinvestment[t], amount(2));
    f.exact(name('discount_factors'), presentValue(1, f.example.wacc.wacc, t + 1), FACTOR);
    const pv = presentValue(fcff, f.example.wacc.wacc, t + 1);
    f.result(name('present_values'), pv, p.fcff[t] * p.discount_factors[t], amount(2));
    explicit += pv;
    shownRevenue = p.revenue[t];
  });
  f.result('forecast.explicit_total', explicit, sum(p.present_values), amount(1));
  return [nopat, explicit];
}

/** The value after the forecast, with its reinvestment tied to RONIC; returns the exact
 * enterprise value. */
function terminalValue(f: Figures, lastNopat: number, explicit: number): number {
  const { terminal: t, forecast: p } = f.example;
  const w = f.example.wacc.wacc;
  const n = p.years.length;
  f.input('terminal.growth', percent(0));
  f.input('terminal.ronic', percent(0));
  f.check('terminal growth is at most the risk-free rate', t.growth <= f.example.wacc.risk_free);
  f.check('new capital earns more than the WACC', t.ronic > w);
  const rate = t.growth / t.ronic;
  f.exact('terminal.reinvestment_rate', rate, percent(0));
  const nopat = lastNopat * (1 + t.growth);
  f.result('terminal.nopat', nopat, p.nopat[n - 1] * (1 + t.growth), amount(2));
  const fcff = nopat * (1 - rate);
  f.result('terminal.fcff', fcff, t.nopat * (1 - t.reinvestment_rate), amount(2));
  const value = fcff / (w - t.growth);
  f.result('terminal.value', value, t.fcff / (w - t.growth), amount(1));
  const pv = presentValue(value, w, n);
  f.result('terminal.present_value', pv, t.value * p.discount_factors[n - 1], amount(1));
  const ev = explicit + pv;
  f.result('terminal.enterprise_value', ev, p.explicit_total + t.present_value, amount(1));
  f.result('terminal.share_of_value', pv / ev, t.present_value / t.enterprise_value, percent(0));
  return ev;
}

/** Every claim ahead of the shares, and the shares fully diluted; returns the exact claims and
 * diluted share count. */
function equityBridge(f: Figures): [number, number] {
  const { bridge: b, statements: s, normalisation: n } = f.example;
  const price = f.example.price.price;
  const last = s.years.length - 1;
  f.input('bridge.minority_pe', plain(1));
  for (const input of ['basic_shares', 'options', 'rsus']) f.input(`bridge.${input}`, MILLIONS);
  f.input('bridge.strike', dollars(2));
  f.input('price.price', dollars(2));
  const netDebt = s.borrowings[last] - (s.cash[last] - n.operating_cash_share * s.revenue[last]);
  f.result('bridge.net_debt', netDebt, s.borrowings[last] - n.excess_cash, amount(1));
  const pension = s.pension_deficit[last] * (1 - n.tax_rate);
  f.exact('bridge.pension_after_tax', pension, amount(1));
  const minority = s.minority_share[last] * b.minority_pe;
  f.exact('bridge.minority_value', minority, amount(1));
  f.check('minority interests are worth more than their book value', minority > s.minority_interest[last]);
  const claims = netDebt + s.lease_liabilities[last] + pension + minority;
  const claimsShown = b.net_debt + s.lease_liabilities[last] + b.pension_after_tax + b.minority_value;
  f.result('bridge.claims', claims, claimsShown, amount(1));
  f.check('the options are in the money', b.strike < price);
  f.exact('bridge.exercise_proceeds', b.options * b.strike, MILLIONS);
  const { repurchased, diluted } = dilutedShares(price, b.basic_shares, b.options, b.strike);
  f.result('bridge.repurchased', repurchased, b.exercise_proceeds / price, amount(1));
  f.result('bridge.option_shares', b.options - repurchased, b.options - b.repurchased, amount(1));
  f.result('bridge.diluted_shares', diluted + b.rsus, b.basic_shares + b.options - b.repurchased + b.rsus, amount(1));
  return [claims, diluted + b.rsus];
}

export function equityResearchExample(f: Figures) {
  const c = f.example;
  statements(f);
  roic(f, normalisation(f));
  wacc(f);
  const [lastNopat, explicit] = forecast(f);
  const ev = terminalValue(f, lastNopat, explicit);
  const [claims, shares] = equityBridge(f);
  const b = c.bridge;
  f.result('bridge.equity_value', ev - claims, c.terminal.enterprise_value - b.claims, amount(1));
  const value = (ev - claims) / shares;
  f.result('bridge.value_per_share', value, b.equity_value / b.diluted_shares, dollars(2));
  const s = c.statements;
  const m: Model = {
    revenue: s.revenue[s.revenue.length - 1],
    taxRate: c.normalisation.tax_rate,
    roic: c.forecast.roic,
    wacc: c.wacc.wacc,
    claims,
    shares,
  };
  f.check('the model reproduces the forecast’s value', Math.abs(valuePerShare(m, c.scenarios[1]) - value) < 1e-9);
  const weighted = scenarios(f, m, value);
  priceChecks(f, m, value, weighted);
}

/** Each scenario recomputed through the whole model, and their probability-weighted value;
 * returns the exact weighted value. */
function scenarios(f: Figures, m: Model, baseValue: number): number {
  const c = f.example;
  f.check('the scenarios and their order', c.scenarios.map((s: Example) => s.name).join() === 'bull,base,bear');
  f.check('the probabilities add up to one', Math.abs(sum(c.scenarios.map((s: Example) => s.probability)) - 1) < 1e-9);
  let [weighted, weightedShown] = [0, 0];
  c.scenarios.forEach((s: Example, i: number) => {
    const name = (what: string) => `scenarios[${i}].${what}`;
    f.input(name('probability'), percent(0));
    s.growth.forEach((_: number, t: number) => f.input(name(`growth[${t}]`), percent(1)));
    f.input(name('margin'), percent(0));
    f.input(name('terminal_growth'), percent(0));
    f.input(name('ronic'), percent(1));
    f.check(name('terminal growth is at most the risk-free rate'), s.terminal_growth <= c.wacc.risk_free);
    f.check(name('new capital earns at least the WACC'), s.ronic >= c.wacc.wacc);
    const value = valuePerShare(m, s as Drivers);
    f.exact(name('value_per_share'), value, dollars(2));
    weighted += s.probability * value;
    weightedShown += s.probability * s.value_per_share;
  });
  const base = c.scenarios[1];
  f.check(
    'the base scenario is the forecast',
    base.growth.join() === c.forecast.growth.join() &&
      base.margin === c.normalisation.margin &&
      base.terminal_growth === c.terminal.growth &&
      base.ronic === c.terminal.ronic &&
      Math.abs(base.value_per_share - c.bridge.value_per_share) < 1e-9 &&
      Math.abs(valuePerShare(m, base) - baseValue) < 1e-9,
  );
  f.check('the bear case’s new capital earns only the WACC', c.scenarios[2].ronic === c.wacc.wacc);
  f.result('weighted_value', weighted, weightedShown, dollars(2));
  return weighted;
}

/** The margin of safety, the scenarios' upside and downside, what the price implies read
 * backwards through the base case, and the P/E cross-check. */
function priceChecks(f: Figures, m: Model, value: number, weighted: number) {
  const { price: p, bridge: b, scenarios: cases } = f.example;
  const [bull, base, bear] = cases as Drivers[];
  const stated = b.value_per_share;
  f.input('price.required_margin', percent(0));
  const margin = (v: number) => marginOfSafety(v, p.price) ?? NaN;
  f.result('price.margin_of_safety', margin(value), margin(stated), percent(1));
  f.result('price.weighted_margin_of_safety', margin(weighted), margin(f.example.weighted_value), percent(1));
  f.result('price.buy_below', value * (1 - p.required_margin), stated * (1 - p.required_margin), dollars(2));
  f.check('the price is above the buy-below price', p.price > p.buy_below);
  const up = (v: number) => (v - p.price) / p.price;
  const bearExact = valuePerShare(m, bear);
  f.result('price.bull_upside', up(valuePerShare(m, bull)), up(cases[0].value_per_share), percent(1));
  f.result('price.bear_downside', up(bearExact), up(cases[2].value_per_share), percent(1));
  f.check('the bear case is below the price', bearExact < p.price);
  const growth = solve(p.price, [-0.2, 0.2], (g) => valuePerShare(m, { ...base, growth: base.growth.map(() => g) }));
  f.exact('price.implied_growth', growth, percent(1));
  const impliedMargin = solve(p.price, [0.05, 0.25], (x) => valuePerShare(m, { ...base, margin: x }));
  f.exact('price.implied_margin', impliedMargin, percent(1));
  f.check('the implied margin is the bear case’s', Math.abs(impliedMargin - bear.margin) < 0.0005);
  const eps = f.example.normalisation.net_income / b.diluted_shares;
  f.exact('price.eps', eps, dollars(2));
  f.result('price.pe_at_price', p.price / eps, p.price / p.eps, plain(1));
  f.result('price.pe_at_value', value / eps, stated / p.eps, plain(1));
  f.check('the value’s P/E is close to the minority interests’', Math.abs(p.pe_at_value - b.minority_pe) < 2);
}
