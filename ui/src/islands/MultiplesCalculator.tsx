// The calculator of the multiples articles (P/E, P/S, P/B, EV/EBITDA): the article's route picks
// the multiple and its `example:` the starting inputs; the result is the multiple and the price a
// peer multiple implies (for P/B, the article's buyback instead).
import { useMemo } from 'react';
import { Calculator, Fields, Results, Scroller, useCalculator } from '../calculators/parts';
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
} from '../valuation/multiples';

const codecs = Object.fromEntries(MULTIPLES.map((m) => [m, textsCodec(MULTIPLE_FIELDS[m].map((s) => s.key))]));

export default function MultiplesCalculator({ example, route }: { example?: unknown; route?: string }) {
  const { t, f } = useCalculator();
  const kind: Multiple = multipleOf(route);
  const initial = useMemo(() => multipleTexts(kind, example), [kind, example]);
  const [texts, setTexts] = useUrlState(initial, codecs[kind]);
  const { checked, result } = multipleModel(kind, texts);
  const v = checked.values;
  const name = t(`calculator.multiples.name.${kind}`);
  const label = (key: string) => t(`calculator.multiples.${key}`, { multiple: name });
  const multiple = (x: number) => f.fixed(x, MULTIPLE_DECIMALS[kind]);
  const amount = (x: number) => num(x, f.plain);
  const money = (x: number) => num(x, f.money);
  const term = (key: string) => mtext(label(key));

  let rows: [string, string][] = [];
  let headline: string | null = null;
  let formula = null;
  if (result?.kind === 'pb') {
    rows = [
      [label('bookValue'), f.plain(result.bookValue)],
      [label('bookValuePerShare'), f.money(result.bookValuePerShare)],
      [name, multiple(result.multiple)],
      [label('sharesRetired'), f.plain(result.sharesRetired)],
      [label('bookValuePerShareAfter'), f.money(result.bookValuePerShareAfter)],
      [label('multipleAfter'), multiple(result.multipleAfter)],
    ];
    headline = t('calculator.multiples.headlineBuyback', {
      multiple: name,
      value: multiple(result.multiple),
      after: multiple(result.multipleAfter),
    });
    formula = (
      <>
        {equation(
          term('bookValuePerShare'),
          frac(mrow(amount(v.assets), mo('−'), amount(v.liabilities)), amount(v.shares)),
          money(result.bookValuePerShare),
        )}
        {equation(mtext(name), frac(money(v.price), money(result.bookValuePerShare)), mn(multiple(result.multiple)))}
        {equation(
          term('bookValuePerShareAfter'),
          frac(
            mrow(amount(result.bookValue), mo('−'), amount(v.buyback)),
            mrow(amount(v.shares), mo('−'), frac(amount(v.buyback), money(v.price))),
          ),
          money(result.bookValuePerShareAfter),
        )}
        {equation(term('multipleAfter'), frac(money(v.price), money(result.bookValuePerShareAfter)), mn(multiple(result.multipleAfter)))}
      </>
    );
  } else if (result) {
    headline = t('calculator.multiples.headline', {
      multiple: name,
      value: multiple(result.multiple),
      price: f.money(result.impliedPrice),
    });
    const implied = (perShare: number) =>
      equation(term('impliedPrice'), mrow(num(v.peer, f.plain), mo('×'), money(perShare)), money(result.impliedPrice));
    if (result.kind === 'pe') {
      rows = [[label('eps'), f.money(result.eps)]];
      formula = (
        <>
          {equation(term('eps'), frac(mrow(amount(v.income), mo('−'), amount(v.preferred)), amount(v.shares)), money(result.eps))}
          {equation(mtext(name), frac(money(v.price), money(result.eps)), mn(multiple(result.multiple)))}
          {implied(result.eps)}
        </>
      );
    } else if (result.kind === 'ps') {
      rows = [
        [label('marketCap'), f.plain(result.marketCap)],
        [label('salesPerShare'), f.money(result.salesPerShare)],
      ];
      formula = (
        <>
          {equation(mtext(name), frac(mrow(money(v.price), mo('×'), amount(v.shares)), amount(v.revenue)), mn(multiple(result.multiple)))}
          {equation(term('salesPerShare'), frac(amount(v.revenue), amount(v.shares)), money(result.salesPerShare))}
          {implied(result.salesPerShare)}
        </>
      );
    } else {
      rows = [
        [label('marketCap'), f.plain(result.marketCap)],
        [label('enterpriseValue'), f.plain(result.enterpriseValue)],
      ];
      formula = (
        <>
          {equation(
            mtext(name),
            frac(mrow(money(v.price), mo('×'), amount(v.shares), mo('+'), amount(v.debt)), amount(v.ebitda)),
            mn(multiple(result.multiple)),
          )}
          {equation(
            term('impliedPrice'),
            frac(mrow(paren(num(v.peer, f.plain), mo('×'), amount(v.ebitda)), mo('−'), amount(v.debt)), amount(v.shares)),
            money(result.impliedPrice),
          )}
        </>
      );
    }
    rows.push([name, multiple(result.multiple)], [label('impliedPrice'), f.money(result.impliedPrice)]);
  } else {
    // The labels of the figures stay in place, with dashes, while a field has a problem.
    rows = (kind === 'pb' ? ['bookValuePerShare', 'multipleAfter'] : ['impliedPrice']).map((key) => [label(key), '']);
  }

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
