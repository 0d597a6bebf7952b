// Numbers as the page's language writes them. Nothing that is not a finite number is ever shown
// as NaN or Infinity: it prints as a dash.
//
// English (en-US), Traditional Chinese (zh-TW) and Japanese (ja-JP) write numbers alike: `1,234.5`,
// `-7.8%`, `$25.12`. This writes them as `Intl.NumberFormat` does (`format.test.ts` compares the two
// in each language, on edge cases and thousands of random numbers) without asking it: a page's
// first `Intl.NumberFormat` sets up ICU's data, some 20 ms in Chromium, which made it the longest
// task of a calculator's hydration on a phone.
import type { Lang } from '../lib/languages';

export const DASH = '—';

export interface Formats {
  /** `$25.12` */
  money(x: number): string;
  /** `1,556.04`, or with other decimals (`15.0`) */
  fixed(x: number, decimals?: number): string;
  /** An input echoed back: `300`, `1,785.5` */
  plain(x: number): string;
  /** `7.8%`, or `7.80%` with two decimals */
  percent(x: number, decimals?: number): string;
  /** A rate inside a formula: `0.10`, `0.025` */
  rate(x: number): string;
}

interface Shape {
  min: number;
  max: number;
  grouping?: boolean;
  /** Powers of ten to multiply by first (a percentage's 2). */
  scale?: number;
  prefix?: string;
  suffix?: string;
}

/**
 * A finite `x` with `min` to `max` decimals, rounded half away from zero as Intl rounds: on the
 * shortest decimal that reads back as `x` (`1.005` is 1.01 to two decimals, though the binary
 * number is a hair below 1.005), scaled in decimal (0.07 is 7%, not 7.000000000000001%).
 */
function write(x: number, { min, max, grouping = true, scale = 0, prefix = '', suffix = '' }: Shape): string {
  const negative = x < 0 || Object.is(x, -0);
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e');
  let digits = mantissa.replace('.', '');
  // How many of `digits` stand before the decimal point (negative: zeros come first).
  let point = digits === '0' ? 1 : Number(exponent) + 1 + scale;
  const kept = point + max;
  if (kept < digits.length) {
    const roundsUp = kept >= 0 && digits[kept] >= '5';
    digits = kept > 0 ? digits.slice(0, kept) : '';
    if (roundsUp) {
      const carried = increment(digits);
      if (carried.length > digits.length) point += 1;
      digits = carried;
    }
    if (!digits.replace(/0/g, '')) [digits, point] = ['0', 1];
  }
  const whole = point > 0 ? digits.slice(0, point).padEnd(point, '0') : '0';
  let fraction = point >= 0 ? digits.slice(point) : '0'.repeat(-point) + digits;
  fraction = fraction.slice(0, max).replace(/0+$/, '').padEnd(min, '0');
  const grouped = grouping ? whole.replace(/\B(?=(\d{3})+$)/g, ',') : whole;
  return `${negative ? '-' : ''}${prefix}${grouped}${fraction ? '.' + fraction : ''}${suffix}`;
}

/** A string of decimal digits plus one (`'199'` → `'200'`, `'99'` → `'100'`, `''` → `'1'`). */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i -= 1;
  if (i < 0) return '1' + '0'.repeat(digits.length);
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1);
}

// One writing for the three languages; `lang` names which, should one ever differ.
export function formats(_lang: Lang): Formats {
  const show = (shape: Shape) => (x: number) => (Number.isFinite(x) ? write(x, shape) : DASH);
  return {
    money: show({ min: 2, max: 2, prefix: '$' }),
    fixed: (x, decimals = 2) => show({ min: decimals, max: decimals })(x),
    plain: show({ min: 0, max: 2 }),
    percent: (x, decimals) => show({ min: decimals ?? 0, max: decimals ?? 2, scale: 2, suffix: '%' })(x),
    rate: show({ min: 2, max: 4, grouping: false }),
  };
}
