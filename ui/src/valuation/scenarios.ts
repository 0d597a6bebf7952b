// Bear, base and bull cases around the reader's DCF (the scenarios and margin of safety article):
// each case moves every year's cash flow by a percentage and the terminal growth by some points,
// at the same discount rate (a case's risk belongs in its cash flows, not in a rate raised by
// hand), and the three values are weighted by probabilities that must add up to 100%.
import { dcf, type DcfInput } from './dcf';
import { check, settle, type Checked, type Spec, type Texts } from './fields';

export const CASES = ['bear', 'base', 'bull'] as const;

export const SCENARIO_FIELDS: Spec[] = [
  ...CASES.map((c): Spec => ({ key: `p${c}`, unit: 'percent', rule: 'probability' })),
  ...['bear', 'bull'].flatMap((c): Spec[] => [
    { key: `f${c}`, unit: 'percent' },
    { key: `g${c}`, unit: 'percent' },
  ]),
];

/** Where every page's cases start: a quarter each for a tenth less or more cash. */
export const SCENARIO_DEFAULTS: Texts = { pbear: '25', pbase: '50', pbull: '25', fbear: '-10', gbear: '-1', fbull: '10', gbull: '0.5' };

export interface ScenariosResult {
  /** Value per share of the bear, base and bull cases. */
  values: number[];
  weighted: number;
}

/** A case's inputs: the base's cash flows and growth moved by the case's changes (none for the base). */
function caseInput(base: DcfInput, v: Record<string, number>, c: string): DcfInput {
  const change = v[`f${c}`] ?? 0;
  return { ...base, cashFlows: base.cashFlows.map((cf) => cf * (1 + change)), growth: base.growth + (v[`g${c}`] ?? 0) };
}

/**
 * The cases' values and their weighted value, or why not. `base` is null while the DCF's own
 * fields have a problem; the cases are still checked so their fields say what is wrong.
 */
export function scenariosModel(texts: Texts, base: DcfInput | null): { checked: Checked; result: ScenariosResult | null } {
  const checked = check(SCENARIO_FIELDS, texts);
  const { values: v, problems } = checked;
  for (const c of ['bear', 'bull']) {
    const growth = base && `g${c}` in v ? base.growth + v[`g${c}`] : null;
    if (growth !== null && base && (growth >= base.rate || growth <= -1)) problems[`g${c}`] = 'caseGrowth';
  }
  const total = CASES.reduce((s, c) => s + (v[`p${c}`] ?? NaN), 0);
  // Typed in percent: 33.3 + 33.3 + 33.4 is 1.0000000000000002 as fractions.
  if (Math.abs(total - 1) > 1e-9 && !Number.isNaN(total)) problems.pbull = 'probabilities';
  if (!base) return { checked, result: null };
  const result = settle(checked, (values) => {
    const cases = CASES.map((c) => dcf(caseInput(base, values, c)).valuePerShare);
    return { values: cases, weighted: CASES.reduce((s, c, i) => s + values[`p${c}`] * cases[i], 0) };
  });
  return { checked, result };
}
