import { describe, expect, it, vi } from 'vitest';
import {
  BUILTIN_LABELS,
  FUZZY_WEIGHT,
  PRIORITY,
  labelsFromTranslations,
  matchesEitherWay,
  prepareIndex,
  recommendations,
  routeKey,
  safeSearch,
  search,
} from './search';
import { FUZZY_THRESHOLD, similarity } from './similarity';
import { localizedPath } from '../lib/languages';
import { INDEX, page } from './testIndex';
import type { SearchIndex } from './types';

const prepared = prepareIndex(INDEX);
const run = (q: string, lang = 'en') => search(prepared, q, { lang, labels: BUILTIN_LABELS });

describe('matching', () => {
  it('matches case-insensitively in both directions', () => {
    expect(matchesEitherWay('discounted cash flow', 'cash')).toBe(true);
    expect(matchesEitherWay('dcf', 'what is dcf valuation')).toBe(true);
    expect(matchesEitherWay('dcf', 'ddm')).toBe(false);
    // one character is inside nearly every query: not a reverse match
    expect(matchesEitherWay('a', 'valuation')).toBe(false);
  });

  it('ignores an empty or blank query', () => {
    expect(run('')).toBeNull();
    expect(run('   ')).toBeNull();
    expect(safeSearch(prepared, '  \t ', { lang: 'en' })).toBeNull();
  });

  it('trims the query and ignores case', () => {
    const out = run('  DISCOUNTED cash  ')!;
    expect(out.kind).toBe('results');
    expect(out.results[0].navTarget).toBe('/valuation-models/dcf');
  });
});

describe('priorities', () => {
  it('ranks keyword items 1, page paths 2, text matches 3', () => {
    const out = run('dcf')!;
    const dcf = out.results.find((r) => r.navTarget === '/valuation-models/dcf')!;
    expect(dcf.priority).toBe(PRIORITY.keyword);
    expect(dcf.kind).toBe('keyword');
    // the landing page mentions DCF only in its text
    const landing = out.results.find((r) => r.navTarget === '/valuation-models')!;
    expect(landing.priority).toBe(PRIORITY.text);
    expect(out.results.indexOf(dcf)).toBeLessThan(out.results.indexOf(landing));

    const path = run('risk-and')!.results[0];
    expect(path.navTarget).toBe('/investment-basics/risk-and-reward');
    expect(path.priority).toBe(PRIORITY.path);

    const text = run('share price')!.results[0];
    expect(text.navTarget).toBe('/valuation-models/pe');
    expect(text.priority).toBe(PRIORITY.text);
  });

  it('puts the page whose title holds the query first among equal priorities', () => {
    const idx = prepareIndex({
      version: 1,
      pages: [
        page('/tools', 'en', 'Tools', 'A DCF calculator.', ['dcf']),
        page('/valuation-models/dcf', 'en', 'Discounted Cash Flow (DCF)', 'DCF explained.', ['dcf']),
      ],
    });
    expect(search(idx, 'dcf', { lang: 'en' })!.results.map((r) => r.navTarget)).toEqual(['/valuation-models/dcf', '/tools']);
  });

  it('matches an item contained in a longer query (reverse direction)', () => {
    const out = run('how does intrinsic value work')!;
    expect(out.kind).toBe('results');
    expect(out.results[0].navTarget).toBe('/valuation-models/dcf');
    expect(out.results[0].priority).toBe(PRIORITY.keyword);
  });

  it("puts results in the page's language first", () => {
    const out = run('dcf', 'zh')!;
    expect(out.results[0].lang).toBe('zh');
    expect(out.results[0].navTarget).toBe('/zh/valuation-models/dcf');
    const langs = out.results.map((r) => r.lang);
    const firstOther = langs.findIndex((l) => l !== 'zh');
    expect(langs.slice(firstOther).every((l) => l !== 'zh')).toBe(true);
  });

  it('matches translation labels at priority 3', () => {
    // "My Articles" is /about's label; no /about page in this index, so use one that exists
    const labels = { en: { 'risk-and-reward': 'Gains and losses' } };
    const out = search(prepared, 'gains and losses', { lang: 'en', labels })!;
    expect(out.results[0].navTarget).toBe('/investment-basics/risk-and-reward');
    expect(out.results[0].priority).toBe(PRIORITY.text);
  });
});

describe('Chinese and Japanese', () => {
  it('finds a Chinese term inside unspaced text', () => {
    const out = run('折現', 'zh')!;
    expect(out.kind).toBe('results');
    expect(out.results[0].navTarget).toBe('/zh/valuation-models/dcf');
    expect(out.results[0].textSnippet).toContain('<mark>折現</mark>');
  });

  it('finds a Japanese term inside unspaced text', () => {
    const out = run('キャッシュフロー', 'ja')!;
    expect(out.results[0].navTarget).toBe('/ja/valuation-models/dcf');
    expect(out.results[0].textSnippet).toContain('<mark>キャッシュフロー</mark>');
  });

  it('matches a Chinese keyword contained in a longer Chinese query', () => {
    const out = run('什麼是現金流量模型', 'zh')!;
    expect(out.results[0].navTarget).toBe('/zh/valuation-models/dcf');
    expect(out.results[0].priority).toBe(PRIORITY.keyword);
  });
});

describe('no match', () => {
  it('offers the best fuzzy match when its similarity is above 0.2', () => {
    const out = run('valuaton modles')!;
    expect(out.kind).toBe('fuzzy');
    expect(out.results).toHaveLength(1);
    expect(out.results[0].navTarget).toBe('/valuation-models');
  });

  it('weighs a misspelt title above a similar keyword or a page that only lists the word', () => {
    const idx = prepareIndex({
      version: 1,
      pages: [
        page('/', 'en', 'Alex Chen', 'Developer and investor.', ['portfolio', 'valuation']),
        page('/valuation-models', 'en', 'Valuation Models', 'P/E, P/S, P/B, DCF and DDM.', ['valuation']),
        page('/valuation-models/pe', 'en', 'Price to Earnings (P/E)', 'The P/E ratio.', ['valuation', 'multiples']),
        page('/valuation-models/ddm', 'en', 'Dividend Discount Model (DDM)', 'Dividends, discounted.', ['dividend', 'gordon growth']),
        page('/investment-basics/types-of-investments', 'en', 'Types of Investments', 'Stocks, bonds.', ['private equity', 'bonds']),
        page('/climbers-deal-privacy', 'en', 'Climbers Deal privacy policy', 'What the app stores.', ['privacy']),
      ],
    });
    const suggestion = (q: string) => {
      const out = search(idx, q, { lang: 'en', labels: BUILTIN_LABELS })!;
      expect(out.kind).toBe('fuzzy');
      return out.results.map((r) => r.navTarget);
    };
    expect(suggestion('valuaton')).toEqual(['/valuation-models']);
    expect(suggestion('privcy policy')).toEqual(['/climbers-deal-privacy']);
    expect(suggestion('dividnd discont modle')).toEqual(['/valuation-models/ddm']);
    expect(suggestion('privat equty')).toEqual(['/investment-basics/types-of-investments']);
    expect(FUZZY_WEIGHT.title).toBeGreaterThan(FUZZY_WEIGHT.keyword);
  });

  it('uses the 0.2 threshold strictly', () => {
    expect(FUZZY_THRESHOLD).toBe(0.2);
    expect(similarity('abcde', 'abcde')).toBe(1);
    expect(similarity('ABC', 'abc')).toBe(1);
    // 4 edits over 5 characters: exactly 0.2, which is not above it
    expect(similarity('abxyz', 'abcde')).toBeCloseTo(0.4);
    expect(similarity('axxxx', 'abcde')).toBeCloseTo(0.2);
    const idx = prepareIndex({ version: 1, pages: [page('/abcde', 'en', 'abcde', '', [])] });
    expect(search(idx, 'axxxx', { lang: 'en' })!.kind).toBe('recommended');
    expect(search(idx, 'abxxx', { lang: 'en' })!.kind).toBe('fuzzy');
  });

  it('recommends home, valuation models and investment basics (priority 10+) otherwise', () => {
    const out = run('qqqqqqqqqqqqqqqqqqqq', 'ja')!;
    expect(out.kind).toBe('recommended');
    expect(out.results.map((r) => r.navTarget)).toEqual(['/ja/', '/ja/valuation-models', '/ja/investment-basics']);
    expect(out.results.map((r) => r.priority)).toEqual([10, 11, 12]);
  });

  it('recommends localised paths even without an index', () => {
    expect(recommendations(null, 'zh').map((r) => r.navTarget)).toEqual(['/zh/', '/zh/valuation-models', '/zh/investment-basics']);
  });
});

describe('errors', () => {
  it('gives a single fallback result to home when the search fails', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const out = safeSearch(null, 'dcf', { lang: 'zh' })!;
    expect(out.results).toHaveLength(1);
    expect(out.results[0].navTarget).toBe('/zh/');
    expect(out.results[0].kind).toBe('fallback');

    const broken = { pages: [{ page: null, order: 0 }] } as never;
    const again = safeSearch(broken, 'dcf', { lang: 'en' })!;
    expect(again.results.map((r) => r.navTarget)).toEqual(['/']);
    warn.mockRestore();
  });

  it('rejects an index without pages', () => {
    expect(() => prepareIndex({} as SearchIndex)).toThrow();
  });
});

describe('helpers', () => {
  it('derives route keys and localised paths', () => {
    expect(routeKey('/')).toBe('home');
    expect(routeKey('/valuation-models/dcf')).toBe('dcf');
    expect(localizedPath('/login', 'zh')).toBe('/zh/login');
    expect(localizedPath('/', 'ja')).toBe('/ja/');
    expect(localizedPath('/login', 'en')).toBe('/login');
  });

  it('reads route labels from translation files', () => {
    const labels = labelsFromTranslations({
      zh: { breadcrumb: { home: '首頁', segments: { notes: '筆記', bad: 3 } } },
      ja: {},
    });
    expect(labels).toEqual({ zh: { home: '首頁', notes: '筆記' }, ja: {} });
  });
});
