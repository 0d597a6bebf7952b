// The worked examples of the valuation articles and of the equity-research case are arithmetic a
// reader may copy: every figure under `example:` in their front matter is recomputed here with the
// calculators' modules (README, "Writing content"). The figures each page prints, and how, go to
// `generator/tests/figures/shown.json`, which the generator's prose test reads to find each one in
// every language; this test fails when that committed file is not what the examples give
// (`UPDATE_FIGURES=1 npm --prefix ui test -- --run src/valuation/articles` rewrites it).
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { costOfCapitalExample, dividendDiscountExample, discountedCashFlowExample } from './articles/cashFlow';
import { fullDilutionExample, marketInputsExample, residualIncomeExample } from './articles/claims';
import { marginOfSafetyExample, returnOnCapitalExample, reverseDcfExample } from './articles/drivers';
import { equityResearchExample } from './articles/equityResearch';
import {
  amount,
  at,
  dollars,
  exampleOf,
  Figures,
  ledgerJson,
  percent,
  plain,
  type Example,
  type Printed,
  type Shown,
} from './articles/figures';
import { enterpriseMultipleExample, priceBookExample, priceEarningsExample, priceSalesExample } from './articles/multiples';

const LEDGER = path.resolve(__dirname, '../../../generator/tests/figures/shown.json');
const model = (name: string) => exampleOf('valuation-models', name);
const companyD = () => model('dcf').company;

/** Each page's checks, by its path under `content/` without the language; the examples another
 * article continues are read from that article's English page. */
const PAGES: Record<string, (f: Figures) => void> = {
  'valuation-models/pe': priceEarningsExample,
  'valuation-models/ps': priceSalesExample,
  'valuation-models/pb': priceBookExample,
  'valuation-models/ev-ebitda': (f) => enterpriseMultipleExample(f, companyD()),
  'valuation-models/dcf': discountedCashFlowExample,
  'valuation-models/wacc': (f) => costOfCapitalExample(f, companyD()),
  'valuation-models/ddm': dividendDiscountExample,
  'valuation-models/roic': (f) => returnOnCapitalExample(f, companyD(), model('wacc')),
  'valuation-models/reverse-dcf': (f) => reverseDcfExample(f, companyD(), model('wacc'), model('roic')),
  'valuation-models/margin-of-safety': (f) => marginOfSafetyExample(f, companyD(), model('wacc'), model('reverse-dcf')),
  'valuation-models/dilution': (f) => fullDilutionExample(f, companyD(), model('wacc')),
  'valuation-models/residual-income': (f) => residualIncomeExample(f, model('pb')),
  'valuation-models/where-the-numbers-come-from': (f) => marketInputsExample(f, model('wacc')),
  'equity-research': equityResearchExample,
};

function figuresOf(page: string, example: Example): Figures {
  const f = new Figures(example);
  PAGES[page](f);
  return f;
}

/** `example` with `value` at `path`. */
function setAt(example: Example, path: string, value: number) {
  const steps = path.match(/[^.[\]]+/g)!;
  const parent = steps.slice(0, -1).reduce((x: any, step) => x[step], example);
  parent[steps[steps.length - 1]] = value;
}

/** One unit of a figure's last shown decimal. */
const unitOf = (shown: Shown) => 10 ** -(shown.decimals + (shown.kind === 'percent' ? 2 : 0));

const englishExample = (page: string) => exampleOf(path.dirname(page), path.basename(page));

describe('the worked examples are arithmetically right', () => {
  for (const page of Object.keys(PAGES)) {
    it(`${page}: every stated result, from the inputs and from the figures shown before it`, () => {
      expect(figuresOf(page, englishExample(page)).errors).toEqual([]);
    });
  }

  it('every result is checked: one unit more in its last shown decimal is an error', () => {
    for (const page of Object.keys(PAGES)) {
      const example = englishExample(page);
      const f = figuresOf(page, example);
      for (const figure of f.printed) {
        if (!('path' in figure) || figure.from || !f.computed.has(figure.path)) continue;
        const changed = structuredClone(example);
        setAt(changed, figure.path, at(example, figure.path) + unitOf(figure));
        expect(figuresOf(page, changed).errors, `${page}: ${figure.path}`).not.toEqual([]);
      }
    }
  });

  it('every input is used: half as much again, still as printed, is an error somewhere', () => {
    const unused: string[] = [];
    for (const page of Object.keys(PAGES)) {
      const example = englishExample(page);
      const f = figuresOf(page, example);
      for (const figure of f.printed) {
        if (!('path' in figure) || figure.from || f.computed.has(figure.path)) continue;
        const [value, unit] = [at(example, figure.path), unitOf(figure)];
        const changed = structuredClone(example);
        setAt(changed, figure.path, value + unit * Math.max(1, Math.round((Math.abs(value) * 0.5) / unit)));
        if (figuresOf(page, changed).errors.length === 0) unused.push(`${page}: ${figure.path}`);
      }
    }
    // Nothing is computed from the minority's book value: the text only sets it below the stake's
    // market value, which half as much again does not change.
    expect(unused).toEqual(['valuation-models/dilution: minority.book_value']);
  });

  it('the figures each page prints are the ones generator/tests/figures/shown.json lists', () => {
    const ledger: Record<string, Printed[]> = {};
    for (const page of Object.keys(PAGES)) ledger[page] = figuresOf(page, englishExample(page)).printed;
    const json = ledgerJson(ledger);
    if (process.env.UPDATE_FIGURES) writeFileSync(LEDGER, json);
    expect(readFileSync(LEDGER, 'utf8'), 'rerun with UPDATE_FIGURES=1 to rewrite it, and commit it').toBe(json);
  });
});

describe('a figure is checked to half a unit of its last shown decimal', () => {
  it('a result off by more than that is an error, from the inputs and from the shown figures', () => {
    const f = new Figures({ x: 15.1, y: 15.04, price: 19.16 });
    f.result('x', 15.0, 15.0, plain(1));
    f.result('y', 15.0, 15.0, plain(1));
    f.result('price', 19.15, 19.16, dollars(2));
    expect(f.errors).toHaveLength(3);
    expect(f.errors[0]).toMatch(/^x: the page states 15.1 but exact it is 15.000000/);
    expect(f.errors[2]).toMatch(/^price: .* exact it is 19.150000/);
  });

  it('an input that carries more precision than the page shows is an error', () => {
    const f = new Figures({ rate: 0.055, fine: 0.0845, whole: 1861, big: 50000 });
    f.input('rate', percent(0));
    f.input('fine', percent(1));
    f.input('whole', amount(0));
    f.input('big', amount(0));
    expect(f.errors.map((e) => e.split(':')[0])).toEqual(['rate', 'fine']);
  });

  it('a figure repeated from another article must be the same number', () => {
    const f = new Figures({ shares: 100 });
    f.same('shares', 101, amount(0));
    expect(f.errors).toEqual(['shares: 100 here but 101 in the article it comes from']);
  });

  it('a path the example lacks is an error, not a figure of zero', () => {
    expect(() => new Figures({ company: { cash_flows: [1] } }).input('company.cash_flows[1]', amount(0))).toThrow(/no number at/);
  });
});
