// A calculator's inputs are the text the reader typed (kept as typed, so the URL and the fields
// round-trip exactly); this turns them into numbers or into a reason they cannot be used.

/** How a field's number is read and shown: a percent field holds 10 for 0.10. */
export type Unit = 'percent' | 'money' | 'amount' | 'number' | 'years';

/** What a field's number must satisfy beyond being a number. */
export type Rule = 'any' | 'positive' | 'nonNegative' | 'rate' | 'years' | 'share' | 'probability';

/** Why a field cannot be used; each has a message under `calculator.error.` in the locales. */
export type Problem =
  | 'blank'
  | 'notNumber'
  | 'tooLarge'
  | 'positive'
  | 'nonNegative'
  | 'rate'
  | 'years'
  | 'share'
  | 'probability'
  | 'growthBelowRate'
  | 'caseGrowth'
  | 'probabilities'
  | 'noEarnings'
  | 'noBook'
  | 'buybackTooLarge'
  | 'noEquity'
  | 'noCapital'
  | 'overflow';

export interface Spec {
  /** The field's name, also its query-string key. */
  key: string;
  unit: Unit;
  rule?: Rule;
}

export type Texts = Record<string, string>;

export interface Checked {
  values: Record<string, number>;
  problems: Record<string, Problem>;
}

/** Larger inputs would overflow the arithmetic into Infinity somewhere. */
const LIMIT = 1e12;
const MAX_YEARS = 50;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/**
 * The number in a field's text: full-width digits (a Japanese or Chinese keyboard), thousands
 * separators, a typographic minus and a trailing % are accepted as a reader would write them.
 */
export function parseNumber(text: string): number | 'blank' | 'notNumber' | 'tooLarge' {
  const clean = text
    .normalize('NFKC')
    .replace(/[\u2212\u2013]/g, '-')
    .replace(/[,\s]/g, '')
    .replace(/%$/, '');
  if (clean === '') return text.trim() === '' ? 'blank' : 'notNumber';
  if (!NUMBER.test(clean)) return 'notNumber';
  const value = Number(clean);
  return Math.abs(value) < LIMIT ? value : 'tooLarge';
}

function breaks(rule: Rule, value: number): boolean {
  switch (rule) {
    case 'positive':
      return !(value > 0);
    case 'nonNegative':
      return value < 0;
    // A rate of −100% or less makes (1 + r) zero or negative: nothing can be discounted by it.
    case 'rate':
      return value <= -1;
    case 'years':
      return !Number.isInteger(value) || value < 1 || value > MAX_YEARS;
    case 'share':
    case 'probability':
      return value < 0 || value > 1;
    default:
      return false;
  }
}

/** Every field's number (percent fields as fractions) or its problem. */
export function check(specs: Spec[], texts: Texts): Checked {
  const checked: Checked = { values: {}, problems: {} };
  for (const { key, unit, rule = 'any' } of specs) {
    const parsed = parseNumber(texts[key] ?? '');
    if (typeof parsed === 'string') {
      checked.problems[key] = parsed;
      continue;
    }
    const value = unit === 'percent' ? parsed / 100 : parsed;
    if (rule !== 'any' && breaks(rule, value)) checked.problems[key] = rule;
    else checked.values[key] = value;
  }
  return checked;
}

/** A growing perpetuity needs its growth below the rate; the growth field is told why. */
export function requireGrowthBelowRate(checked: Checked, growth: string, rate: string): void {
  const { values, problems } = checked;
  if (growth in values && rate in values && values[growth] >= values[rate]) {
    problems[growth] = 'growthBelowRate';
    delete values[growth];
  }
}

export const isValid = (checked: Checked) => Object.keys(checked.problems).length === 0;

/** The key of a problem with the result as a whole rather than with one field. */
export const RESULT = 'result';

function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value && typeof value === 'object') return Object.values(value).every(allFinite);
  return true;
}

/**
 * The result of valid inputs, or null. Inputs can be each within bounds and still overflow
 * together (20 years of 1,000,000% growth): such a result is refused as a whole, never shown.
 */
export function settle<R>(checked: Checked, compute: (values: Record<string, number>) => R): R | null {
  if (!isValid(checked)) return null;
  const result = compute(checked.values);
  if (allFinite(result)) return result;
  checked.problems[RESULT] = 'overflow';
  return null;
}

/** A number from the front matter as a reader would type it into its field. */
export function toText(value: unknown, unit: Unit): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  // 0.07 * 100 is 7.000000000000001 in floating point; the article wrote 7.
  return String(unit === 'percent' ? Number((value * 100).toPrecision(12)) : value);
}

/** The texts of `specs` from an example's fields (`from` maps a field key to the example's key). */
export function textsFrom(example: unknown, specs: Spec[], from: Record<string, string>): Texts {
  const source = (example && typeof example === 'object' ? example : {}) as Record<string, unknown>;
  const texts: Texts = {};
  for (const spec of specs) texts[spec.key] = toText(source[from[spec.key] ?? spec.key], spec.unit);
  return texts;
}

/** The part of a front-matter example under `key`, or nothing. */
export function part(example: unknown, key: string): unknown {
  return example && typeof example === 'object' ? (example as Record<string, unknown>)[key] : undefined;
}
