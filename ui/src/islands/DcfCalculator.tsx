// The DCF article's calculator: the reader's cash flows, discount rate, terminal growth, net debt
// and shares give the present values, terminal value, enterprise and equity value and the value
// per share; bear, base and bull cases weigh it by probability, and a market price is read
// backwards into the growth and the return it implies and the margin of safety it leaves. It
// starts at the article's example (its `example:` front matter, passed as props).
import { useMemo } from 'react';
import { MarketPrice } from '../calculators/MarketPrice';
import { Calculator, Fields, Results, Scroller, Sensitivity, useCalculator } from '../calculators/parts';
import { Scenarios } from '../calculators/Scenarios';
import { equation, frac, mn, mo, mrow, mtext, num, paren, sup } from '../calculators/mathml';
import { useUrlState, type Codec } from '../calculators/urlState';
import { cashFlowKey, dcf, DCF_FIELDS, dcfFields, dcfInput, dcfModel, dcfTexts, MAX_YEARS, yearsOf } from '../valuation/dcf';
import type { Texts } from '../valuation/fields';
import { PRICE, priceText } from '../valuation/reverseDcf';
import { SCENARIO_DEFAULTS, SCENARIO_FIELDS, scenariosModel } from '../valuation/scenarios';

const EXTRA = [...SCENARIO_FIELDS, PRICE].map((spec) => spec.key);
const FIXED = [...DCF_FIELDS.map((spec) => spec.key), ...EXTRA];
const isCashFlow = (key: string) => /^cf\d+$/.test(key);

/**
 * `?cf1=100&cf2=110&r=10&g=2&debt=300&shares=50&price=24`; a link's cash flows replace all the
 * example's. The cases' fields are written only where they differ from where every page starts.
 */
const codec: Codec<Texts> = {
  read(query, initial) {
    const linked = query.has(cashFlowKey(1));
    const texts = Object.fromEntries(Object.entries(initial).filter(([key]) => !(linked && isCashFlow(key))));
    for (let year = 1; linked && year <= MAX_YEARS && query.has(cashFlowKey(year)); year++) {
      texts[cashFlowKey(year)] = query.get(cashFlowKey(year)) ?? '';
    }
    const found = FIXED.filter((key) => query.has(key));
    for (const key of found) texts[key] = query.get(key) ?? '';
    return linked || found.length ? texts : null;
  },
  write: (texts) => [
    ...dcfFields(yearsOf(texts)).map(({ key }): [string, string] => [key, texts[key] ?? '']),
    ...EXTRA.filter((key) => (texts[key] ?? '') !== (SCENARIO_DEFAULTS[key] ?? '')).map((key): [string, string] => [key, texts[key] ?? '']),
  ],
  owns: (key) => FIXED.includes(key) || isCashFlow(key),
};

export default function DcfCalculator({ example }: { example?: unknown }) {
  const { t, f } = useCalculator();
  const initial = useMemo(() => ({ ...dcfTexts(example), ...SCENARIO_DEFAULTS, price: priceText(example) }), [example]);
  const [texts, setTexts] = useUrlState(initial, codec);
  const years = yearsOf(texts) || 1;
  const specs = dcfFields(years);
  const { checked, result } = dcfModel(texts);
  const label = (key: string) => t(`calculator.dcf.${key}`);
  const change = (key: string, value: string) => setTexts((current) => ({ ...current, [key]: value }));
  const setYears = (n: number) => {
    const next = { ...texts };
    // A new year starts at the last year's cash flow, the usual first guess.
    if (n > years) next[cashFlowKey(n)] = texts[cashFlowKey(years)] ?? '';
    else delete next[cashFlowKey(years)];
    setTexts(next);
  };
  const input = result ? dcfInput(checked.values, years) : null;
  const rate = 'r' in checked.values ? f.percent(checked.values.r) : '';
  const cases = scenariosModel(texts, input);

  return (
    <Calculator
      title={label('title')}
      intro={label('intro')}
      inputs={
        <>
          <fieldset className="calc-flows">
            <legend>{label('cashFlows')}</legend>
            <Fields
              specs={specs.slice(0, years)}
              texts={texts}
              checked={checked}
              labelOf={(key) => t('calculator.dcf.year', { year: key.slice(2) })}
              onChange={change}
            />
            <div className="calc-actions needs-js">
              <button type="button" className="button" onClick={() => setYears(years + 1)} disabled={years >= MAX_YEARS}>
                {label('addYear')}
              </button>
              <button type="button" className="button" onClick={() => setYears(years - 1)} disabled={years <= 1}>
                {label('removeYear')}
              </button>
            </div>
          </fieldset>
          <Fields specs={specs.slice(years)} texts={texts} checked={checked} labelOf={label} onChange={change} rate={rate} />
        </>
      }
      output={
        <Results
          headline={result && t('calculator.dcf.headline', { value: f.money(result.valuePerShare) })}
          checked={checked}
          rows={[
            [label('explicitTotal'), f.fixed(result?.explicitTotal ?? NaN)],
            [label('terminalValue'), f.fixed(result?.terminalValue ?? NaN)],
            [label('terminalPresentValue'), f.fixed(result?.terminalPresentValue ?? NaN)],
            [label('enterpriseValue'), f.fixed(result?.enterpriseValue ?? NaN)],
            [label('equityValue'), f.fixed(result?.equityValue ?? NaN)],
            [label('valuePerShare'), f.money(result?.valuePerShare ?? NaN)],
          ]}
        />
      }
    >
      {result && input ? (
        <>
          <Scroller title={t('calculator.formula')} className="calc-math">
            {equation(
              mtext(label('explicitTotal')),
              mrow(...result.presentValues.flatMap((pv, i) => (i ? [mo('+'), num(pv, f.fixed)] : [num(pv, f.fixed)]))),
              mn(f.fixed(result.explicitTotal)),
            )}
            {equation(
              mtext(label('terminalValue')),
              frac(
                mrow(num(input.cashFlows[years - 1], f.plain), mo('×'), paren(mn('1'), mo('+'), num(input.growth, f.rate))),
                mrow(num(input.rate, f.rate), mo('−'), num(input.growth, f.rate)),
              ),
              mn(f.fixed(result.terminalValue)),
            )}
            {equation(
              mtext(label('enterpriseValue')),
              mrow(
                mn(f.fixed(result.explicitTotal)),
                mo('+'),
                frac(mn(f.fixed(result.terminalValue)), sup(mn(f.rate(1 + input.rate)), mn(String(years)))),
              ),
              mrow(mn(f.fixed(result.explicitTotal)), mo('+'), num(result.terminalPresentValue, f.fixed)),
              num(result.enterpriseValue, f.fixed),
            )}
            {equation(
              mtext(label('valuePerShare')),
              frac(mrow(num(result.enterpriseValue, f.fixed), mo('−'), num(input.netDebt, f.plain)), num(input.shares, f.plain)),
              mn(f.money(result.valuePerShare)),
            )}
          </Scroller>
          <Sensitivity
            r={input.rate}
            g={input.growth}
            what={label('valuePerShare')}
            value={(rate, growth) => dcf({ ...input, rate, growth }).valuePerShare}
          />
        </>
      ) : null}
      <Scenarios texts={texts} checked={cases.checked} result={cases.result} rate={rate} onChange={change} />
      <MarketPrice
        text={texts.price ?? ''}
        input={input}
        value={result?.valuePerShare ?? null}
        weighted={cases.result?.weighted ?? null}
        onChange={change}
      />
    </Calculator>
  );
}
