// The dividend discount model in three forms: Gordon growth, multi-stage (a few years of high
// growth, then stable growth forever) and the H-model (high growth fading linearly to stable).
import { perpetuity, presentValue, sum } from './discount';
import { check, part, requireGrowthBelowRate, textsFrom, settle, type Checked, type Spec, type Texts } from './fields';

export function gordon(lastDividend: number, growth: number, rate: number) {
  const next = lastDividend * (1 + growth);
  return { next, price: perpetuity(next, rate, growth) };
}

export function multiStage(lastDividend: number, highGrowth: number, years: number, growth: number, rate: number) {
  const dividends = Array.from({ length: years }, (_, t) => lastDividend * (1 + highGrowth) ** (t + 1));
  const presentValues = dividends.map((d, t) => presentValue(d, rate, t + 1));
  const dividendsPresentValue = sum(presentValues);
  const firstStableDividend = dividends[years - 1] * (1 + growth);
  const terminalPrice = perpetuity(firstStableDividend, rate, growth);
  const terminalPresentValue = presentValue(terminalPrice, rate, years);
  return {
    dividends,
    presentValues,
    dividendsPresentValue,
    firstStableDividend,
    terminalPrice,
    terminalPresentValue,
    price: dividendsPresentValue + terminalPresentValue,
  };
}

/** Fuller and Hsia's H-model: `halfLife` is half the years over which growth falls to `growth`. */
export function hModel(lastDividend: number, shortGrowth: number, halfLife: number, growth: number, rate: number) {
  const stableValue = perpetuity(lastDividend * (1 + growth), rate, growth);
  const growthPremium = (lastDividend * halfLife * (shortGrowth - growth)) / (rate - growth);
  return { stableValue, growthPremium, price: stableValue + growthPremium };
}

export const DDM_MODELS = ['gordon', 'multi', 'h'] as const;
export type DdmModel = (typeof DDM_MODELS)[number];

const d0: Spec = { key: 'd0', unit: 'money', rule: 'nonNegative' };
const g: Spec = { key: 'g', unit: 'percent', rule: 'rate' };
const r: Spec = { key: 'r', unit: 'percent', rule: 'rate' };

/** Each model's fields; `g` is always the growth that lasts forever and `r` the required return. */
export const DDM_FIELDS: Record<DdmModel, Spec[]> = {
  gordon: [d0, g, r],
  multi: [d0, { key: 'gh', unit: 'percent', rule: 'rate' }, { key: 'n', unit: 'years', rule: 'years' }, g, r],
  h: [d0, { key: 'gs', unit: 'percent', rule: 'rate' }, { key: 'h', unit: 'number', rule: 'nonNegative' }, g, r],
};

/** The H-model's inputs when the article has no `example.h_model`: the Gordon example's dividend,
 * growth and return, with growth starting at 12% and fading over ten years (H = 5). */
const H_DEFAULTS: Texts = { d0: '2', gs: '12', h: '5', g: '4', r: '9' };

export function ddmTexts(example: unknown): Record<DdmModel, Texts> {
  const h = part(example, 'h_model');
  const gordon = part(example, 'gordon');
  const common = { d0: 'last_dividend', r: 'required_return' };
  return {
    gordon: textsFrom(gordon, DDM_FIELDS.gordon, { ...common, g: 'growth' }),
    multi: textsFrom(part(example, 'multi_stage'), DDM_FIELDS.multi, {
      ...common,
      gh: 'high_growth',
      n: 'high_growth_years',
      g: 'stable_growth',
    }),
    // The article's H-model starts from its Gordon example's dividend, growth and return.
    h: h
      ? textsFrom({ ...(gordon as object), ...(h as object) }, DDM_FIELDS.h, {
          ...common,
          gs: 'initial_growth',
          h: 'half_life',
          g: 'growth',
        })
      : H_DEFAULTS,
  };
}

export type DdmResult =
  | ({ model: 'gordon' } & ReturnType<typeof gordon>)
  | ({ model: 'multi' } & ReturnType<typeof multiStage>)
  | ({ model: 'h' } & ReturnType<typeof hModel>);

/** The price of a share under `model` from valid inputs (`values` as `check` returns them). */
export function ddmPrice(model: DdmModel, v: Record<string, number>): DdmResult {
  if (model === 'gordon') return { model, ...gordon(v.d0, v.g, v.r) };
  if (model === 'multi') return { model, ...multiStage(v.d0, v.gh, v.n, v.g, v.r) };
  return { model, ...hModel(v.d0, v.gs, v.h, v.g, v.r) };
}

export function ddmModel(model: DdmModel, texts: Texts): { checked: Checked; result: DdmResult | null } {
  const checked = check(DDM_FIELDS[model], texts);
  requireGrowthBelowRate(checked, 'g', 'r');
  return { checked, result: settle(checked, (v) => ddmPrice(model, v)) };
}
