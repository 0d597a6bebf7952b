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
import {
  cashFlowKey,
  dcf,
  DCF_FIELDS,
  dcfFields,
  dcfInput,
  dcfModel,
  dcfTexts,
  MAX_YEARS,
  yearsOf,
  type DcfInput,
  type DcfResult,
} from '../valuation/dcf';
import type { Formats } from '../calculators/format';
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

/** The calculator's texts (in the URL), the years of cash flows, and what they come to. */
function useDcf(example: unknown) {
  const initial = useMemo(() => ({ ...dcfTexts(example), ...SCENARIO_DEFAULTS, price: priceText(example) }), [example]);
  const [texts, setTexts] = useUrlState(initial, codec);
  const years = yearsOf(texts) || 1;
  const { checked, result } = dcfModel(texts);
  const change = (key: string, value: string) => setTexts((current) => ({ ...current, [key]: value }));
  const setYears = (n: number) => {
    const next = { ...texts };
    // A new year starts at the last year's cash flow, the usual first guess.
    if (n > years) next[cashFlowKey(n)] = texts[cashFlowKey(years)] ?? '';
    else delete next[cashFlowKey(years)];
    setTexts(next);
  };
  const input = result ? dcfInput(checked.values, years) : null;
  return { texts, years, specs: dcfFields(years), checked, result, input, change, setYears, cases: scenariosModel(texts, input) };
}

type Dcf = ReturnType<typeof useDcf>;

/** A year's cash flow per field, and the buttons that add or remove a year. */
function CashFlows({ dcf: { texts, years, specs, checked, change, setYears } }: { dcf: Dcf }) {
  const { t } = useCalculator();
  const label = (key: string) => t(`calculator.dcf.${key}`);
  return (
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
  );
}

/** The result rows, blank ('—') while a field is wrong. */
function resultRows(label: (key: string) => string, f: Formats, result: DcfResult | null): [string, string][] {
  const fixed = ['explicitTotal', 'terminalValue', 'terminalPresentValue', 'enterpriseValue', 'equityValue'] as const;
  return [
    ...fixed.map((key): [string, string] => [label(key), f.fixed(result?.[key] ?? NaN)]),
    [label('valuePerShare'), f.money(result?.valuePerShare ?? NaN)],
  ];
}

/** The working: the explicit years, the terminal value, the enterprise value, the value per share. */
function Working({ result, input, years }: { result: DcfResult; input: DcfInput; years: number }) {
  const { t, f } = useCalculator();
  const label = (key: string) => t(`calculator.dcf.${key}`);
  return (
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
  );
}

export default function DcfCalculator({ example }: { example?: unknown }) {
  const { t, f } = useCalculator();
  const state = useDcf(example);
  const { texts, years, specs, checked, result, input, change, cases } = state;
  const label = (key: string) => t(`calculator.dcf.${key}`);
  const rate = 'r' in checked.values ? f.percent(checked.values.r) : '';
  const headline = result && t('calculator.dcf.headline', { value: f.money(result.valuePerShare) });

  return (
    <Calculator
      title={label('title')}
      intro={label('intro')}
      inputs={
        <>
          <CashFlows dcf={state} />
          <Fields specs={specs.slice(years)} texts={texts} checked={checked} labelOf={label} onChange={change} rate={rate} />
        </>
      }
      output={<Results headline={headline} checked={checked} rows={resultRows(label, f, result)} />}
    >
      {result && input ? (
        <>
          <Working result={result} input={input} years={years} />
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
