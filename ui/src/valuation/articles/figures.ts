// What the worked examples' checks share (README, "Writing content"): reading a page's `example:`
// front matter, and a ledger of its figures. Each stated result must lie within half a unit of its
// last shown decimal of both the exact computation from the inputs and the computation from the
// figures the page shows one step earlier (what a reader with a calculator gets), so rounding
// cannot drift. The ledger also records how each figure is printed, which the generator's prose
// test reads from `generator/tests/figures/shown.json` to find each figure in every language.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const CONTENT = path.resolve(__dirname, '../../../../content');

/** How a figure is printed: `$1,234.50`, `1,234.50` (millions, unit in words), `15.0`, `6.27%`. */
export type Kind = 'dollars' | 'amount' | 'plain' | 'percent';

export interface Shown {
  kind: Kind;
  /** Decimals as printed: a percent's are those of its percentage. */
  decimals: number;
}

export const dollars = (decimals: number): Shown => ({ kind: 'dollars', decimals });
export const amount = (decimals: number): Shown => ({ kind: 'amount', decimals });
export const plain = (decimals: number): Shown => ({ kind: 'plain', decimals });
export const percent = (decimals: number): Shown => ({ kind: 'percent', decimals });
/** 1/(1 + r)^t, shown to five decimals: enough for every present value in the tables to come out
 * the same from the factor as from the exact division. */
export const FACTOR = plain(5);
/** Amounts in millions, whole. */
export const MILLIONS = amount(0);

/** Decimals of the number itself: a percent's are two more than its percentage's. */
const places = (shown: Shown) => shown.decimals + (shown.kind === 'percent' ? 2 : 0);

/** `x` as a reader takes it from the printed figure. */
export function asPrinted(x: number, shown: Shown): number {
  const scale = shown.kind === 'percent' ? 100 : 1;
  return Number((x * scale).toFixed(shown.decimals)) / scale;
}

/** One figure the page prints: a path into its `example:`, or a value computed from them, or a
 * path into another article's `example:` (`from`, a page of the same folder). */
export type Printed = Shown & ({ path: string; from?: string } | { value: number });

export type Example = Record<string, any>;

/** The `example:` of `{dir}/{name}.{lang}.md`. */
export function exampleOf(dir: string, name: string, lang = 'en'): Example {
  const file = path.join(CONTENT, dir, `${name}.${lang}.md`);
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'));
  const example = match && parse(match[1])?.example;
  if (!example) throw new Error(`${file}: no \`example:\` in its front matter`);
  return example;
}

/** The number at `path` (`company.present_values[0]`, `sensitivity.values[1][2]`). */
export function at(example: Example, path: string): number {
  let value: any = example;
  for (const step of path.match(/[^.[\]]+/g) ?? []) value = value?.[step];
  if (typeof value !== 'number') throw new Error(`the example has no number at ${path}`);
  return value;
}

export class Figures {
  readonly printed: Printed[] = [];
  readonly errors: string[] = [];
  /** The paths of the figures checked against a computation (results, and figures repeated from
   * another article); the rest are inputs. */
  readonly computed = new Set<string>();

  constructor(readonly example: Example) {}

  /** The stated figure at `path`. */
  at(path: string): number {
    return at(this.example, path);
  }

  /** An input: printed as given, so it must not carry more precision than the page shows. */
  input(path: string, shown: Shown) {
    const value = this.at(path);
    if (Math.abs(asPrinted(value, shown) - value) > 1e-9) {
      this.errors.push(`${path}: ${value} would be shown rounded as ${asPrinted(value, shown)}`);
    }
    this.printed.push({ path, ...shown });
  }

  /** A result: within half a unit of its last shown decimal of both the exact value and the value
   * computed from the figures shown before it. */
  result(path: string, exact: number, fromShown: number, shown: Shown) {
    const stated = this.at(path);
    const tolerance = 0.5 * 10 ** -places(shown) + 1e-9;
    for (const [what, computed] of [
      ['exact', exact],
      ['from the shown figures', fromShown],
    ] as const) {
      if (!(Math.abs(stated - computed) <= tolerance)) {
        this.errors.push(`${path}: the page states ${stated} but ${what} it is ${computed.toFixed(6)}`);
      }
    }
    this.computed.add(path);
    this.printed.push({ path, ...shown });
  }

  /** A result whose exact and shown computations are the same. */
  exact(path: string, computed: number, shown: Shown) {
    this.result(path, computed, computed, shown);
  }

  /** A figure that repeats one from another article's example: it must be the same number. */
  same(path: string, there: number, shown: Shown) {
    const stated = this.at(path);
    if (Math.abs(stated - there) > 1e-9) this.errors.push(`${path}: ${stated} here but ${there} in the article it comes from`);
    this.computed.add(path);
    this.printed.push({ path, ...shown });
  }

  /** A figure the text prints that the example does not keep. */
  show(value: number, shown: Shown) {
    this.printed.push({ value, ...shown });
  }

  /** A figure of another article's example (`from`) that this page prints too. */
  showFrom(from: string, path: string, shown: Shown) {
    this.printed.push({ path, from, ...shown });
  }

  check(claim: string, holds: boolean) {
    if (!holds) this.errors.push(`the text's conclusion no longer holds: ${claim}`);
  }
}

export interface Sensitivity {
  rates: number[];
  growths: number[];
  values: number[][];
}

/**
 * A table of values for every pair of rate (rows) and growth (columns), each recomputed with
 * `value(r, g)`; the row and column of the base case must give the base value, and the value must
 * rise with growth and fall as the rate rises.
 */
export function sensitivity(
  f: Figures,
  name: string,
  base: [number, number, number],
  shown: Shown,
  value: (r: number, g: number) => number,
) {
  const table: Sensitivity = name.split('.').reduce((x: any, k) => x[k], f.example);
  const [baseRate, baseGrowth, baseValue] = base;
  let hasBase = false;
  if (table.values.length !== table.rates.length) f.errors.push(`${name}: one row per rate`);
  table.rates.forEach((r, i) => {
    f.input(`${name}.rates[${i}]`, percent(0));
    const row = table.values[i];
    if (row.length !== table.growths.length) f.errors.push(`${name}: one column per growth rate`);
    table.growths.forEach((g, j) => {
      f.check(`${name}: growth ${g} is below the rate ${r}`, g < r);
      f.exact(`${name}.values[${i}][${j}]`, value(r, g), shown);
      if (Math.abs(r - baseRate) < 1e-12 && Math.abs(g - baseGrowth) < 1e-12) {
        hasBase = true;
        f.check(`${name}: the base case is in the table`, Math.abs(row[j] - baseValue) < 1e-9);
      }
      if (j > 0) f.check(`${name}: value rises with growth`, row[j] > row[j - 1]);
      if (i > 0) f.check(`${name}: value falls as the rate rises`, row[j] < table.values[i - 1][j]);
    });
  });
  table.growths.forEach((_, j) => f.input(`${name}.growths[${j}]`, percent(0)));
  f.check(`${name}: the table includes the base case`, hasBase);
}

/** The ledger as `generator/tests/figures/shown.json` keeps it: one figure a line, so a change
 * to an article's figures shows as a readable diff. */
export function ledgerJson(pages: Record<string, Printed[]>): string {
  const blocks = Object.entries(pages).map(
    ([page, printed]) => `  ${JSON.stringify(page)}: [\n${printed.map((p) => `    ${JSON.stringify(p)}`).join(',\n')}\n  ]`,
  );
  return `{\n${blocks.join(',\n')}\n}\n`;
}
