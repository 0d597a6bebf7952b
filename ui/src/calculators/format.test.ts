import { describe, expect, it } from 'vitest';
import { DASH, formats, type Formats } from './format';
import type { Lang } from '../lib/languages';

// What each writing must equal: Intl.NumberFormat with the page language's locale.
const LOCALES: Record<Lang, string> = { en: 'en-US', zh: 'zh-TW', ja: 'ja-JP' };
const intl = (lang: Lang, options: Intl.NumberFormatOptions) => {
  const f = new Intl.NumberFormat(LOCALES[lang], options);
  return (x: number) => f.format(x);
};
const cases = (lang: Lang): [string, (f: Formats) => (x: number) => string, (x: number) => string][] => [
  ['money', (f) => f.money, intl(lang, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' })],
  ['plain', (f) => f.plain, intl(lang, { maximumFractionDigits: 2 })],
  ['rate', (f) => f.rate, intl(lang, { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false })],
  ['percent', (f) => (x) => f.percent(x), intl(lang, { style: 'percent', minimumFractionDigits: 0, maximumFractionDigits: 2 })],
  ...[0, 1, 2, 3, 4].flatMap((d): [string, (f: Formats) => (x: number) => string, (x: number) => string][] => [
    [`fixed ${d}`, (f) => (x) => f.fixed(x, d), intl(lang, { minimumFractionDigits: d, maximumFractionDigits: d })],
    [`percent ${d}`, (f) => (x) => f.percent(x, d), intl(lang, { style: 'percent', minimumFractionDigits: d, maximumFractionDigits: d })],
  ]),
];

const EDGES = [
  0,
  -0,
  0.5,
  -0.5,
  1.005,
  2.675,
  1.0049999999,
  0.125,
  -0.125,
  0.07,
  0.145,
  1.45,
  0.0005,
  0.00005,
  0.000049,
  -0.001,
  999.995,
  999999.995,
  9.9999,
  99.995,
  0.99995,
  1e-7,
  -1e-7,
  123456789.125,
  1e15 + 0.5,
  1e21,
  1.5e22,
  2 ** 53,
  1234.5,
  -1785.5,
  25.12,
  1556.04,
  0.1 + 0.2,
  1 / 3,
  -2 / 3,
  5e-324,
  1.7976931348623157e308,
];

/** Numbers of every size and sign, many with few decimals (as people type them). */
function randomNumbers(count: number): number[] {
  let seed = 20261124;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, (_, i) => {
    const sign = random() < 0.3 ? -1 : 1;
    if (i % 2) return (sign * Math.round(random() * 10 ** (1 + Math.floor(random() * 9)))) / 10 ** Math.floor(random() * 6);
    return sign * random() * 10 ** (Math.floor(random() * 30) - 12);
  });
}

describe('numbers as the page language writes them', () => {
  for (const lang of ['en', 'zh', 'ja'] as Lang[]) {
    it(`writes every number as Intl.NumberFormat does in ${LOCALES[lang]}`, () => {
      const ours = formats(lang);
      const numbers = [...EDGES, ...randomNumbers(4000)];
      for (const [name, pick, theirs] of cases(lang)) {
        const differ = numbers.filter((x) => pick(ours)(x) !== theirs(x)).map((x) => `${x}: ${pick(ours)(x)} ≠ ${theirs(x)}`);
        expect(differ.slice(0, 5), name).toEqual([]);
      }
    });
  }

  it('writes a dash for what is not a finite number', () => {
    const f = formats('en');
    for (const x of [NaN, Infinity, -Infinity]) {
      expect([f.money(x), f.fixed(x), f.plain(x), f.percent(x), f.rate(x)]).toEqual([DASH, DASH, DASH, DASH, DASH]);
    }
  });

  it('rounds on the decimal a number reads as, and scales percentages in decimal', () => {
    const f = formats('en');
    expect(f.fixed(1.005)).toBe('1.01');
    expect(f.percent(0.07)).toBe('7%');
    expect(f.money(-1234.5)).toBe('-$1,234.50');
    expect(f.fixed(999.995)).toBe('1,000.00');
    expect(f.rate(12345.678912)).toBe('12345.6789');
  });
});
