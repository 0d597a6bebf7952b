// The cost of equity by CAPM and the weighted average cost of capital (WACC) of equity and debt
// at market values.
import { check, settle, textsFrom, type Checked, type Spec, type Texts } from './fields';

export interface WaccInput {
  riskFree: number;
  beta: number;
  premium: number;
  costOfDebt: number;
  taxRate: number;
  equity: number;
  debt: number;
}

export function wacc({ riskFree, beta, premium, costOfDebt, taxRate, equity, debt }: WaccInput) {
  const costOfEquity = riskFree + beta * premium;
  const afterTaxCostOfDebt = costOfDebt * (1 - taxRate);
  const total = equity + debt;
  const equityWeight = equity / total;
  const debtWeight = debt / total;
  return {
    costOfEquity,
    afterTaxCostOfDebt,
    total,
    equityWeight,
    debtWeight,
    wacc: equityWeight * costOfEquity + debtWeight * afterTaxCostOfDebt,
  };
}

export const WACC_FIELDS: Spec[] = [
  { key: 'rf', unit: 'percent', rule: 'rate' },
  { key: 'beta', unit: 'number' },
  { key: 'erp', unit: 'percent', rule: 'rate' },
  { key: 'rd', unit: 'percent', rule: 'rate' },
  { key: 'tax', unit: 'percent', rule: 'share' },
  { key: 'equity', unit: 'amount', rule: 'nonNegative' },
  { key: 'debt', unit: 'amount', rule: 'nonNegative' },
];

/**
 * The inputs when the page has no `example:` (or lacks a field): a 4% risk-free rate, beta 1.2 and
 * a 5% premium give a 10% cost of equity; 6% debt taxed at 25% costs 4.5%; at 600 of equity and
 * 400 of debt the WACC is 7.8%.
 */
export const WACC_DEFAULTS: Texts = { rf: '4', beta: '1.2', erp: '5', rd: '6', tax: '25', equity: '600', debt: '400' };

/** Field key -> front-matter key. */
const EXAMPLE_KEYS: Record<string, string> = {
  rf: 'risk_free',
  erp: 'equity_risk_premium',
  rd: 'pre_tax_cost_of_debt',
  tax: 'tax_rate',
  equity: 'market_cap',
  debt: 'debt',
};

/** The example's fields, read from its top level and from one level of nesting (`capm:`, `wacc:`). */
export function waccTexts(example: unknown): Texts {
  const source: Record<string, unknown> = {};
  if (example && typeof example === 'object') {
    for (const [key, value] of Object.entries(example)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(source, value);
      else source[key] = value;
    }
  }
  const texts = textsFrom(source, WACC_FIELDS, EXAMPLE_KEYS);
  for (const key of Object.keys(texts)) texts[key] ||= WACC_DEFAULTS[key];
  return texts;
}

export function waccModel(texts: Texts): { checked: Checked; result: ReturnType<typeof wacc> | null } {
  const checked = check(WACC_FIELDS, texts);
  const v = checked.values;
  if (v.equity === 0 && v.debt === 0) checked.problems.debt = 'noCapital';
  const result = settle(checked, (v) =>
    wacc({ riskFree: v.rf, beta: v.beta, premium: v.erp, costOfDebt: v.rd, taxRate: v.tax, equity: v.equity, debt: v.debt }),
  );
  return { checked, result };
}
