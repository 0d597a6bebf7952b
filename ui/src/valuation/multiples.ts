// Price multiples: P/E, P/S, P/B (with the article's buyback) and EV/EBITDA, each with the price a
// peer multiple implies. One calculator serves every multiples article; its route picks the multiple.
import { check, part, textsFrom, toText, settle, type Checked, type Spec, type Texts } from './fields';

export const MULTIPLES = ['pe', 'ps', 'pb', 'ev-ebitda'] as const;
export type Multiple = (typeof MULTIPLES)[number];

/** The multiple of the article at `route` (`/valuation-models/pb`), P/E elsewhere. */
export function multipleOf(route: unknown): Multiple {
  const last = typeof route === 'string' ? route.split('/').pop() : '';
  return (MULTIPLES as readonly string[]).includes(last ?? '') ? (last as Multiple) : 'pe';
}

/** EPS is what is left for common shareholders: net income less preferred dividends. */
export function priceEarnings(price: number, netIncome: number, preferred: number, shares: number, peer: number) {
  const eps = (netIncome - preferred) / shares;
  return { eps, multiple: price / eps, impliedPrice: peer * eps };
}

export function priceSales(price: number, shares: number, revenue: number, peer: number) {
  const marketCap = price * shares;
  const salesPerShare = revenue / shares;
  return { marketCap, salesPerShare, multiple: marketCap / revenue, impliedPrice: peer * salesPerShare };
}

/** P/B before and after spending `buyback` on the company's own shares at `price`. */
export function priceBook(price: number, assets: number, liabilities: number, shares: number, buyback: number) {
  const bookValue = assets - liabilities;
  const bookValuePerShare = bookValue / shares;
  const sharesRetired = buyback / price;
  const sharesAfter = shares - sharesRetired;
  const bookValueAfter = bookValue - buyback;
  const bookValuePerShareAfter = bookValueAfter / sharesAfter;
  return {
    bookValue,
    bookValuePerShare,
    multiple: price / bookValuePerShare,
    sharesRetired,
    sharesAfter,
    bookValueAfter,
    bookValuePerShareAfter,
    multipleAfter: price / bookValuePerShareAfter,
  };
}

/** Shares after in-the-money options are exercised, their proceeds buying shares back at `price`. */
export function dilutedShares(price: number, basic: number, options: number, strike: number) {
  const inTheMoney = strike < price ? options : 0;
  const repurchased = (inTheMoney * strike) / price;
  return { exercised: inTheMoney, repurchased, diluted: basic + inTheMoney - repurchased };
}

export interface Bridge {
  price: number;
  basicShares: number;
  options: number;
  strike: number;
  debt: number;
  preferredShares: number;
  minority: number;
  cash: number;
  ebitda: number;
  revenue: number;
  peer: number;
}

/**
 * Equity value to enterprise value and back: every claim ahead of the ordinary shares is added,
 * cash subtracted; the peers' EV/EBITDA gives an enterprise value, and what is left of it after
 * those claims is the diluted shareholders'.
 */
export function evEbitda(b: Bridge) {
  const { exercised, repurchased, diluted } = dilutedShares(b.price, b.basicShares, b.options, b.strike);
  const equityValue = b.price * diluted;
  const claims = b.debt + b.preferredShares + b.minority - b.cash;
  const enterpriseValue = equityValue + claims;
  const impliedEnterpriseValue = b.peer * b.ebitda;
  const impliedEquityValue = impliedEnterpriseValue - claims;
  return {
    exercised,
    repurchased,
    diluted,
    equityValue,
    claims,
    enterpriseValue,
    multiple: enterpriseValue / b.ebitda,
    evSales: enterpriseValue / b.revenue,
    impliedEnterpriseValue,
    impliedEquityValue,
    impliedPrice: impliedEquityValue / diluted,
  };
}

const price: Spec = { key: 'price', unit: 'money', rule: 'positive' };
const shares: Spec = { key: 'shares', unit: 'amount', rule: 'positive' };
const peer: Spec = { key: 'peer', unit: 'number', rule: 'nonNegative' };
const amount = (key: string, rule: Spec['rule'] = 'positive'): Spec => ({ key, unit: 'amount', rule });

export const MULTIPLE_FIELDS: Record<Multiple, Spec[]> = {
  pe: [price, amount('income'), amount('preferred', 'nonNegative'), shares, peer],
  ps: [price, shares, amount('revenue'), peer],
  pb: [price, amount('assets', 'nonNegative'), amount('liabilities', 'nonNegative'), shares, amount('buyback', 'nonNegative')],
  'ev-ebitda': [
    price,
    amount('basicShares'),
    amount('options', 'nonNegative'),
    { key: 'strike', unit: 'money', rule: 'nonNegative' },
    amount('debt', 'nonNegative'),
    amount('preferredShares', 'nonNegative'),
    amount('minority', 'nonNegative'),
    amount('cash', 'nonNegative'),
    amount('ebitda'),
    amount('revenue'),
    peer,
  ],
};

/** The decimals each multiple is quoted with in its article (P/E 15.0, P/B 1.20). */
export const MULTIPLE_DECIMALS: Record<Multiple, number> = { pe: 1, ps: 1, pb: 2, 'ev-ebitda': 1 };

/** Field key -> front-matter key, where they differ. */
const EXAMPLE_KEYS: Record<Multiple, Record<string, string>> = {
  pe: { income: 'net_income', preferred: 'preferred_dividends', peer: 'peer_pe' },
  ps: { peer: 'peer_ps' },
  pb: { assets: 'total_assets', liabilities: 'total_liabilities' },
  'ev-ebitda': {
    price: 'share_price',
    basicShares: 'basic_shares',
    preferredShares: 'preferred',
    minority: 'minority_interest',
    peer: 'peer_ev_ebitda',
  },
};

export function multipleTexts(kind: Multiple, example: unknown): Texts {
  const texts = textsFrom(example, MULTIPLE_FIELDS[kind], EXAMPLE_KEYS[kind]);
  // An example that names no preferred dividends has none.
  if (kind === 'pe') texts.preferred ||= '0';
  // An example that names no options, preferreds or minority interests has none.
  if (kind === 'ev-ebitda') for (const key of ['options', 'strike', 'preferredShares', 'minority']) texts[key] ||= '0';
  if (kind === 'pb') texts.buyback = toText(part(part(example, 'buyback'), 'amount'), 'amount') || '0';
  return texts;
}

export type MultipleResult =
  | ({ kind: 'pe' } & ReturnType<typeof priceEarnings>)
  | ({ kind: 'ps' } & ReturnType<typeof priceSales>)
  | ({ kind: 'pb' } & ReturnType<typeof priceBook>)
  | ({ kind: 'ev-ebitda' } & ReturnType<typeof evEbitda>);

export function multipleModel(kind: Multiple, texts: Texts): { checked: Checked; result: MultipleResult | null } {
  const checked = check(MULTIPLE_FIELDS[kind], texts);
  const { values: v, problems } = checked;
  if (kind === 'pe' && v.preferred >= v.income) {
    problems.preferred = 'noEarnings';
  } else if (kind === 'pb' && v.assets <= v.liabilities) {
    problems.liabilities = 'noBook';
  } else if (kind === 'pb' && (v.buyback >= v.assets - v.liabilities || v.buyback / v.price >= v.shares)) {
    // Spending all the book value (or buying every share) leaves no P/B to compare.
    problems.buyback = 'buybackTooLarge';
  } else if (kind === 'ev-ebitda' && v.peer * v.ebitda <= v.debt + v.preferredShares + v.minority - v.cash) {
    // The peers' value would leave the shareholders nothing: no price to imply.
    problems.peer = 'noEquity';
  }
  const result = settle(checked, (v): MultipleResult =>
    kind === 'pe'
      ? { kind, ...priceEarnings(v.price, v.income, v.preferred, v.shares, v.peer) }
      : kind === 'ps'
        ? { kind, ...priceSales(v.price, v.shares, v.revenue, v.peer) }
        : kind === 'pb'
          ? { kind, ...priceBook(v.price, v.assets, v.liabilities, v.shares, v.buyback) }
          : { kind, ...evEbitda(v as unknown as Bridge) },
  );
  return { checked, result };
}
