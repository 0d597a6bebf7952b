// What a reader can type into the calculators: every input is a number or a named problem, and no
// input, however odd, produces NaN or Infinity.
import { describe, expect, it } from 'vitest';
import { formats } from '../calculators/format';
import { check, parseNumber, toText, type Texts } from './fields';
import { dcfModel, dcfTexts } from './dcf';
import { ddmModel, DDM_MODELS, ddmTexts, hModel } from './ddm';
import { MULTIPLES, multipleModel, multipleOf, multipleTexts } from './multiples';
import { WACC_DEFAULTS, waccModel, waccTexts } from './wacc';

const DCF_EXAMPLE = {
  company: { cash_flows: [100, 110, 120, 130, 140], discount_rate: 0.1, terminal_growth: 0.02, net_debt: 300, shares: 50 },
};

describe('parseNumber', () => {
  it('reads numbers as readers write them', () => {
    expect(parseNumber('12.5')).toBe(12.5);
    expect(parseNumber(' 1,234.5 ')).toBe(1234.5);
    expect(parseNumber('１２．５')).toBe(12.5);
    expect(parseNumber('−3')).toBe(-3);
    expect(parseNumber('10%')).toBe(10);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('2e3')).toBe(2000);
  });

  it('names what is not a usable number', () => {
    expect(parseNumber('')).toBe('blank');
    expect(parseNumber('   ')).toBe('blank');
    for (const text of ['abc', '12a', '1.2.3', 'Infinity', 'NaN', '0x10', '-', '%', '--1'])
      expect(parseNumber(text), text).toBe('notNumber');
    expect(parseNumber('1e400')).toBe('tooLarge');
    expect(parseNumber('-5e12')).toBe('tooLarge');
  });
});

describe('check', () => {
  it('applies each field rule and reads percent fields as fractions', () => {
    const specs = [
      { key: 'r', unit: 'percent' as const, rule: 'rate' as const },
      { key: 'shares', unit: 'amount' as const, rule: 'positive' as const },
      { key: 'n', unit: 'years' as const, rule: 'years' as const },
      { key: 'tax', unit: 'percent' as const, rule: 'share' as const },
    ];
    expect(check(specs, { r: '10', shares: '50', n: '3', tax: '25' })).toEqual({
      values: { r: 0.1, shares: 50, n: 3, tax: 0.25 },
      problems: {},
    });
    expect(check(specs, { r: '-100', shares: '-5', n: '2.5', tax: '120' }).problems).toEqual({
      r: 'rate',
      shares: 'positive',
      n: 'years',
      tax: 'share',
    });
    expect(check(specs, { shares: '0', n: '51' }).problems).toEqual({ r: 'blank', shares: 'positive', n: 'years', tax: 'blank' });
  });

  it('writes front-matter rates as the reader would type them', () => {
    expect(toText(0.07, 'percent')).toBe('7');
    expect(toText(0.1, 'percent')).toBe('10');
    expect(toText(0.025, 'percent')).toBe('2.5');
    expect(toText(1785, 'amount')).toBe('1785');
    expect(toText(undefined, 'amount')).toBe('');
  });
});

describe('the models refuse what they cannot value', () => {
  it('DCF: growth at or above the discount rate is a problem of the growth field', () => {
    const texts = { ...dcfTexts(DCF_EXAMPLE), g: '10' };
    const { checked, result } = dcfModel(texts);
    expect(result).toBeNull();
    expect(checked.problems).toEqual({ g: 'growthBelowRate' });
    expect(dcfModel({ ...texts, g: '12' }).checked.problems).toEqual({ g: 'growthBelowRate' });
    expect(dcfModel({ ...texts, g: '9.9' }).result?.valuePerShare).toBeGreaterThan(0);
  });

  it('DCF: negative shares, blank cash flows and text are named per field', () => {
    const texts = { ...dcfTexts(DCF_EXAMPLE), shares: '-50', cf3: '', debt: 'lots' };
    expect(dcfModel(texts).checked.problems).toEqual({ shares: 'positive', cf3: 'blank', debt: 'notNumber' });
  });

  it('DCF: net cash (negative net debt) and negative cash flows are allowed', () => {
    const { result } = dcfModel({ ...dcfTexts(DCF_EXAMPLE), debt: '-100', cf1: '-50' });
    expect(result?.equityValue).toBeCloseTo(result!.enterpriseValue + 100, 9);
  });

  it('DDM: the H-model adds the fading growth to the Gordon value', () => {
    // 2 × 1.04 / 0.05 + 2 × 5 × (0.12 − 0.04) / 0.05 = 41.60 + 16.00
    expect(hModel(2, 0.12, 5, 0.04, 0.09)).toEqual({
      stableValue: expect.closeTo(41.6, 9),
      growthPremium: expect.closeTo(16, 9),
      price: expect.closeTo(57.6, 9),
    });
    const defaults = ddmTexts({}).h;
    expect(formats('en').money(ddmModel('h', defaults).result!.price)).toBe('$57.60');
    expect(ddmModel('h', { ...defaults, g: '9' }).checked.problems).toEqual({ g: 'growthBelowRate' });
  });

  it('DDM: a multi-stage period must be whole years from 1 to 50', () => {
    const texts = { d0: '2.5', gh: '20', n: '0', g: '3', r: '12' };
    expect(ddmModel('multi', texts).checked.problems).toEqual({ n: 'years' });
    expect(ddmModel('multi', { ...texts, n: '2.5' }).checked.problems).toEqual({ n: 'years' });
  });

  it('multiples: the route picks the multiple', () => {
    expect(multipleOf('/valuation-models/pb')).toBe('pb');
    expect(multipleOf('/valuation-models/ev-ebitda')).toBe('ev-ebitda');
    expect(multipleOf('/elsewhere')).toBe('pe');
    expect(multipleOf(undefined)).toBe('pe');
  });

  it('P/E: earnings per share are after preferred dividends, which must leave some', () => {
    const texts = { price: '60', income: '420', preferred: '20', shares: '100', peer: '18' };
    expect(multipleModel('pe', texts).result).toMatchObject({ eps: 4, multiple: 15, impliedPrice: 72 });
    expect(multipleModel('pe', { ...texts, preferred: '420' }).checked.problems).toEqual({ preferred: 'noEarnings' });
  });

  it('P/B: no book value, or a buyback of all of it, is refused', () => {
    const texts = { price: '12', assets: '50000', liabilities: '45000', shares: '500', buyback: '1200' };
    expect(multipleModel('pb', { ...texts, liabilities: '50000' }).checked.problems).toEqual({ liabilities: 'noBook' });
    expect(multipleModel('pb', { ...texts, buyback: '5000' }).checked.problems).toEqual({ buyback: 'buybackTooLarge' });
    expect(multipleModel('pb', { ...texts, buyback: '0' }).result).toMatchObject({ multiple: 1.2, multipleAfter: 1.2 });
  });

  it('EV/EBITDA: the implied price is what is left of the implied EV per share', () => {
    const { result } = multipleModel('ev-ebitda', { price: '20', shares: '100', debt: '500', ebitda: '250', peer: '10' });
    // EV 2,000 + 500 = 2,500 = 10x EBITDA; peers at 10x imply 2,500 − 500 = 2,000 of equity, $20 a share.
    expect(result).toMatchObject({ kind: 'ev-ebitda', enterpriseValue: 2500, multiple: 10, impliedPrice: 20 });
  });

  it('WACC: its defaults give 7.8%, and capital of zero is refused', () => {
    expect(waccTexts(undefined)).toEqual(WACC_DEFAULTS);
    const { result } = waccModel(WACC_DEFAULTS);
    expect(result?.costOfEquity).toBeCloseTo(0.1, 12);
    expect(result?.wacc).toBeCloseTo(0.078, 12);
    expect(waccModel({ ...WACC_DEFAULTS, equity: '0', debt: '0' }).checked.problems).toEqual({ debt: 'noCapital' });
    expect(waccModel({ ...WACC_DEFAULTS, tax: '101' }).checked.problems).toEqual({ tax: 'share' });
  });

  it('WACC: an example nested under capm/wacc is read, missing fields take the defaults', () => {
    const texts = waccTexts({ capm: { risk_free: 0.03, beta: 0.8 }, wacc: { tax_rate: 0.2, market_cap: 900 } });
    expect(texts).toEqual({ ...WACC_DEFAULTS, rf: '3', beta: '0.8', tax: '20', equity: '900' });
  });
});

/** Random texts, from plain to absurd: results are null or entirely finite, never NaN/Infinity. */
describe('no input produces NaN or Infinity', () => {
  const pool = ['', '0', '-1', '1', '2.5', '-99.99', '100', '1000', '99999999999', '-99999999999', 'x', '1e-300', '0.0000001', '50'];
  let seed = 42;
  const pick = () => pool[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % pool.length];
  const finite = (value: unknown): boolean =>
    typeof value === 'number' ? Number.isFinite(value) : value && typeof value === 'object' ? Object.values(value).every(finite) : true;
  const random = (keys: string[]): Texts => Object.fromEntries(keys.map((k) => [k, pick()]));

  it('in every calculator', () => {
    for (let i = 0; i < 1000; i++) {
      const dcf = dcfModel(random(['cf1', 'cf2', 'cf3', 'r', 'g', 'debt', 'shares'])).result;
      expect(finite(dcf)).toBe(true);
      for (const model of DDM_MODELS) expect(finite(ddmModel(model, random(['d0', 'gh', 'n', 'gs', 'h', 'g', 'r'])).result)).toBe(true);
      for (const kind of MULTIPLES) {
        const texts = random(['price', 'income', 'shares', 'peer', 'revenue', 'assets', 'liabilities', 'buyback', 'debt', 'ebitda']);
        expect(finite(multipleModel(kind, texts).result)).toBe(true);
      }
      expect(finite(waccModel(random(['rf', 'beta', 'erp', 'rd', 'tax', 'equity', 'debt'])).result)).toBe(true);
    }
  });

  it('an overflowing combination is refused as a whole', () => {
    const { checked, result } = ddmModel('multi', { d0: '99999999999', gh: '99999999999', n: '50', g: '1', r: '2' });
    expect(result).toBeNull();
    expect(checked.problems).toEqual({ result: 'overflow' });
  });

  it('a dash, never NaN or Infinity, in every format', () => {
    const f = formats('ja');
    for (const x of [NaN, Infinity, -Infinity]) {
      expect([f.money(x), f.fixed(x), f.plain(x), f.percent(x), f.rate(x)]).toEqual(['—', '—', '—', '—', '—']);
    }
  });
});

describe('multipleTexts', () => {
  it('P/B without a buyback in its example starts at no buyback', () => {
    expect(multipleTexts('pb', { price: 12, total_assets: 100, total_liabilities: 40, shares: 10 })).toEqual({
      price: '12',
      assets: '100',
      liabilities: '40',
      shares: '10',
      buyback: '0',
    });
  });
});
