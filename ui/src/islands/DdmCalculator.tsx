// The dividend discount article's calculator: Gordon growth, multi-stage and H-model, each with
// its own inputs (the article's two worked examples for the first two) and a sensitivity grid.
import { useId, useMemo, type ReactNode } from 'react';
import { Calculator, Fields, Results, Scroller, Sensitivity, useCalculator } from '../calculators/parts';
import { equation, frac, mi, mn, mo, mrow, num, paren, sub, sup } from '../calculators/mathml';
import { textsCodec, useUrlState, type Codec } from '../calculators/urlState';
import { DDM_FIELDS, DDM_MODELS, ddmModel, ddmPrice, ddmTexts, type DdmModel, type DdmResult } from '../valuation/ddm';
import type { Formats } from '../calculators/format';
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

/** What a model's working shows: the result rows before the price, and the formula. */
interface Working {
  rows: [string, string][];
  formula: ReactNode;
}

/** The words, number formats and values the workings share. */
interface Parts {
  f: Formats;
  v: Record<string, number>;
  label: (key: string) => string;
}

type Result<M extends DdmModel> = Extract<DdmResult, { model: M }>;

const rate = (p: Parts, x: number) => num(x, p.f.rate);
const money = (p: Parts, x: number) => num(x, p.f.money);
const spread = (p: Parts) => mrow(rate(p, p.v.r), mo('−'), rate(p, p.v.g));
const rMinusG = () => mrow(mi('r'), mo('−'), mi('g'));
const d0 = () => sub(mi('D'), mn('0'));

/** Gordon growth: next year's dividend over the spread. */
function gordonWorking(p: Parts, r: Result<'gordon'> | null): Working {
  const { f, v, label } = p;
  const rows: [string, string][] = [[label('next'), f.money(r ? r.next : NaN)]];
  if (!r) return { rows, formula: null };
  const formula = equation(
    sub(mi('P'), mn('0')),
    frac(mrow(d0(), mo('×'), paren(mn('1'), mo('+'), mi('g'))), rMinusG()),
    frac(mrow(money(p, v.d0), mo('×'), paren(mn('1'), mo('+'), rate(p, v.g))), spread(p)),
    frac(money(p, r.next), num(v.r - v.g, f.rate)),
    money(p, r.price),
  );
  return { rows, formula };
}

/** Multi-stage: the high-growth years' dividends, then the stable price at year n, both discounted. */
function multiWorking(p: Parts, r: Result<'multi'>): Working {
  const { f, v, label } = p;
  const rows: [string, string][] = [
    [label('dividendsPresentValue'), f.money(r.dividendsPresentValue)],
    [label('terminalPrice'), f.money(r.terminalPrice)],
    [label('terminalPresentValue'), f.money(r.terminalPresentValue)],
  ];
  const formula = (
    <>
      {equation(
        sub(mi('P'), mi('n')),
        frac(sub(mi('D'), mrow(mi('n'), mo('+'), mn('1'))), rMinusG()),
        frac(money(p, r.firstStableDividend), spread(p)),
        money(p, r.terminalPrice),
      )}
      {equation(
        sub(mi('P'), mn('0')),
        mrow(
          ...r.presentValues.flatMap((pv, i) => [...(i ? [mo('+')] : []), money(p, pv)]),
          mo('+'),
          frac(money(p, r.terminalPrice), sup(mn(f.rate(1 + v.r)), mn(String(v.n)))),
        ),
        mrow(money(p, r.dividendsPresentValue), mo('+'), money(p, r.terminalPresentValue)),
        money(p, r.price),
      )}
    </>
  );
  return { rows, formula };
}

/** H-model: the stable value plus the premium of the fading high growth. */
function hWorking(p: Parts, r: Result<'h'>): Working {
  const { f, v, label } = p;
  const rows: [string, string][] = [
    [label('stableValue'), f.money(r.stableValue)],
    [label('growthPremium'), f.money(r.growthPremium)],
  ];
  const formula = equation(
    sub(mi('P'), mn('0')),
    mrow(
      frac(mrow(d0(), paren(mn('1'), mo('+'), mi('g'))), rMinusG()),
      mo('+'),
      frac(mrow(d0(), mi('H'), paren(sub(mi('g'), mi('s')), mo('−'), mi('g'))), rMinusG()),
    ),
    mrow(
      frac(mrow(money(p, v.d0), mo('×'), paren(mn('1'), mo('+'), rate(p, v.g))), spread(p)),
      mo('+'),
      frac(mrow(money(p, v.d0), mo('×'), num(v.h, f.plain), mo('×'), paren(rate(p, v.gs), mo('−'), rate(p, v.g))), spread(p)),
    ),
    mrow(money(p, r.stableValue), mo('+'), money(p, r.growthPremium)),
    money(p, r.price),
  );
  return { rows, formula };
}

/** The working of the chosen model; with no result, the rows of the Gordon model's blanks. */
function workingOf(p: Parts, result: DdmResult | null): Working {
  if (result?.model === 'multi') return multiWorking(p, result);
  if (result?.model === 'h') return hWorking(p, result);
  return gordonWorking(p, result?.model === 'gordon' ? result : null);
}

interface ChoiceProps {
  name: string;
  model: DdmModel;
  label: (key: string) => string;
  onChoose: (m: DdmModel) => void;
}

function ModelChoice({ name, model, label, onChoose }: ChoiceProps) {
  return (
    <fieldset className="calc-models needs-js">
      <legend>{label('model')}</legend>
      {DDM_MODELS.map((m) => (
        <label key={m}>
          <input type="radio" name={name} value={m} checked={m === model} onChange={() => onChoose(m)} />
          {label(`models.${m}`)}
        </label>
      ))}
    </fieldset>
  );
}

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
  const { rows, formula } = workingOf({ f, v, label }, result);
  rows.push([label('price'), f.money(result?.price ?? NaN)]);

  return (
    <Calculator
      title={label('title')}
      intro={label('intro')}
      choice={<ModelChoice name={radioName} model={model} label={label} onChoose={(m) => setState({ ...state, model: m })} />}
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
