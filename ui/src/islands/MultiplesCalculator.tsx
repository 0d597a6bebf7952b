// The calculator of the multiples articles (P/E, P/S, P/B, EV/EBITDA): the article's route picks
// the multiple and its `example:` the starting inputs; the result is the multiple and the price a
// peer multiple implies (for P/B, the article's buyback instead).
import { useMemo, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { Calculator, Fields, Results, Scroller, useCalculator } from '../calculators/parts';
import type { Formats } from '../calculators/format';
import { equation, frac, mn, mo, mrow, mtext, num, paren } from '../calculators/mathml';
import { textsCodec, useUrlState } from '../calculators/urlState';
import {
  MULTIPLE_DECIMALS,
  MULTIPLE_FIELDS,
  multipleModel,
  multipleOf,
  multipleTexts,
  MULTIPLES,
  type Multiple,
  type MultipleResult,
} from '../valuation/multiples';

const codecs = Object.fromEntries(MULTIPLES.map((m) => [m, textsCodec(MULTIPLE_FIELDS[m].map((s) => s.key))]));

/** What the calculator shows for a result: the figures, the headline and the formula with the numbers. */
interface View {
  rows: [string, string][];
  headline: string | null;
  formula: ReactNode;
}

/** The words and number formats the views share. */
interface Parts {
  t: TFunction;
  f: Formats;
  v: Record<string, number>;
  name: string;
  label: (key: string) => string;
  multiple: (x: number) => string;
}

const amount = (p: Parts, x: number) => num(x, p.f.plain);
const money = (p: Parts, x: number) => num(x, p.f.money);
const term = (p: Parts, key: string) => mtext(p.label(key));

type Result<K extends Multiple> = Extract<MultipleResult, { kind: K }>;

/** P/B: the book value per share, then the buyback's effect on it. */
function priceBookView(p: Parts, r: Result<'pb'>): View {
  const { v, name, label, multiple } = p;
  const rows: [string, string][] = [
    [label('bookValue'), p.f.plain(r.bookValue)],
    [label('bookValuePerShare'), p.f.money(r.bookValuePerShare)],
    [name, multiple(r.multiple)],
    [label('sharesRetired'), p.f.plain(r.sharesRetired)],
    [label('bookValuePerShareAfter'), p.f.money(r.bookValuePerShareAfter)],
    [label('multipleAfter'), multiple(r.multipleAfter)],
  ];
  const headline = p.t('calculator.multiples.headlineBuyback', {
    multiple: name,
    value: multiple(r.multiple),
    after: multiple(r.multipleAfter),
  });
  const formula = (
    <>
      {equation(
        term(p, 'bookValuePerShare'),
        frac(mrow(amount(p, v.assets), mo('−'), amount(p, v.liabilities)), amount(p, v.shares)),
        money(p, r.bookValuePerShare),
      )}
      {equation(mtext(name), frac(money(p, v.price), money(p, r.bookValuePerShare)), mn(multiple(r.multiple)))}
      {equation(
        term(p, 'bookValuePerShareAfter'),
        frac(
          mrow(amount(p, r.bookValue), mo('−'), amount(p, v.buyback)),
          mrow(amount(p, v.shares), mo('−'), frac(amount(p, v.buyback), money(p, v.price))),
        ),
        money(p, r.bookValuePerShareAfter),
      )}
      {equation(term(p, 'multipleAfter'), frac(money(p, v.price), money(p, r.bookValuePerShareAfter)), mn(multiple(r.multipleAfter)))}
    </>
  );
  return { rows, headline, formula };
}

/** The price a peer multiple implies for a per-share figure. */
function impliedPrice(p: Parts, r: Result<'pe' | 'ps' | 'ev-ebitda'>, perShare: number) {
  return equation(term(p, 'impliedPrice'), mrow(num(p.v.peer, p.f.plain), mo('×'), money(p, perShare)), money(p, r.impliedPrice));
}

/** P/E: earnings per share, the multiple, the implied price. */
function priceEarningsView(p: Parts, r: Result<'pe'>): Omit<View, 'headline'> {
  const { v, name, multiple } = p;
  const formula = (
    <>
      {equation(term(p, 'eps'), frac(mrow(amount(p, v.income), mo('−'), amount(p, v.preferred)), amount(p, v.shares)), money(p, r.eps))}
      {equation(mtext(name), frac(money(p, v.price), money(p, r.eps)), mn(multiple(r.multiple)))}
      {impliedPrice(p, r, r.eps)}
    </>
  );
  return { rows: [[p.label('eps'), p.f.money(r.eps)]], formula };
}

/** P/S: market value over revenue, sales per share, the implied price. */
function priceSalesView(p: Parts, r: Result<'ps'>): Omit<View, 'headline'> {
  const { v, name, label, multiple } = p;
  const rows: [string, string][] = [
    [label('marketCap'), p.f.plain(r.marketCap)],
    [label('salesPerShare'), p.f.money(r.salesPerShare)],
  ];
  const formula = (
    <>
      {equation(mtext(name), frac(mrow(money(p, v.price), mo('×'), amount(p, v.shares)), amount(p, v.revenue)), mn(multiple(r.multiple)))}
      {equation(term(p, 'salesPerShare'), frac(amount(p, v.revenue), amount(p, v.shares)), money(p, r.salesPerShare))}
      {impliedPrice(p, r, r.salesPerShare)}
    </>
  );
  return { rows, formula };
}

/** EV/EBITDA: diluted shares, the bridge from equity to enterprise value and back. */
function enterpriseView(p: Parts, r: Result<'ev-ebitda'>): Omit<View, 'headline'> {
  const { v, name, label, multiple } = p;
  const claims = [amount(p, v.debt), mo('+'), amount(p, v.preferredShares), mo('+'), amount(p, v.minority), mo('−'), amount(p, v.cash)];
  const rows: [string, string][] = [
    [label('diluted'), p.f.plain(r.diluted)],
    [label('equityValue'), p.f.plain(r.equityValue)],
    [label('enterpriseValue'), p.f.plain(r.enterpriseValue)],
    [label('evSales'), multiple(r.evSales)],
    [label('impliedEnterpriseValue'), p.f.plain(r.impliedEnterpriseValue)],
    [label('impliedEquityValue'), p.f.plain(r.impliedEquityValue)],
  ];
  const formula = (
    <>
      {equation(
        term(p, 'diluted'),
        mrow(
          amount(p, v.basicShares),
          mo('+'),
          amount(p, r.exercised),
          mo('−'),
          frac(mrow(amount(p, r.exercised), mo('×'), money(p, v.strike)), money(p, v.price)),
        ),
        amount(p, r.diluted),
      )}
      {equation(
        term(p, 'enterpriseValue'),
        mrow(money(p, v.price), mo('×'), amount(p, r.diluted), mo('+'), ...claims),
        amount(p, r.enterpriseValue),
      )}
      {equation(mtext(name), frac(amount(p, r.enterpriseValue), amount(p, v.ebitda)), mn(multiple(r.multiple)))}
      {equation(
        term(p, 'impliedPrice'),
        frac(mrow(num(v.peer, p.f.plain), mo('×'), amount(p, v.ebitda), mo('−'), paren(...claims)), amount(p, r.diluted)),
        money(p, r.impliedPrice),
      )}
    </>
  );
  return { rows, formula };
}

/** The view of a result, or of none: the labels of the figures stay in place, with dashes. */
function viewOf(p: Parts, kind: Multiple, result: MultipleResult | null): View {
  if (!result) {
    const keys = kind === 'pb' ? ['bookValuePerShare', 'multipleAfter'] : ['impliedPrice'];
    return { rows: keys.map((key) => [p.label(key), '']), headline: null, formula: null };
  }
  if (result.kind === 'pb') return priceBookView(p, result);
  const { rows, formula } =
    result.kind === 'pe' ? priceEarningsView(p, result) : result.kind === 'ps' ? priceSalesView(p, result) : enterpriseView(p, result);
  rows.push([p.name, p.multiple(result.multiple)], [p.label('impliedPrice'), p.f.money(result.impliedPrice)]);
  const headline = p.t('calculator.multiples.headline', {
    multiple: p.name,
    value: p.multiple(result.multiple),
    price: p.f.money(result.impliedPrice),
  });
  return { rows, headline, formula };
}

export default function MultiplesCalculator({ example, route }: { example?: unknown; route?: string }) {
  const { t, f } = useCalculator();
  const kind: Multiple = multipleOf(route);
  const initial = useMemo(() => multipleTexts(kind, example), [kind, example]);
  const [texts, setTexts] = useUrlState(initial, codecs[kind]);
  const { checked, result } = multipleModel(kind, texts);
  const name = t(`calculator.multiples.name.${kind}`);
  const label = (key: string) => t(`calculator.multiples.${key}`, { multiple: name });
  const multiple = (x: number) => f.fixed(x, MULTIPLE_DECIMALS[kind]);
  const { rows, headline, formula } = viewOf({ t, f, v: checked.values, name, label, multiple }, kind, result);

  return (
    <Calculator
      title={t('calculator.multiples.title', { multiple: name })}
      intro={t(`calculator.multiples.intro.${kind}`)}
      inputs={
        <Fields
          specs={MULTIPLE_FIELDS[kind]}
          texts={texts}
          checked={checked}
          labelOf={label}
          onChange={(key, value) => setTexts((current) => ({ ...current, [key]: value }))}
        />
      }
      output={<Results headline={headline} checked={checked} rows={rows} />}
    >
      {formula ? (
        <Scroller title={t('calculator.formula')} className="calc-math">
          {formula}
        </Scroller>
      ) : null}
    </Calculator>
  );
}
