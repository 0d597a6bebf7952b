// The multiples articles' worked examples (P/E, P/S, P/B, EV/EBITDA), recomputed with the
// calculator's own arithmetic (`../multiples`).
import { presentValue, sum } from '../discount';
import { dilutedShares, evEbitda, priceBook, priceEarnings, priceSales } from '../multiples';
import { amount, dollars, FACTOR, Figures, percent, plain, type Example } from './figures';

export function priceEarningsExample(f: Figures) {
  const e = f.example;
  f.input('net_income', amount(0));
  f.input('preferred_dividends', amount(0));
  f.input('shares', amount(0));
  f.input('price', dollars(2));
  f.input('peer_pe', plain(1));
  // Preferred dividends belong to the preferred shareholders, not to the common shares.
  const { eps, multiple, impliedPrice } = priceEarnings(e.price, e.net_income, e.preferred_dividends, e.shares, e.peer_pe);
  f.exact('eps', eps, dollars(2));
  f.result('pe', multiple, e.price / e.eps, plain(1));
  f.result('implied_price', impliedPrice, e.peer_pe * e.eps, dollars(2));
  f.check('the share trades below its peers’ multiple', e.pe < e.peer_pe);

  const j = e.justified;
  f.input('justified.payout', percent(0));
  f.input('justified.roe', percent(0));
  f.input('justified.required_return', percent(0));
  const g = (1 - j.payout) * j.roe;
  f.exact('justified.growth', g, percent(0));
  const trailing = (j.payout * (1 + g)) / (j.required_return - g);
  f.result('justified.trailing_pe', trailing, (j.payout * (1 + j.growth)) / (j.required_return - j.growth), plain(2));
  f.result('justified.leading_pe', j.payout / (j.required_return - g), j.payout / (j.required_return - j.growth), plain(2));
  f.check('the market’s P/E is above what these fundamentals justify', trailing < e.pe);
}

export function priceSalesExample(f: Figures) {
  const e = f.example;
  f.input('price', dollars(2));
  f.input('revenue', amount(0));
  f.input('peer_ps', plain(1));
  const r = priceSales(e.price, e.shares, e.revenue, e.peer_ps);
  f.exact('market_cap', r.marketCap, amount(0));
  f.result('ps', r.multiple, e.market_cap / e.revenue, plain(1));
  f.exact('sales_per_share', r.salesPerShare, dollars(2));
  f.result('implied_price', r.impliedPrice, e.peer_ps * e.sales_per_share, dollars(2));
  // The text calls the premium over peers "about 20%".
  f.check('the premium over peers is about 20%', Math.abs(e.ps / e.peer_ps - 1 - 0.2) < 0.005);
}

export function priceBookExample(f: Figures) {
  const e = f.example;
  const b = e.buyback;
  for (const input of ['total_assets', 'total_liabilities', 'shares', 'buyback.amount']) f.input(input, amount(0));
  f.input('price', dollars(2));
  const r = priceBook(e.price, e.total_assets, e.total_liabilities, e.shares, b.amount);
  f.exact('book_value', r.bookValue, amount(0));
  f.result('book_value_per_share', r.bookValuePerShare, e.book_value / e.shares, dollars(2));
  f.result('pb', r.multiple, e.price / e.book_value_per_share, plain(2));
  // A buyback at the market price: fewer shares, less book value, and a higher P/B.
  f.exact('buyback.shares_retired', r.sharesRetired, amount(0));
  f.result('buyback.shares_after', r.sharesAfter, e.shares - b.shares_retired, amount(0));
  f.result('buyback.book_value_after', r.bookValueAfter, e.book_value - b.amount, amount(0));
  f.result('buyback.book_value_per_share_after', r.bookValuePerShareAfter, b.book_value_after / b.shares_after, dollars(2));
  f.result('buyback.pb_after', r.multipleAfter, e.price / b.book_value_per_share_after, plain(2));
  f.check('the buyback shrinks book value per share and raises P/B', b.pb_after > e.pb && r.bookValuePerShareAfter < r.bookValuePerShare);
  // The P/B that the company's ROE, payout and required return justify.
  const j = e.justified;
  f.input('justified.roe', percent(0));
  f.input('justified.payout', percent(0));
  f.input('justified.required_return', percent(0));
  const g = (1 - j.payout) * j.roe;
  f.exact('justified.growth', g, percent(1));
  f.result('justified.pb', (j.roe - g) / (j.required_return - g), (j.roe - j.growth) / (j.required_return - j.growth), plain(2));
  f.check('the justified P/B is close to what the market pays', Math.abs(j.pb - e.pb) < 0.05);
  f.check('ROE above the required return justifies a P/B above 1', j.roe > j.required_return === j.pb > 1);
}

export function enterpriseMultipleExample(f: Figures, companyD: Example) {
  const e = f.example;
  f.input('share_price', dollars(2));
  f.input('strike', dollars(2));
  f.input('peer_ev_ebitda', plain(1));
  for (const input of ['basic_shares', 'options', 'debt', 'preferred', 'minority_interest', 'cash', 'ebitda', 'revenue']) {
    f.input(input, amount(0));
  }
  f.check('the options are in the money', e.strike < e.share_price);
  // Treasury-stock method: the exercise money buys shares back at the market price.
  const { repurchased } = dilutedShares(e.share_price, e.basic_shares, e.options, e.strike);
  const r = evEbitda({
    price: e.share_price,
    basicShares: e.basic_shares,
    options: e.options,
    strike: e.strike,
    debt: e.debt,
    preferredShares: e.preferred,
    minority: e.minority_interest,
    cash: e.cash,
    ebitda: e.ebitda,
    revenue: e.revenue,
    peer: e.peer_ev_ebitda,
  });
  f.exact('shares_repurchased', repurchased, amount(0));
  f.result('diluted_shares', r.diluted, e.basic_shares + e.options - e.shares_repurchased, amount(0));
  f.result('equity_value', r.equityValue, e.share_price * e.diluted_shares, amount(0));
  f.result('enterprise_value', r.enterpriseValue, e.equity_value + r.claims, amount(0));
  f.result('ev_ebitda', r.multiple, e.enterprise_value / e.ebitda, plain(1));
  f.result('ev_sales', r.evSales, e.enterprise_value / e.revenue, plain(1));
  f.exact('implied_enterprise_value', r.impliedEnterpriseValue, amount(0));
  f.result('implied_equity_value', r.impliedEquityValue, e.implied_enterprise_value - r.claims, amount(0));
  f.result('implied_price', r.impliedPrice, e.implied_equity_value / e.diluted_shares, dollars(2));
  f.check('the company trades below its peers’ multiple', e.ev_ebitda < e.peer_ev_ebitda);
  exitMultiple(f, companyD);
}

/** The exit multiple, applied to Company D of the DCF article. */
function exitMultiple(f: Figures, d: Example) {
  const x = f.example.exit;
  const n = d.cash_flows.length;
  const r = d.discount_rate;
  f.same('exit.explicit_total', d.explicit_total, amount(2));
  f.same('exit.discount_factor', d.discount_factors[n - 1], FACTOR);
  f.same('exit.gordon_terminal_value', d.terminal_value, amount(2));
  f.input('exit.ebitda', amount(0));
  f.input('exit.multiple', plain(1));
  const tv = x.ebitda * x.multiple;
  f.exact('exit.terminal_value', tv, amount(0));
  f.result('exit.terminal_present_value', presentValue(tv, r, n), x.terminal_value * x.discount_factor, amount(2));
  const explicit = sum(d.cash_flows.map((cf: number, t: number) => presentValue(cf, r, t + 1)));
  f.result('exit.enterprise_value', explicit + presentValue(tv, r, n), x.explicit_total + x.terminal_present_value, amount(2));
  // The growth forever that makes the Gordon formula give the exit multiple's value.
  const last = d.cash_flows[n - 1];
  const growth = (tv * r - last) / (tv + last);
  f.result('exit.implied_growth', growth, (x.terminal_value * r - last) / (x.terminal_value + last), percent(2));
  f.result('exit.gordon_multiple', d.terminal_value / x.ebitda, x.gordon_terminal_value / x.ebitda, plain(1));
  f.check('the exit multiple implies growth close to the DCF’s terminal growth', Math.abs(growth - d.terminal_growth) < 0.001);
}
