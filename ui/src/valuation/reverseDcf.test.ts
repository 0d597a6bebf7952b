// The reverse DCF and the margin of safety on Company D (the DCF article's example; the reverse
// DCF and the scenarios and margin of safety articles read its $24 price), and that no input
// gives NaN or Infinity in them or in the scenarios.
import { describe, expect, it } from 'vitest';
import { formats } from '../calculators/format';
import { impliedGrowth, impliedReturn, marginOfSafety, priceText } from './reverseDcf';
import { dcf, dcfInput, dcfModel, yearsOf, type DcfInput } from './dcf';
import { SCENARIO_DEFAULTS, scenariosModel } from './scenarios';

const D: DcfInput = { cashFlows: [100, 110, 120, 130, 140], rate: 0.1, growth: 0.02, netDebt: 300, shares: 50 };
const f = formats('en');

describe('reverse DCF', () => {
  it("reads Company D's $24 as 1.61% growth at 10%, or a 10.29% return at 2% growth", () => {
    const g = impliedGrowth(D, 24)!;
    expect(f.percent(g, 2)).toBe('1.61%');
    const r = impliedReturn(D, 24)!;
    expect(f.percent(r, 2)).toBe('10.29%');
    // Each, put back into the DCF, gives the price again.
    expect(dcf({ ...D, growth: g }).valuePerShare).toBeCloseTo(24, 9);
    expect(dcf({ ...D, rate: r }).valuePerShare).toBeCloseTo(24, 9);
  });

  it("gives back the reader's own growth and rate at the DCF's own value", () => {
    const value = dcf(D).valuePerShare;
    expect(impliedGrowth(D, value)).toBeCloseTo(0.02, 12);
    expect(impliedReturn(D, value)).toBeCloseTo(0.1, 9);
  });

  it('finds no growth when the forecast years alone are worth more than the price, or the last cash flow is not positive', () => {
    // The five years are worth 447.70; a price of $2 pays 100 + 300 for the business.
    expect(impliedGrowth(D, 2)).toBeNull();
    expect(impliedGrowth({ ...D, cashFlows: [100, 110, 120, 130, 0] }, 24)).toBeNull();
    expect(impliedReturn({ ...D, cashFlows: [100, 110, 120, 130, -5] }, 24)).toBeNull();
  });

  it('finds no return when the net cash alone is worth more than the price', () => {
    // Net cash of 2,000 over 50 shares is $40 a share at any discount rate.
    expect(impliedReturn({ ...D, netDebt: -2000 }, 24)).toBeNull();
    expect(impliedReturn({ ...D, netDebt: -2000 }, 45)).toBeGreaterThan(0.1);
  });

  it('solves very high and negative returns without NaN', () => {
    const r = impliedReturn(D, 0.01)!;
    expect(dcf({ ...D, rate: r }).valuePerShare).toBeCloseTo(0.01, 6);
    const low = impliedReturn({ ...D, growth: -0.5 }, 500)!;
    expect(low).toBeGreaterThan(-0.5);
    expect(dcf({ ...D, growth: -0.5, rate: low }).valuePerShare).toBeCloseTo(500, 6);
  });
});

describe('margin of safety', () => {
  it('is (value − price) ÷ value: $24 against $25.12 is 4.5%', () => {
    expect(f.percent(marginOfSafety(25.12, 24)!, 1)).toBe('4.5%');
    expect(marginOfSafety(20, 24)).toBeCloseTo(-0.2, 12);
    expect(marginOfSafety(0, 24)).toBeNull();
    expect(marginOfSafety(-3, 24)).toBeNull();
  });

  it('reads the price an example states', () => {
    expect(priceText({ company: { price: 24 } })).toBe('24');
    expect(priceText({ price: 24.5 })).toBe('24.5');
    expect(priceText({ company: {} })).toBe('');
    expect(priceText(undefined)).toBe('');
  });
});

describe('no input gives NaN or Infinity', () => {
  it('in the implied growth and return, the margin and the cases', () => {
    const pool = ['', '0', '-1', '1', '2.5', '-99.99', '100', '99999999999', '-99999999999', 'x', '1e-300', '50', '-150'];
    let seed = 7;
    const pick = () => pool[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % pool.length];
    const finiteOrNull = (x: number | null) => x === null || Number.isFinite(x);
    for (let i = 0; i < 500; i++) {
      const keys = ['cf1', 'cf2', 'r', 'g', 'debt', 'shares', 'pbear', 'pbase', 'pbull', 'fbear', 'gbear', 'fbull', 'gbull'];
      const texts = Object.fromEntries(keys.map((key) => [key, pick()]));
      const { checked, result } = dcfModel(texts);
      const input = result ? dcfInput(checked.values, yearsOf(texts)) : null;
      const cases = scenariosModel(texts, input).result;
      if (cases) expect([...cases.values, cases.weighted].every(Number.isFinite)).toBe(true);
      if (!input || !result) continue;
      const price = Number(pick()) || 1;
      if (!(price > 0)) continue;
      expect(finiteOrNull(impliedGrowth(input, price))).toBe(true);
      expect(finiteOrNull(impliedReturn(input, price))).toBe(true);
      expect(finiteOrNull(marginOfSafety(result.valuePerShare, price))).toBe(true);
    }
  });
});
