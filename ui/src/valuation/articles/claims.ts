// The worked examples of full dilution, residual income and where a valuation's market inputs
// come from, recomputed from the examples they continue.
import { dilutedShares } from '../multiples';
import { perpetuity, presentValue, sum } from '../discount';
import { wacc } from '../wacc';
import { relever } from './cashFlow';
import { amount, dollars, Figures, percent, plain, type Example } from './figures';

/** Company D of the DCF article with illustrative claims added: from its enterprise value to a
 * fully diluted value per share. */
export function fullDilutionExample(f: Figures, d: Example, w: Example) {
  const e = f.example;
  f.same('enterprise_value', d.enterprise_value, amount(2));
  f.same('net_debt', d.net_debt, amount(0));
  f.same('shares', d.shares, amount(0));
  f.same('value_per_share', d.value_per_share, dollars(2));
  f.same('share_price', w.share_price, dollars(2));
  // Stock pay added back to a cash flow that grows with the business: the value it adds is a
  // growing perpetuity of a cost the shareholders do bear.
  const s = e.stock_pay;
  f.input('stock_pay.annual', amount(0));
  f.same('stock_pay.growth', d.terminal_growth, percent(0));
  f.same('stock_pay.rate', d.discount_rate, percent(0));
  const overstated = perpetuity(s.annual, s.rate, s.growth);
  f.exact('stock_pay.value', overstated, amount(0));
  f.result('stock_pay.per_share', overstated / e.shares, s.value / e.shares, dollars(2));
  f.check('the stock pay added back is about a tenth of the value per share', Math.abs(s.per_share / e.value_per_share - 0.1) < 0.005);
  const equity = debtLike(f, w);
  const [diluted, dilutedValue] = optionsAndRsus(f, equity);
  convertible(f, equity, diluted, dilutedValue);
}

/** The debt-like claims between enterprise value and equity value; returns the exact equity value. */
function debtLike(f: Figures, w: Example): number {
  const e = f.example;
  const [p, m] = [e.pension, e.minority];
  f.input('leases', amount(0));
  f.input('pension.deficit', amount(0));
  f.same('pension.tax_rate', w.tax_rate, percent(0));
  // Contributions that close the deficit are tax-deductible, so the claim is the deficit after tax.
  const pension = p.deficit * (1 - p.tax_rate);
  f.exact('pension.after_tax', pension, amount(0));
  f.input('minority.subsidiary_value', amount(0));
  f.input('minority.stake', percent(0));
  f.input('minority.book_value', amount(0));
  const minority = m.subsidiary_value * m.stake;
  f.exact('minority.market_value', minority, amount(0));
  f.check('the outside owners’ stake is worth more than its book value', minority > m.book_value);
  const equity = e.enterprise_value - e.net_debt - e.leases - pension - minority;
  f.result('equity_value', equity, e.enterprise_value - e.net_debt - e.leases - p.after_tax - m.market_value, amount(2));
  f.result('basic_value_per_share', equity / e.shares, e.equity_value / e.shares, dollars(2));
  return equity;
}

/** Options by the treasury-stock method at the market price, RSUs in full; returns the exact
 * diluted share count and value per share. */
function optionsAndRsus(f: Figures, equity: number): [number, number] {
  const e = f.example;
  const o = e.options;
  f.input('options.count', amount(0));
  f.input('options.strike', dollars(2));
  f.input('rsus', amount(1));
  f.check('the options are in the money', o.strike < e.share_price);
  const { repurchased, diluted: withOptions } = dilutedShares(e.share_price, e.shares, o.count, o.strike);
  f.exact('options.proceeds', o.count * o.strike, amount(0));
  f.result('options.repurchased', repurchased, o.proceeds / e.share_price, amount(0));
  f.result('options.added', o.count - repurchased, o.count - o.repurchased, amount(0));
  const diluted = withOptions + e.rsus;
  f.result('diluted_shares', diluted, e.shares + o.added + e.rsus, amount(1));
  const value = equity / diluted;
  f.result('diluted_value_per_share', value, e.equity_value / e.diluted_shares, dollars(2));
  return [diluted, value];
}

/** If-converted: the bond leaves the debt and its shares join the count; the lower value per share
 * is the one to keep, and it is lower exactly when the holders would convert. */
function convertible(f: Figures, equity: number, diluted: number, dilutedValue: number) {
  const e = f.example;
  const c = e.convertible;
  f.input('convertible.face', amount(0));
  f.input('convertible.shares', amount(0));
  const conversionPrice = c.face / c.shares;
  f.exact('convertible.conversion_price', conversionPrice, dollars(2));
  f.result('convertible.equity_value', equity + c.face, e.equity_value + c.face, amount(2));
  f.result('convertible.diluted_shares', diluted + c.shares, e.diluted_shares + c.shares, amount(1));
  const value = (equity + c.face) / (diluted + c.shares);
  f.result('convertible.value_per_share', value, c.equity_value / c.diluted_shares, dollars(2));
  f.check('the holders convert: the value per share is above the conversion price', value > conversionPrice);
  f.check('conversion dilutes: the if-converted value is below the value with the bond as debt', value < dilutedValue);
  f.result('decline', 1 - value / e.value_per_share, 1 - c.value_per_share / e.value_per_share, percent(0));
  f.result('price_premium', e.share_price / value - 1, e.share_price / c.value_per_share - 1, percent(1));
  f.check('the price below the DCF’s value is above the fully diluted value', e.share_price < e.value_per_share && e.share_price > value);
}

/** Bank C of the P/B article valued from its book value and the income it earns above the
 * shareholders' required return, first at a steady ROE, then with weaker years. */
export function residualIncomeExample(f: Figures, bank: Example) {
  const e = f.example;
  const s = e.single;
  const j = bank.justified;
  f.same('single.book_value_per_share', bank.book_value_per_share, dollars(2));
  f.same('single.roe', j.roe, percent(0));
  f.same('single.required_return', j.required_return, percent(0));
  f.same('single.payout', j.payout, percent(0));
  const [r, b] = [s.required_return, s.book_value_per_share];
  const g = (1 - s.payout) * s.roe;
  f.exact('single.growth', g, percent(1));
  const residual = ((s.roe - r) * b) / (r - g);
  f.result('single.residual_value', residual, ((s.roe - r) * b) / (r - s.growth), dollars(2));
  f.result('single.value', b + residual, b + s.residual_value, dollars(2));
  f.result('single.pb', (b + residual) / b, s.value / b, plain(2));
  f.check('the single-stage P/B is the P/B article’s justified P/B', Math.abs(s.pb - j.pb) < 1e-9);
  // With clean surplus the Gordon price of the dividends is the same number.
  const next = s.payout * s.roe * b;
  f.exact('single.next_dividend', next, dollars(2));
  f.check('the single-stage value is the Gordon value of the dividends', Math.abs(perpetuity(next, r, g) - (b + residual)) < 1e-9);
  const c = e.forecast;
  const n = c.roes.length;
  const columns = ['net_incomes', 'dividends', 'closing_book_values', 'equity_charges', 'residual_incomes', 'divisors', 'present_values'];
  f.check('one figure per forecast year in every column', n > 0 && [...columns, 'dividend_present_values'].every((k) => c[k].length === n));
  f.same('forecast.book_value', bank.book_value, amount(0));
  f.same('forecast.shares', bank.shares, amount(0));
  f.same('forecast.price', bank.price, dollars(2));
  let [book, shownBook, exactSum] = [c.book_value, c.book_value, 0];
  for (let t = 0; t < n; t++) {
    const [closing, pv] = residualIncomeYear(f, t, book, shownBook);
    exactSum += pv;
    book = closing;
    shownBook = c.closing_book_values[t];
  }
  f.result('forecast.residual_present_value', exactSum, sum(c.present_values), amount(2));
  const value = residualIncomeTerminal(f, book, exactSum);
  asDividends(f, book, value);
}

/** One forecast year: income on the opening book value, the dividend, the equity charge and the
 * residual income; returns the exact closing book value and present value of the residual income. */
function residualIncomeYear(f: Figures, t: number, book: number, shownBook: number): [number, number] {
  const { single: s, forecast: c } = f.example;
  const [r, payout, roe] = [s.required_return, s.payout, c.roes[t]];
  const name = (column: string) => `forecast.${column}[${t}]`;
  f.input(name('roes'), percent(0));
  const divisor = (1 + r) ** (t + 1);
  f.exact(name('divisors'), divisor, plain(t + 1));
  const income = roe * book;
  f.result(name('net_incomes'), income, roe * shownBook, amount(2));
  const dividend = payout * income;
  f.result(name('dividends'), dividend, payout * c.net_incomes[t], amount(2));
  const charge = r * book;
  f.result(name('equity_charges'), charge, r * shownBook, amount(2));
  const residual = income - charge;
  f.result(name('residual_incomes'), residual, c.net_incomes[t] - c.equity_charges[t], amount(2));
  f.check('residual income is negative exactly when ROE is below the required return', residual < -1e-9 === roe < r);
  f.result(name('present_values'), residual / divisor, c.residual_incomes[t] / c.divisors[t], amount(2));
  // Clean surplus: book value changes only by income kept, not by anything bypassing income.
  const closing = book + income - dividend;
  f.result(name('closing_book_values'), closing, shownBook + c.net_incomes[t] - c.dividends[t], amount(2));
  return [closing, residual / divisor];
}

/** From the last forecast year on, Bank C earns its steady ROE and grows at b × ROE; returns the
 * exact value of the equity. */
function residualIncomeTerminal(f: Figures, book: number, exactSum: number): number {
  const { single: s, forecast: c } = f.example;
  const [r, n] = [s.required_return, c.roes.length];
  const g = (1 - s.payout) * s.roe;
  const lastBook = c.closing_book_values[n - 1];
  const terminal = ((s.roe - r) * book) / (r - g);
  f.result('forecast.terminal_value', terminal, ((s.roe - r) * lastBook) / (r - s.growth), amount(2));
  const terminalPv = presentValue(terminal, r, n);
  f.result('forecast.terminal_present_value', terminalPv, c.terminal_value / c.divisors[n - 1], amount(2));
  const value = c.book_value + exactSum + terminalPv;
  f.result('forecast.value', value, c.book_value + c.residual_present_value + c.terminal_present_value, amount(2));
  f.result('forecast.value_per_share', value / c.shares, c.value / c.shares, dollars(2));
  f.result('forecast.pb', value / c.book_value, c.value / c.book_value, plain(2));
  f.result('forecast.shortfall', s.value - value / c.shares, s.value - c.value_per_share, dollars(2));
  f.check('the weak years leave the value below the single-stage value', value / c.shares < s.value);
  f.check('the market price is above the value', c.price > value / c.shares);
  return value;
}

/** The same forecast valued by its dividends (the DDM): with clean surplus it gives the same value. */
function asDividends(f: Figures, book: number, value: number) {
  const { single: s, forecast: c } = f.example;
  const [r, n] = [s.required_return, c.roes.length];
  // The forecast years' dividends, rebuilt from the ROEs and clean surplus.
  let [exactSum, opening] = [0, c.book_value];
  c.roes.forEach((roe: number, t: number) => {
    const dividend = s.payout * roe * opening;
    const pv = presentValue(dividend, r, t + 1);
    f.result(`forecast.dividend_present_values[${t}]`, pv, c.dividends[t] / c.divisors[t], amount(2));
    exactSum += pv;
    opening += roe * opening - dividend;
  });
  f.result('forecast.dividends_present_value', exactSum, sum(c.dividend_present_values), amount(2));
  const lastBook = c.closing_book_values[n - 1];
  const g = (1 - s.payout) * s.roe;
  const next = s.payout * s.roe * book;
  f.result('forecast.next_dividend', next, s.payout * s.roe * lastBook, amount(2));
  // From the book value rather than the rounded dividend: dividing by r − g would magnify its rounding.
  const price = perpetuity(next, r, g);
  f.result('forecast.terminal_price', price, perpetuity(s.payout * s.roe * lastBook, r, s.growth), amount(2));
  f.result('forecast.terminal_pb', price / book, c.terminal_price / lastBook, plain(2));
  f.check('the terminal price is book value times the justified P/B', Math.abs(c.terminal_pb - s.pb) < 1e-9);
  f.result('forecast.terminal_price_present_value', presentValue(price, r, n), c.terminal_price / c.divisors[n - 1], amount(2));
  const ddm = exactSum + presentValue(price, r, n);
  f.result('forecast.ddm_value', ddm, c.dividends_present_value + c.terminal_price_present_value, amount(2));
  f.result('forecast.terminal_price_share', presentValue(price, r, n) / ddm, c.terminal_price_present_value / c.ddm_value, percent(0));
  f.check('the dividends give the same value as residual income', Math.abs(ddm - value) < 1e-6 && c.ddm_value === c.value);
}

/** "Where the numbers come from": the industry beta of Company D's peers, unlevered and relevered
 * into the WACC article's beta, against a regression beta; and two estimates of the equity risk
 * premium. */
export function marketInputsExample(f: Figures, w: Example) {
  const e = f.example;
  f.same('risk_free', w.risk_free, percent(0));
  f.same('equity_risk_premium', w.equity_risk_premium, percent(0));
  // Each peer's beta without its debt.
  const unlevered = e.peers.map((p: Example, i: number) => {
    const name = `peers[${i}]`;
    f.input(`${name}.levered_beta`, plain(2));
    f.input(`${name}.debt_to_equity`, plain(2));
    f.input(`${name}.tax_rate`, percent(0));
    const factor = relever(1, p.tax_rate, p.debt_to_equity);
    f.exact(`${name}.factor`, factor, plain(2));
    f.result(`${name}.unlevered_beta`, p.levered_beta / factor, p.levered_beta / p.factor, plain(2));
    return p.levered_beta / factor;
  });
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  f.check('the peers’ debt explains most of their spread', spread(unlevered) < spread(e.peers.map((p: Example) => p.levered_beta)));
  const mean = (xs: number[]) => sum(xs) / xs.length;
  const industry = mean(unlevered);
  f.result('industry_unlevered_beta', industry, mean(e.peers.map((p: Example) => p.unlevered_beta)), plain(2));
  f.check('the industry beta is the WACC article’s unlevered beta', Math.abs(e.industry_unlevered_beta - w.unlevered_beta) < 1e-9);
  f.same('net_debt', w.debt, amount(0));
  f.same('market_cap', w.market_cap, amount(0));
  f.same('debt_to_equity', w.debt_to_equity, plain(2));
  f.same('tax_rate', w.tax_rate, percent(0));
  const de = e.net_debt / e.market_cap;
  f.result('beta', relever(industry, e.tax_rate, de), relever(e.industry_unlevered_beta, e.tax_rate, de), plain(2));
  f.check('the beta is the WACC article’s', Math.abs(e.beta - w.beta) < 1e-9);
  const costOfEquity = (beta: number) =>
    wacc({ riskFree: e.risk_free, beta, premium: e.equity_risk_premium, costOfDebt: 0, taxRate: 0, equity: 1, debt: 0 }).costOfEquity;
  f.exact('cost_of_equity', costOfEquity(e.beta), percent(1));
  f.check('the cost of equity is the WACC article’s', Math.abs(e.cost_of_equity - w.cost_of_equity) < 1e-9);
  const r = e.regression;
  f.input('regression.beta', plain(2));
  f.input('regression.standard_error', plain(2));
  f.exact('regression.low', r.beta - 2 * r.standard_error, plain(2));
  f.exact('regression.high', r.beta + 2 * r.standard_error, plain(2));
  f.check('the industry beta lies inside the regression’s range', r.low <= e.beta && e.beta <= r.high);
  f.exact('regression.cost_of_equity', costOfEquity(r.beta), percent(1));
  f.check('the regression beta gives a cost of equity two points lower', Math.abs(e.cost_of_equity - r.cost_of_equity - 0.02) < 1e-9);
  equityRiskPremium(f);
}

function equityRiskPremium(f: Figures) {
  const e = f.example;
  const h = e.history;
  f.input('history.volatility', percent(0));
  f.input('history.years', plain(0));
  f.exact('history.standard_error', h.volatility / Math.sqrt(h.years), percent(2));
  f.check('the standard error is more than half the premium', h.standard_error > e.equity_risk_premium / 2);
  const i = e.implied;
  f.input('implied.cash_yield', percent(0));
  f.input('implied.growth', percent(0));
  // Gordon solved for the return: next year's cash yield plus its growth.
  const nextYield = i.cash_yield * (1 + i.growth);
  f.exact('implied.expected_return', nextYield + i.growth, percent(2));
  f.show(nextYield, percent(2));
  f.result('implied.premium', nextYield + i.growth - e.risk_free, i.expected_return - e.risk_free, percent(2));
  f.check('the implied premium lies within the WACC article’s 4% to 6%', 0.04 <= i.premium && i.premium <= 0.06);
}
