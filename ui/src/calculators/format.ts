// Numbers as the page's language writes them. Nothing that is not a finite number is ever shown
// as NaN or Infinity: it prints as a dash.
import type { Lang } from '../lib/languages';

const LOCALES: Record<Lang, string> = { en: 'en-US', zh: 'zh-TW', ja: 'ja-JP' };
const cache = new Map<string, Intl.NumberFormat>();

function formatter(lang: Lang, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = lang + JSON.stringify(options);
  let f = cache.get(id);
  if (!f) cache.set(id, (f = new Intl.NumberFormat(LOCALES[lang], options)));
  return f;
}

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

export function formats(lang: Lang): Formats {
  const show = (options: Intl.NumberFormatOptions) => (x: number) => (Number.isFinite(x) ? formatter(lang, options).format(x) : DASH);
  const fixed = (x: number, decimals = 2) => show({ minimumFractionDigits: decimals, maximumFractionDigits: decimals })(x);
  return {
    money: show({ style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' }),
    fixed,
    plain: show({ maximumFractionDigits: 2 }),
    percent: (x, decimals) => show({ style: 'percent', minimumFractionDigits: decimals ?? 0, maximumFractionDigits: decimals ?? 2 })(x),
    rate: show({ minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false }),
  };
}
