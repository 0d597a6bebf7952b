// Discounted cash flow: explicit cash flows, a Gordon terminal value, and the way from enterprise
// value to a value per share, as the DCF article's example computes them.
import { perpetuity, presentValue, sum } from './discount';
import { check, part, requireGrowthBelowRate, textsFrom, toText, settle, type Checked, type Spec, type Texts } from './fields';

export interface DcfInput {
  cashFlows: number[];
  rate: number;
  growth: number;
  netDebt: number;
  shares: number;
}

export interface DcfResult {
  presentValues: number[];
  explicitTotal: number;
  terminalValue: number;
  terminalPresentValue: number;
  enterpriseValue: number;
  equityValue: number;
  valuePerShare: number;
}

export function dcf({ cashFlows, rate, growth, netDebt, shares }: DcfInput): DcfResult {
  const n = cashFlows.length;
  const presentValues = cashFlows.map((cf, t) => presentValue(cf, rate, t + 1));
  const explicitTotal = sum(presentValues);
  const terminalValue = perpetuity(cashFlows[n - 1] * (1 + growth), rate, growth);
  const terminalPresentValue = presentValue(terminalValue, rate, n);
  const enterpriseValue = explicitTotal + terminalPresentValue;
  const equityValue = enterpriseValue - netDebt;
  return {
    presentValues,
    explicitTotal,
    terminalValue,
    terminalPresentValue,
    enterpriseValue,
    equityValue,
    valuePerShare: equityValue / shares,
  };
}

export const MAX_YEARS = 15;
export const cashFlowKey = (year: number) => `cf${year}`;

export const DCF_FIELDS: Spec[] = [
  { key: 'r', unit: 'percent', rule: 'rate' },
  { key: 'g', unit: 'percent', rule: 'rate' },
  { key: 'debt', unit: 'amount' },
  { key: 'shares', unit: 'amount', rule: 'positive' },
];

/** How many years of cash flows the texts hold (cf1, cf2, … without a gap). */
export function yearsOf(texts: Texts): number {
  let n = 0;
  while (n < MAX_YEARS && cashFlowKey(n + 1) in texts) n += 1;
  return n;
}

export function dcfFields(years: number): Spec[] {
  const flows = Array.from({ length: years }, (_, t): Spec => ({ key: cashFlowKey(t + 1), unit: 'amount' }));
  return [...flows, ...DCF_FIELDS];
}

/** The fields' texts from the article's `example.company`. */
export function dcfTexts(example: unknown): Texts {
  const company = part(example, 'company');
  const flows = part(company, 'cash_flows');
  const texts = textsFrom(company, DCF_FIELDS, { r: 'discount_rate', g: 'terminal_growth', debt: 'net_debt' });
  (Array.isArray(flows) && flows.length ? flows.slice(0, MAX_YEARS) : ['']).forEach((cf, t) => {
    texts[cashFlowKey(t + 1)] = toText(cf, 'amount');
  });
  return texts;
}

/** The inputs of valid texts (`values` as `check` returns them). */
export const dcfInput = (v: Record<string, number>, years: number): DcfInput => ({
  cashFlows: Array.from({ length: years }, (_, t) => v[cashFlowKey(t + 1)]),
  rate: v.r,
  growth: v.g,
  netDebt: v.debt,
  shares: v.shares,
});

export function dcfModel(texts: Texts): { checked: Checked; result: DcfResult | null } {
  const years = yearsOf(texts) || 1;
  const checked = check(dcfFields(years), texts);
  requireGrowthBelowRate(checked, 'g', 'r');
  return { checked, result: settle(checked, (v) => dcf(dcfInput(v, years))) };
}
