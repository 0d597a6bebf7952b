// The worked examples of the DCF, WACC and DDM articles, recomputed with the calculators' own
// arithmetic (`../dcf`, `../wacc`, `../ddm`).
import { dcf } from '../dcf';
import { gordon, hModel, multiStage } from '../ddm';
import { presentValue, sum } from '../discount';
import { wacc } from '../wacc';
import { amount, dollars, FACTOR, Figures, percent, plain, sensitivity, type Example } from './figures';

/** The discount factors of a table, each checked against 1/(1 + r)^t; returns the exact ones. */
export function discountFactors(f: Figures, name: string, n: number, rate: number): number[] {
  return Array.from({ length: n }, (_, t) => {
    const exact = presentValue(1, rate, t + 1);
    f.exact(`${name}[${t}]`, exact, FACTOR);
    return exact;
  });
}

/** The present value of the explicit forecast at rate `r`. */
export const explicitValue = (cashFlows: number[], r: number) => sum(cashFlows.map((cf, t) => presentValue(cf, r, t + 1)));

/** Company D's enterprise value for a discount rate and a terminal growth rate. */
export const companyValue = (d: Example, rate: number, growth: number) =>
  dcf({ cashFlows: d.cash_flows, rate, growth, netDebt: 0, shares: 1 }).enterpriseValue;

/** Company D's value per share for a discount rate and a terminal growth rate. */
export const companyValuePerShare = (d: Example, rate: number, growth: number) =>
  dcf({ cashFlows: d.cash_flows, rate, growth, netDebt: d.net_debt, shares: d.shares }).valuePerShare;

export function discountedCashFlowExample(f: Figures) {
  lottery(f);
  const c = f.example.company;
  const r = c.discount_rate;
  const n = c.cash_flows.length;
  f.check('one discount factor and present value per cash flow', n > 0 && c.present_values.length === n && c.discount_factors.length === n);
  f.check('terminal growth is below the discount rate', c.terminal_growth < r);
  f.input('company.discount_rate', percent(0));
  f.input('company.terminal_growth', percent(0));
  f.input('company.net_debt', amount(0));
  const exact = dcf({ cashFlows: c.cash_flows, rate: r, growth: c.terminal_growth, netDebt: c.net_debt, shares: c.shares });
  discountFactors(f, 'company.discount_factors', n, r);
  c.cash_flows.forEach((cf: number, t: number) => {
    f.input(`company.cash_flows[${t}]`, amount(0));
    f.result(`company.present_values[${t}]`, exact.presentValues[t], cf * c.discount_factors[t], amount(2));
  });
  f.result('company.explicit_total', exact.explicitTotal, sum(c.present_values), amount(2));
  f.exact('company.terminal_value', exact.terminalValue, amount(2));
  f.result('company.terminal_present_value', exact.terminalPresentValue, c.terminal_value * c.discount_factors[n - 1], amount(2));
  f.result('company.enterprise_value', exact.enterpriseValue, c.explicit_total + c.terminal_present_value, amount(2));
  f.result('company.equity_value', exact.equityValue, c.enterprise_value - c.net_debt, amount(2));
  f.result('company.value_per_share', exact.valuePerShare, c.equity_value / c.shares, dollars(2));
  // The text says the terminal value supplies about 71% of the enterprise value.
  f.check('the terminal value is about 71% of the total', Math.abs(exact.terminalPresentValue / exact.enterpriseValue - 0.71) < 0.005);
  // Cash arriving through the year is, on average, half a year earlier than year-end.
  const m = c.mid_year;
  const halfYear = Math.sqrt(1 + r);
  f.exact('company.mid_year.factor', halfYear, FACTOR);
  const evMid = exact.enterpriseValue * halfYear;
  f.result('company.mid_year.enterprise_value', evMid, c.enterprise_value * m.factor, amount(2));
  f.result('company.mid_year.equity_value', evMid - c.net_debt, m.enterprise_value - c.net_debt, amount(2));
  f.result('company.mid_year.value_per_share', (evMid - c.net_debt) / c.shares, m.equity_value / c.shares, dollars(2));
  sensitivity(f, 'company.sensitivity', [r, c.terminal_growth, c.value_per_share], dollars(2), (rate, g) =>
    companyValuePerShare(c, rate, g),
  );
  // The DCF page answers its grid question with what the reverse DCF article finds.
  f.showFrom('reverse-dcf', 'implied_growth', percent(2));
  f.showFrom('reverse-dcf', 'implied_rate', percent(2));
}

/** A prize now or a larger one later: its present value at two rates and the break-even rate. */
function lottery(f: Figures) {
  const l = f.example.lottery;
  f.input('lottery.prize_now', dollars(0));
  f.input('lottery.prize_later', dollars(0));
  f.input('lottery.rate', percent(0));
  f.input('lottery.higher_rate', percent(0));
  const pv = presentValue(l.prize_later, l.rate, l.years);
  f.exact('lottery.present_value', pv, dollars(2));
  const pvHigh = presentValue(l.prize_later, l.higher_rate, l.years);
  f.exact('lottery.present_value_at_higher_rate', pvHigh, dollars(2));
  f.exact('lottery.break_even_rate', (l.prize_later / l.prize_now) ** (1 / l.years) - 1, percent(2));
  f.check('waiting is worth more at the stated rate', pv > l.prize_now);
  f.check('taking the prize now is better at the higher rate', pvHigh < l.prize_now);
}

/** Hamada: the peers' business risk, levered up by a company's own debt. */
export const relever = (unlevered: number, taxRate: number, debtToEquity: number) => unlevered * (1 + (1 - taxRate) * debtToEquity);

export function costOfCapitalExample(f: Figures, d: Example) {
  const e = f.example;
  for (const input of ['risk_free', 'equity_risk_premium', 'tax_rate', 'pre_tax_cost_of_debt']) f.input(input, percent(0));
  f.input('unlevered_beta', plain(2));
  f.input('share_price', dollars(2));
  f.same('shares', d.shares, amount(0));
  f.same('debt', d.net_debt, amount(0));
  const marketCap = e.share_price * e.shares;
  f.exact('market_cap', marketCap, amount(0));
  const de = e.debt / marketCap;
  f.result('debt_to_equity', de, e.debt / e.market_cap, plain(2));
  const beta = relever(e.unlevered_beta, e.tax_rate, de);
  f.result('beta', beta, relever(e.unlevered_beta, e.tax_rate, e.debt_to_equity), plain(2));
  const inputs = { riskFree: e.risk_free, premium: e.equity_risk_premium, costOfDebt: e.pre_tax_cost_of_debt, taxRate: e.tax_rate };
  const exact = wacc({ ...inputs, beta, equity: marketCap, debt: e.debt });
  const shown = wacc({ ...inputs, beta: e.beta, equity: e.market_cap, debt: e.debt });
  f.result('cost_of_equity', exact.costOfEquity, shown.costOfEquity, percent(1));
  f.exact('after_tax_cost_of_debt', exact.afterTaxCostOfDebt, percent(1));
  f.result('equity_weight', exact.equityWeight, shown.equityWeight, percent(0));
  f.result('debt_weight', exact.debtWeight, shown.debtWeight, percent(0));
  f.result('wacc', exact.wacc, e.equity_weight * e.cost_of_equity + e.debt_weight * e.after_tax_cost_of_debt, percent(1));
  f.check('the WACC is the rate the DCF example discounts at', Math.abs(e.wacc - d.discount_rate) < 1e-9);
  f.check('debt is cheaper than equity after tax', exact.afterTaxCostOfDebt < exact.costOfEquity);
  f.check('the share trades below the DCF’s value per share', e.share_price < d.value_per_share);
}

export function dividendDiscountExample(f: Figures) {
  const e = f.example;
  const g = e.gordon;
  f.check('Gordon growth is below the required return', g.growth < g.required_return);
  f.input('gordon.last_dividend', dollars(2));
  f.input('gordon.growth', percent(0));
  f.input('gordon.required_return', percent(0));
  const { next, price } = gordon(g.last_dividend, g.growth, g.required_return);
  const spread = g.required_return - g.growth;
  f.exact('gordon.next_dividend', next, dollars(2));
  f.result('gordon.price', price, g.next_dividend / spread, dollars(2));
  // The text says one point more growth lifts the value by about a quarter.
  const faster = gordon(g.last_dividend, g.growth + 0.01, g.required_return).price;
  f.check('one point more growth lifts the value by about a quarter', Math.abs(faster / price - 1.25) < 0.03);
  justifiedMultiples(f, price);
  // H-model: growth fading in a straight line from the initial rate to the Gordon rate.
  const h = e.h_model;
  f.input('h_model.initial_growth', percent(0));
  f.input('h_model.years', plain(0));
  f.exact('h_model.half_life', h.years / 2, plain(0));
  f.same('h_model.stable_value', g.price, dollars(2));
  const fading = hModel(g.last_dividend, h.initial_growth, h.years / 2, g.growth, g.required_return);
  f.result(
    'h_model.extra_value',
    fading.growthPremium,
    (g.last_dividend * h.half_life * (h.initial_growth - g.growth)) / spread,
    dollars(2),
  );
  f.result('h_model.price', fading.price, h.stable_value + h.extra_value, dollars(2));
  // The Gordon price with dividends arriving mid-year on average.
  const halfYear = Math.sqrt(1 + g.required_return);
  f.exact('mid_year.factor', halfYear, FACTOR);
  f.result('mid_year.price', price * halfYear, g.price * e.mid_year.factor, dollars(2));
  sensitivity(
    f,
    'sensitivity',
    [g.required_return, g.growth, g.price],
    dollars(2),
    (r, growth) => gordon(g.last_dividend, growth, r).price,
  );
  multiStageExample(f);
}

/** Justified multiples of the same company: its growth must be the sustainable b × ROE. */
function justifiedMultiples(f: Figures, price: number) {
  const { gordon: g, justified: j } = f.example;
  const spread = g.required_return - g.growth;
  f.input('justified.eps', dollars(2));
  f.input('justified.roe', percent(0));
  const payout = g.last_dividend / j.eps;
  f.exact('justified.payout', payout, percent(0));
  f.result('justified.retention', 1 - payout, 1 - j.payout, percent(0));
  f.result('justified.growth', (1 - payout) * j.roe, j.retention * j.roe, percent(0));
  f.check('the Gordon example’s growth is the sustainable growth', Math.abs(j.growth - g.growth) < 1e-9);
  const nextEps = j.eps * (1 + g.growth);
  f.exact('justified.next_eps', nextEps, dollars(2));
  const bvps = nextEps / j.roe;
  f.result('justified.book_value_per_share', bvps, j.next_eps / j.roe, dollars(2));
  const trailing = (payout * (1 + g.growth)) / spread;
  f.result('justified.trailing_pe', trailing, (j.payout * (1 + j.growth)) / spread, plain(2));
  f.result('justified.leading_pe', payout / spread, j.payout / spread, plain(2));
  const pb = (j.roe - g.growth) / spread;
  f.result('justified.pb', pb, (j.roe - j.growth) / spread, plain(2));
  f.check(
    'the justified multiples give back the Gordon price',
    Math.abs(trailing * j.eps - price) < 1e-6 && Math.abs(pb * bvps - price) < 1e-6,
  );
}

/** A few years of high growth dividend by dividend, then a Gordon price at their end. */
function multiStageExample(f: Figures) {
  const m = f.example.multi_stage;
  const n = m.high_growth_years;
  f.check('stable growth is below the required return', m.stable_growth < m.required_return);
  f.check(
    'one dividend, discount factor and present value per high-growth year',
    n > 0 && m.dividends.length === n && m.present_values.length === n && m.discount_factors.length === n,
  );
  f.input('multi_stage.last_dividend', dollars(2));
  for (const input of ['high_growth', 'stable_growth', 'required_return']) f.input(`multi_stage.${input}`, percent(0));
  const exact = multiStage(m.last_dividend, m.high_growth, n, m.stable_growth, m.required_return);
  discountFactors(f, 'multi_stage.discount_factors', n, m.required_return);
  exact.dividends.forEach((_, t) => {
    const shownBefore = t === 0 ? m.last_dividend : m.dividends[t - 1];
    f.result(`multi_stage.dividends[${t}]`, exact.dividends[t], shownBefore * (1 + m.high_growth), dollars(2));
    f.result(`multi_stage.present_values[${t}]`, exact.presentValues[t], m.dividends[t] * m.discount_factors[t], dollars(2));
  });
  f.result('multi_stage.dividends_present_value', exact.dividendsPresentValue, sum(m.present_values), dollars(2));
  const spread = m.required_return - m.stable_growth;
  f.result('multi_stage.first_stable_dividend', exact.firstStableDividend, m.dividends[n - 1] * (1 + m.stable_growth), dollars(2));
  f.result('multi_stage.terminal_price', exact.terminalPrice, m.first_stable_dividend / spread, dollars(2));
  f.result('multi_stage.terminal_present_value', exact.terminalPresentValue, m.terminal_price * m.discount_factors[n - 1], dollars(2));
  f.result('multi_stage.price', exact.price, m.dividends_present_value + m.terminal_present_value, dollars(2));
  // The text says about 80% of the value comes after the high-growth years.
  f.check('the stable stage is about 80% of the value', Math.abs(exact.terminalPresentValue / exact.price - 0.8) < 0.005);
}
