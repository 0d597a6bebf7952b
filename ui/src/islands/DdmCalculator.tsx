// The dividend discount article's calculator: Gordon growth, multi-stage and H-model, each with
// its own inputs (the article's two worked examples for the first two) and a sensitivity grid.
import { useId, useMemo } from 'react';
import { Calculator, Fields, Results, Scroller, Sensitivity, useCalculator } from '../calculators/parts';
import { equation, frac, mi, mn, mo, mrow, num, paren, sub, sup } from '../calculators/mathml';
import { textsCodec, useUrlState, type Codec } from '../calculators/urlState';
import { DDM_FIELDS, DDM_MODELS, ddmModel, ddmPrice, ddmTexts, type DdmModel } from '../valuation/ddm';
import type { Texts } from '../valuation/fields';

interface State {
  model: DdmModel;
  texts: Record<DdmModel, Texts>;
}

const fieldCodecs = Object.fromEntries(DDM_MODELS.map((m) => [m, textsCodec(DDM_FIELDS[m].map((s) => s.key))])) as Record<
  DdmModel,
  Codec<Texts>
>;

/** `?model=multi&d0=2.5&gh=20&n=3&g=3&r=12`: the chosen model and its inputs only. */
const codec: Codec<State> = {
  read(query, initial) {
    const asked = query.get('model') as DdmModel;
    const model = DDM_MODELS.includes(asked) ? asked : initial.model;
    const texts = fieldCodecs[model].read(query, initial.texts[model]);
    return model !== initial.model || texts ? { model, texts: { ...initial.texts, [model]: texts ?? initial.texts[model] } } : null;
  },
  write: ({ model, texts }) => [['model', model], ...fieldCodecs[model].write(texts[model])],
  owns: (key) => key === 'model' || DDM_MODELS.some((m) => fieldCodecs[m].owns(key)),
};

export default function DdmCalculator({ example }: { example?: unknown }) {
  const { t, f } = useCalculator();
  const radioName = useId();
  const initial = useMemo((): State => ({ model: 'gordon', texts: ddmTexts(example) }), [example]);
  const [state, setState] = useUrlState(initial, codec);
  const { model } = state;
  const texts = state.texts[model];
  const { checked, result } = ddmModel(model, texts);
  const v = checked.values;
  const label = (key: string) => t(`calculator.ddm.${key}`);
  const change = (key: string, value: string) =>
    setState((current) => ({
      ...current,
      texts: { ...current.texts, [current.model]: { ...current.texts[current.model], [key]: value } },
    }));
  const rate = (x: number) => num(x, f.rate);
  const money = (x: number) => num(x, f.money);
  const spread = mrow(rate(v.r), mo('−'), rate(v.g));
  const d0 = sub(mi('D'), mn('0'));

  let rows: [string, string][];
  let formula = null;
  if (result?.model === 'multi') {
    const n = v.n;
    rows = [
      [label('dividendsPresentValue'), f.money(result.dividendsPresentValue)],
      [label('terminalPrice'), f.money(result.terminalPrice)],
      [label('terminalPresentValue'), f.money(result.terminalPresentValue)],
    ];
    formula = (
      <>
        {equation(
          sub(mi('P'), mi('n')),
          frac(sub(mi('D'), mrow(mi('n'), mo('+'), mn('1'))), mrow(mi('r'), mo('−'), mi('g'))),
          frac(money(result.firstStableDividend), spread),
          money(result.terminalPrice),
        )}
        {equation(
          sub(mi('P'), mn('0')),
          mrow(
            ...result.presentValues.flatMap((pv, i) => [...(i ? [mo('+')] : []), money(pv)]),
            mo('+'),
            frac(money(result.terminalPrice), sup(mn(f.rate(1 + v.r)), mn(String(n)))),
          ),
          mrow(money(result.dividendsPresentValue), mo('+'), money(result.terminalPresentValue)),
          money(result.price),
        )}
      </>
    );
  } else if (result?.model === 'h') {
    rows = [
      [label('stableValue'), f.money(result.stableValue)],
      [label('growthPremium'), f.money(result.growthPremium)],
    ];
    formula = equation(
      sub(mi('P'), mn('0')),
      mrow(
        frac(mrow(d0, paren(mn('1'), mo('+'), mi('g'))), mrow(mi('r'), mo('−'), mi('g'))),
        mo('+'),
        frac(mrow(d0, mi('H'), paren(sub(mi('g'), mi('s')), mo('−'), mi('g'))), mrow(mi('r'), mo('−'), mi('g'))),
      ),
      mrow(
        frac(mrow(money(v.d0), mo('×'), paren(mn('1'), mo('+'), rate(v.g))), spread),
        mo('+'),
        frac(mrow(money(v.d0), mo('×'), num(v.h, f.plain), mo('×'), paren(rate(v.gs), mo('−'), rate(v.g))), spread),
      ),
      mrow(money(result.stableValue), mo('+'), money(result.growthPremium)),
      money(result.price),
    );
  } else {
    rows = [[label('next'), f.money(result?.model === 'gordon' ? result.next : NaN)]];
    if (result?.model === 'gordon') {
      formula = equation(
        sub(mi('P'), mn('0')),
        frac(mrow(d0, mo('×'), paren(mn('1'), mo('+'), mi('g'))), mrow(mi('r'), mo('−'), mi('g'))),
        frac(mrow(money(v.d0), mo('×'), paren(mn('1'), mo('+'), rate(v.g))), spread),
        frac(money(result.next), num(v.r - v.g, f.rate)),
        money(result.price),
      );
    }
  }
  rows.push([label('price'), f.money(result?.price ?? NaN)]);

  return (
    <Calculator
      title={label('title')}
      intro={label('intro')}
      choice={
        <fieldset className="calc-models needs-js">
          <legend>{label('model')}</legend>
          {DDM_MODELS.map((m) => (
            <label key={m}>
              <input type="radio" name={radioName} value={m} checked={m === model} onChange={() => setState({ ...state, model: m })} />
              {label(`models.${m}`)}
            </label>
          ))}
        </fieldset>
      }
      inputs={
        <Fields
          specs={DDM_FIELDS[model]}
          texts={texts}
          checked={checked}
          labelOf={(key) => label(key === 'g' ? `g_${model}` : key)}
          onChange={change}
          rate={'r' in v ? f.percent(v.r) : ''}
        />
      }
      output={<Results headline={result && t('calculator.ddm.headline', { value: f.money(result.price) })} checked={checked} rows={rows} />}
    >
      {result ? (
        <>
          <Scroller title={t('calculator.formula')} className="calc-math">
            {formula}
          </Scroller>
          <Sensitivity r={v.r} g={v.g} what={label('price')} value={(r, g) => ddmPrice(model, { ...v, r, g }).price} />
        </>
      ) : null}
    </Calculator>
  );
}
