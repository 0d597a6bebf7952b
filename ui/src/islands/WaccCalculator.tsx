// The calculator of the CAPM/WACC article: the cost of equity from the risk-free rate, beta and the
// equity risk premium, and the weighted average cost of capital of equity and debt at market
// values. Attach it with `island: WaccCalculator`; it reads the page's `example:` (see
// valuation/wacc.ts for the keys) and starts at a 7.8% WACC without one.
import { useMemo } from 'react';
import { Calculator, Fields, Results, Scroller, useCalculator } from '../calculators/parts';
import { equation, frac, mi, mn, mo, mrow, num, paren, sub } from '../calculators/mathml';
import { textsCodec, useUrlState } from '../calculators/urlState';
import { WACC_FIELDS, waccModel, waccTexts } from '../valuation/wacc';

const codec = textsCodec(WACC_FIELDS.map((spec) => spec.key));

export default function WaccCalculator({ example }: { example?: unknown }) {
  const { t, f } = useCalculator();
  const initial = useMemo(() => waccTexts(example), [example]);
  const [texts, setTexts] = useUrlState(initial, codec);
  const { checked, result } = waccModel(texts);
  const v = checked.values;
  const label = (key: string) => t(`calculator.wacc.${key}`);
  const percent = (x: number) => f.percent(x, 2);
  const rate = (x: number) => num(x, f.rate);
  const amount = (x: number) => num(x, f.plain);
  const r = (s: string) => sub(mi('r'), mi(s));

  return (
    <Calculator
      title={label('title')}
      intro={label('intro')}
      inputs={
        <Fields
          specs={WACC_FIELDS}
          texts={texts}
          checked={checked}
          labelOf={label}
          onChange={(key, value) => setTexts((current) => ({ ...current, [key]: value }))}
        />
      }
      output={
        <Results
          headline={result && t('calculator.wacc.headline', { value: percent(result.wacc) })}
          checked={checked}
          rows={[
            [label('costOfEquity'), percent(result?.costOfEquity ?? NaN)],
            [label('afterTaxCostOfDebt'), percent(result?.afterTaxCostOfDebt ?? NaN)],
            [label('equityWeight'), percent(result?.equityWeight ?? NaN)],
            [label('debtWeight'), percent(result?.debtWeight ?? NaN)],
            [label('wacc'), percent(result?.wacc ?? NaN)],
          ]}
        />
      }
    >
      {result ? (
        <Scroller title={t('calculator.formula')} className="calc-math">
          {equation(
            r('E'),
            mrow(r('f'), mo('+'), mi('β'), mo('×'), mi('ERP')),
            mrow(rate(v.rf), mo('+'), num(v.beta, f.plain), mo('×'), rate(v.erp)),
            mn(percent(result.costOfEquity)),
          )}
          {equation(
            mi('WACC'),
            mrow(
              frac(mi('E'), mrow(mi('E'), mo('+'), mi('D'))),
              mo('×'),
              r('E'),
              mo('+'),
              frac(mi('D'), mrow(mi('E'), mo('+'), mi('D'))),
              mo('×'),
              r('D'),
              mo('×'),
              paren(mn('1'), mo('−'), mi('t')),
            ),
            mrow(
              frac(amount(v.equity), amount(result.total)),
              mo('×'),
              rate(result.costOfEquity),
              mo('+'),
              frac(amount(v.debt), amount(result.total)),
              mo('×'),
              rate(v.rd),
              mo('×'),
              paren(mn('1'), mo('−'), rate(v.tax)),
            ),
            mn(percent(result.wacc)),
          )}
        </Scroller>
      ) : null}
    </Calculator>
  );
}
