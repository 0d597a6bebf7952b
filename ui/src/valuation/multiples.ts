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

export function evEbitda(price: number, shares: number, netDebt: number, ebitda: number, peer: number) {
  const marketCap = price * shares;
  const enterpriseValue = marketCap + netDebt;
  const impliedEnterpriseValue = peer * ebitda;
  return {
    marketCap,
    enterpriseValue,
    multiple: enterpriseValue / ebitda,
    impliedEnterpriseValue,
    impliedPrice: (impliedEnterpriseValue - netDebt) / shares,
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
  'ev-ebitda': [price, shares, amount('debt', 'any'), amount('ebitda'), peer],
};

/** The decimals each multiple is quoted with in its article (P/E 15.0, P/B 1.20). */
export const MULTIPLE_DECIMALS: Record<Multiple, number> = { pe: 1, ps: 1, pb: 2, 'ev-ebitda': 1 };

/** Field key -> front-matter key, where they differ. */
const EXAMPLE_KEYS: Record<Multiple, Record<string, string>> = {
  pe: { income: 'net_income', preferred: 'preferred_dividends', peer: 'peer_pe' },
  ps: { peer: 'peer_ps' },
  pb: { assets: 'total_assets', liabilities: 'total_liabilities' },
  'ev-ebitda': { debt: 'net_debt', peer: 'peer_ev_ebitda' },
};

export function multipleTexts(kind: Multiple, example: unknown): Texts {
  const texts = textsFrom(example, MULTIPLE_FIELDS[kind], EXAMPLE_KEYS[kind]);
  // An example that names no preferred dividends has none.
  if (kind === 'pe') texts.preferred ||= '0';
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
  }
  const result = settle(checked, (v): MultipleResult =>
    kind === 'pe'
      ? { kind, ...priceEarnings(v.price, v.income, v.preferred, v.shares, v.peer) }
      : kind === 'ps'
        ? { kind, ...priceSales(v.price, v.shares, v.revenue, v.peer) }
        : kind === 'pb'
          ? { kind, ...priceBook(v.price, v.assets, v.liabilities, v.shares, v.buyback) }
          : { kind, ...evEbitda(v.price, v.shares, v.debt, v.ebitda, v.peer) },
  );
  return { checked, result };
}
