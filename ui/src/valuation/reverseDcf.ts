// A DCF read backwards from the market price (the reverse DCF article): the terminal growth the
// price implies at the reader's discount rate, the return it implies at the reader's growth, and
// the margin of safety the price leaves below a value.
import { dcf, type DcfInput } from './dcf';
import { presentValue, sum } from './discount';
import { part, toText, type Spec } from './fields';

export const PRICE: Spec = { key: 'price', unit: 'money', rule: 'positive' };

/** The price an example states (`company.price`, or `price` at its top level), as typed. */
export function priceText(example: unknown): string {
  return toText(part(part(example, 'company'), 'price') ?? part(example, 'price'), 'money');
}

/**
 * The terminal growth at which the value per share equals `price`, the Gordon formula solved for
 * g: g = (TV × r − CFₙ) ÷ (TV + CFₙ), where TV is what the price leaves once the forecast years
 * are paid for, carried to year n. It lies between −100% and r exactly when TV and CFₙ are
 * positive; otherwise no growth gives the price (null).
 */
export function impliedGrowth({ cashFlows, rate, netDebt, shares }: DcfInput, price: number): number | null {
  const n = cashFlows.length;
  const last = cashFlows[n - 1];
  const explicit = sum(cashFlows.map((cf, t) => presentValue(cf, rate, t + 1)));
  const terminal = (price * shares + netDebt - explicit) * (1 + rate) ** n;
  return last > 0 && terminal > 0 ? (terminal * rate - last) / (terminal + last) : null;
}

/**
 * The discount rate above the growth at which the value per share equals `price`, by bisection:
 * there is no closed form. Just above g the terminal value is as large as one likes (when the last
 * cash flow is positive); far above it the value tends to −net debt per share. Null when the price
 * is not between the two.
 */
export function impliedReturn(input: DcfInput, price: number): number | null {
  const gap = (rate: number) => dcf({ ...input, rate }).valuePerShare - price;
  let low = input.growth + 1e-9;
  if (!(gap(low) > 0)) return null;
  let high = low + 1;
  while (gap(high) > 0) {
    if (high > 1e6) return null;
    high = low + (high - low) * 2;
  }
  for (let i = 0; i < 200 && high - low > 1e-12; i++) {
    const middle = (low + high) / 2;
    if (gap(middle) > 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** (value − price) ÷ value; null when the value is not positive, since no price then leaves a margin. */
export const marginOfSafety = (value: number, price: number): number | null => (value > 0 ? (value - price) / value : null);
