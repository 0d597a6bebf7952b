// Each valuation article's calculator, started from the article's own `example:` front matter (the
// figures articles.test.ts recomputes and generator/tests/examples.rs finds in the prose), must
// show every stated result exactly as the article prints it: an article and its calculator cannot
// disagree.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { formats } from '../calculators/format';
import { dcf, dcfInput, dcfModel, dcfTexts, yearsOf, type DcfInput } from './dcf';
import { ddmModel, ddmTexts } from './ddm';
import { multipleModel, multipleOf, multipleTexts, MULTIPLE_DECIMALS } from './multiples';
import { impliedGrowth, impliedReturn, marginOfSafety } from './reverseDcf';
import { waccModel, waccTexts } from './wacc';

const dir = path.resolve(__dirname, '../../../content/valuation-models');
const LANGS = ['en', 'zh', 'ja'];
const f = formats('en');

type Example = Record<string, any>;

function frontMatter(file: string): Record<string, any> {
  const text = readFileSync(path.join(dir, file), 'utf8');
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match) throw new Error(`${file}: no front matter`);
  return parse(match[1]);
}

/** The stated figure and the calculator's, both as the calculator prints them. */
function same(name: string, stated: unknown, computed: number, show: (x: number) => string) {
  expect(stated, `the example states ${name}`).toBeTypeOf('number');
  expect(show(computed), name).toBe(show(stated as number));
}

function each(name: string, stated: unknown, computed: number[], show: (x: number) => string) {
  expect(Array.isArray(stated) && stated.length === computed.length, `${name}: one figure per year`).toBe(true);
  computed.forEach((x, t) => same(`${name}[${t}]`, (stated as number[])[t], x, show));
}

const checks: Record<string, (example: Example, route: string) => void> = {
  DcfCalculator(example) {
    const c = example.company;
    const { result } = dcfModel(dcfTexts(example));
    expect(result).not.toBeNull();
    each('present_values', c.present_values, result!.presentValues, f.fixed);
    same('explicit_total', c.explicit_total, result!.explicitTotal, f.fixed);
    same('terminal_value', c.terminal_value, result!.terminalValue, f.fixed);
    same('terminal_present_value', c.terminal_present_value, result!.terminalPresentValue, f.fixed);
    same('enterprise_value', c.enterprise_value, result!.enterpriseValue, f.fixed);
    same('equity_value', c.equity_value, result!.equityValue, f.fixed);
    same('value_per_share', c.value_per_share, result!.valuePerShare, f.money);
  },
  DdmCalculator(example) {
    const texts = ddmTexts(example);
    const gordon = ddmModel('gordon', texts.gordon).result;
    expect(gordon?.model).toBe('gordon');
    if (gordon?.model !== 'gordon') return;
    same('gordon.next_dividend', example.gordon.next_dividend, gordon.next, f.money);
    same('gordon.price', example.gordon.price, gordon.price, f.money);
    const m = example.multi_stage;
    const multi = ddmModel('multi', texts.multi).result;
    expect(multi?.model).toBe('multi');
    if (multi?.model !== 'multi') return;
    each('multi_stage.dividends', m.dividends, multi.dividends, f.money);
    each('multi_stage.present_values', m.present_values, multi.presentValues, f.money);
    same('multi_stage.dividends_present_value', m.dividends_present_value, multi.dividendsPresentValue, f.money);
    same('multi_stage.first_stable_dividend', m.first_stable_dividend, multi.firstStableDividend, f.money);
    same('multi_stage.terminal_price', m.terminal_price, multi.terminalPrice, f.money);
    same('multi_stage.terminal_present_value', m.terminal_present_value, multi.terminalPresentValue, f.money);
    same('multi_stage.price', m.price, multi.price, f.money);
    if (example.h_model) {
      const h = ddmModel('h', texts.h).result;
      same('h_model.price', example.h_model.price, h?.price ?? NaN, f.money);
    }
  },
  MultiplesCalculator(example, route) {
    const kind = multipleOf(route);
    const { result } = multipleModel(kind, multipleTexts(kind, example));
    expect(result?.kind).toBe(kind);
    const multiple = (x: number) => f.fixed(x, MULTIPLE_DECIMALS[kind]);
    if (result?.kind === 'pe') {
      same('eps', example.eps, result.eps, f.money);
      same('pe', example.pe, result.multiple, multiple);
      same('implied_price', example.implied_price, result.impliedPrice, f.money);
    } else if (result?.kind === 'ps') {
      same('market_cap', example.market_cap, result.marketCap, f.plain);
      same('sales_per_share', example.sales_per_share, result.salesPerShare, f.money);
      same('ps', example.ps, result.multiple, multiple);
      same('implied_price', example.implied_price, result.impliedPrice, f.money);
    } else if (result?.kind === 'pb') {
      const b = example.buyback;
      same('book_value', example.book_value, result.bookValue, f.plain);
      same('book_value_per_share', example.book_value_per_share, result.bookValuePerShare, f.money);
      same('pb', example.pb, result.multiple, multiple);
      same('buyback.shares_retired', b.shares_retired, result.sharesRetired, f.plain);
      same('buyback.shares_after', b.shares_after, result.sharesAfter, f.plain);
      same('buyback.book_value_after', b.book_value_after, result.bookValueAfter, f.plain);
      same('buyback.book_value_per_share_after', b.book_value_per_share_after, result.bookValuePerShareAfter, f.money);
      same('buyback.pb_after', b.pb_after, result.multipleAfter, multiple);
    } else if (result?.kind === 'ev-ebitda') {
      same('shares_repurchased', example.shares_repurchased, result.repurchased, f.plain);
      same('diluted_shares', example.diluted_shares, result.diluted, f.plain);
      same('equity_value', example.equity_value, result.equityValue, f.plain);
      same('enterprise_value', example.enterprise_value, result.enterpriseValue, f.plain);
      same('ev_ebitda', example.ev_ebitda, result.multiple, multiple);
      same('ev_sales', example.ev_sales, result.evSales, multiple);
      same('implied_enterprise_value', example.implied_enterprise_value, result.impliedEnterpriseValue, f.plain);
      same('implied_equity_value', example.implied_equity_value, result.impliedEquityValue, f.plain);
      same('implied_price', example.implied_price, result.impliedPrice, f.money);
    }
  },
  WaccCalculator(example) {
    const { result } = waccModel(waccTexts(example));
    const flat: Example = { ...example, ...example.capm, ...example.wacc };
    expect(result).not.toBeNull();
    same('cost_of_equity', flat.cost_of_equity, result!.costOfEquity, (x) => f.percent(x, 2));
    same('wacc', flat.wacc, result!.wacc, (x) => f.percent(x, 2));
  },
};

/** Every article of the section that has an `island:` and an `example:`, by its English file. */
const articles = readdirSync(dir)
  .filter((file) => file.endsWith('.en.md') && !file.startsWith('_index'))
  .map((file) => ({ name: file.slice(0, -'.en.md'.length), front: frontMatter(file) }))
  .filter(({ front }) => front.island && front.example);

describe('the valuation calculators reproduce their articles', () => {
  it('every calculator is attached to its articles', () => {
    const attached = Object.fromEntries(articles.map(({ name, front }) => [name, front.island]));
    expect(attached).toMatchObject({
      dcf: 'DcfCalculator',
      ddm: 'DdmCalculator',
      pe: 'MultiplesCalculator',
      ps: 'MultiplesCalculator',
      pb: 'MultiplesCalculator',
      'ev-ebitda': 'MultiplesCalculator',
    });
  });

  for (const { name, front } of articles) {
    it(`${name}: every stated result, in every language's front matter`, () => {
      const check = checks[front.island];
      expect(check, `no check for island ${front.island}`).toBeDefined();
      for (const lang of LANGS) {
        const page = frontMatter(`${name}.${lang}.md`);
        expect(page.island, `${name}.${lang}.md island`).toBe(front.island);
        check(page.example, `/valuation-models/${name}`);
      }
    });
  }
});

/** Company D as the DCF article's example states it: the company the priced articles read. */
function companyD(): DcfInput {
  const texts = dcfTexts(frontMatter('dcf.en.md').example);
  return dcfInput(dcfModel(texts).checked.values, yearsOf(texts));
}

/** What the DCF calculator says of a price, against an article that reads one backwards or weighs cases. */
function checkPriced(e: Example) {
  const d = companyD();
  const price = e.price;
  const percent = (decimals: number) => (x: number) => f.percent(x, decimals);
  if ('implied_growth' in e) same('implied_growth', e.implied_growth, impliedGrowth(d, price) ?? NaN, percent(2));
  if ('implied_rate' in e) same('implied_rate', e.implied_rate, impliedReturn(d, price) ?? NaN, percent(2));
  if ('base_margin' in e) same('base_margin', e.base_margin, marginOfSafety(dcf(d).valuePerShare, price) ?? NaN, percent(1));
  if (!Array.isArray(e.scenarios)) return;
  const values = e.scenarios.map(
    (c: Example) =>
      dcf({ cashFlows: c.cash_flows, rate: e.discount_rate, growth: c.terminal_growth, netDebt: e.net_debt, shares: e.shares })
        .valuePerShare,
  );
  each(
    'scenarios.value_per_share',
    e.scenarios.map((c: Example) => c.value_per_share),
    values,
    f.money,
  );
  const weighted = values.reduce((sum: number, v: number, i: number) => sum + e.scenarios[i].probability * v, 0);
  same('weighted_value', e.weighted_value, weighted, f.money);
  if ('weighted_margin' in e) same('weighted_margin', e.weighted_margin, marginOfSafety(weighted, price) ?? NaN, percent(1));
}

/** The articles that state what a price implies, or a probability-weighted value, whatever their island. */
const priced = readdirSync(dir)
  .filter((file) => file.endsWith('.en.md') && !file.startsWith('_index'))
  .map((file) => ({ name: file.slice(0, -'.en.md'.length), front: frontMatter(file) }))
  .filter(({ front }) => ['implied_growth', 'implied_rate', 'weighted_value'].some((key) => key in (front.example ?? {})));

// Top-level, not in a describe: without such an article (before the reverse DCF and scenarios
// articles are merged) there is nothing to check, and Vitest refuses an empty describe.
for (const { name } of priced) {
  it(`${name}: the DCF calculator's reverse DCF, cases and margins, in every language's front matter`, () => {
    for (const lang of LANGS) checkPriced(frontMatter(`${name}.${lang}.md`).example);
  });
}
