import { describe, expect, it } from 'vitest';
import { ChunkedIndex, bucketOf, decodePosting, queryGrams, safeChunkedSearch, type ChunkedManifest } from './chunked';
import { BUILTIN_LABELS, prepareIndex, search, type SearchOptions } from './search';
import { INDEX, encodeChunked, page } from './testIndex';
import type { IndexPage } from './types';

/** The test index in the generator's chunked format, with the files a search fetches recorded. */
function encode(pages: IndexPage[], options: { perChunk?: number; buckets?: number } = {}) {
  const { manifest, files } = encodeChunked(pages, options);
  const fetched: string[] = [];
  const fetchJson = async (url: string) => {
    const [, lang, name] = /^\/assets\/search\/(\w+)\/(\w+)\.json\?v=x1$/.exec(url)!;
    fetched.push(`${lang}-${name}`);
    if (!files.has(`${lang}-${name}`)) throw new Error(`${url}: 404`);
    return structuredClone(files.get(`${lang}-${name}`));
  };
  return { index: new ChunkedIndex(manifest, '/assets/search', fetchJson), fetched, files };
}

const QUERIES: [string, string][] = [
  ['dcf', 'en'],
  ['dcf', 'zh'],
  ['  DISCOUNTED cash  ', 'en'],
  ['risk-and', 'en'],
  ['share price', 'en'],
  ['how does intrinsic value work', 'en'],
  ['折現', 'zh'],
  ['キャッシュフロー', 'ja'],
  ['什麼是現金流量模型', 'zh'],
  ['valuaton modles', 'en'],
  ['qqqqqqqqqqqqqqqqqqqq', 'ja'],
  ['a', 'en'],
  ['投', 'ja'],
  ['va', 'en'],
  ['investment basics', 'zh'],
  ['my articles', 'en'],
];

describe('the chunked index', () => {
  it('gives the same results as the whole index for every matching rule', async () => {
    const whole = prepareIndex(INDEX);
    for (const [q, lang] of QUERIES) {
      const opts: SearchOptions = { lang, labels: BUILTIN_LABELS };
      const { index } = encode(INDEX.pages);
      const expected = search(whole, q, opts);
      const got = await index.search(q, opts, 1000);
      expect({ q, ...got }, q).toEqual({ q, ...expected, more: false });
    }
  });

  it('fetches only the buckets of the query and the chunks of the pages it may match', async () => {
    const { index, fetched, files } = encode(INDEX.pages, { perChunk: 1, buckets: 64 });
    const out = (await index.search('折現', { lang: 'zh' }))!;
    expect(out.results.map((r) => r.navTarget)).toEqual(['/zh/valuation-models/dcf']);
    const gramFile = (lang: string, g: string) => `${lang}-g${bucketOf(g, 64)}`;
    const itemFile = (lang: string, g: string) => `${lang}-i${bucketOf(g, 4)}`;
    const langs = ['zh', 'en', 'ja'];
    const buckets = () => new Set(fetched.filter((f) => /-[gi]\d+$/.test(f)));
    // the one page that holds 折現, and no other page of any language
    expect(fetched.filter((f) => /-p\d+$/.test(f))).toEqual(['zh-p2']);
    expect(buckets()).toEqual(new Set(langs.flatMap((l) => [gramFile(l, '折現'), itemFile(l, '折現')])));
    expect(fetched.length).toBeLessThan(files.size / 10);
    // a longer English query: its three-character grams and two-character item keys only
    fetched.length = 0;
    await index.search('dcf', { lang: 'en' });
    expect(buckets()).toEqual(new Set(langs.flatMap((l) => [gramFile(l, 'dcf'), itemFile(l, 'dc'), itemFile(l, 'cf')])));
    const pagesRead = fetched.filter((f) => /-p\d+$/.test(f));
    // the pages holding "dcf": the DCF article in three languages and the English landing page;
    // the Chinese article's chunk is still held from the query before
    expect(pagesRead.sort()).toEqual(['en-p1', 'en-p2', 'ja-p2']);
    // a second search for the same query fetches nothing more
    fetched.length = 0;
    await index.search('DCF', { lang: 'en' });
    expect(fetched).toEqual([]);
  });

  it('reads text matches only up to the limit, and reads on for more', async () => {
    const many = Array.from({ length: 40 }, (_, i) => page(`/notes/n${i}`, 'en', `Note ${i}`, `Some words, then the discount rate ${i}.`));
    const { index, fetched } = encode([...many, page('/notes/z', 'en', 'Discount rate', 'A title match.')], { perChunk: 4 });
    const first = (await index.search('discount rate', { lang: 'en' }, 10))!;
    expect(first.more).toBe(true);
    // the title match ranks first though it is the last page; then text matches in index order
    expect(first.results.map((r) => r.navTarget)).toEqual(['/notes/z', ...many.slice(0, 9).map((p) => p.route)]);
    const chunksRead = fetched.filter((f) => /-p\d+$/.test(f)).length;
    expect(chunksRead).toBeLessThanOrEqual(4);
    const all = (await index.search('discount rate', { lang: 'en' }, 100))!;
    expect(all.more).toBe(false);
    expect(all.results).toHaveLength(41);
    expect(all.results.slice(0, 10)).toEqual(first.results);
  });

  it('finds Chinese and Japanese inside unspaced text with one- and two-character queries', async () => {
    const { index } = encode(INDEX.pages);
    const one = (await index.search('總', { lang: 'zh' }))!;
    expect(one.results[0].navTarget).toBe('/zh/valuation-models/dcf');
    expect(one.results[0].textSnippet).toContain('<mark>總</mark>');
    const two = (await index.search('基礎', { lang: 'zh' }))!;
    expect(two.results[0].navTarget).toBe('/zh/investment-basics');
  });

  it('decodes postings as gaps and as bitmaps, and files grams as the generator does', () => {
    expect(decodePosting([3, 7, 2])).toEqual([3, 10, 12]);
    expect(decodePosting(btoa(String.fromCharCode(0b101, 0, 0x80)))).toEqual([0, 2, 23]);
    expect(decodePosting(undefined)).toEqual([]);
    // the same values as generator/src/output/search/tests.rs
    expect(bucketOf('dis', 2 ** 31)).toBe(0xea62b327 % 2 ** 31);
    expect(bucketOf('', 7)).toBe(0x811c9dc5 % 7);
    expect(queryGrams('折現')).toEqual(['折現']);
    expect(queryGrams('rate')).toEqual(['rat', 'ate']);
    expect(queryGrams('discount rate')).toEqual(['dis', 'cou', 'nt ', 'rat', 'ate']);
  });

  it('falls back to a single result to home when a chunk cannot be fetched', async () => {
    const { index, files } = encode(INDEX.pages);
    for (const name of [...files.keys()]) if (name.startsWith('en-p')) files.delete(name);
    const out = (await safeChunkedSearch(index, 'dcf', { lang: 'en' }))!;
    expect(out.results).toHaveLength(1);
    expect(out.results[0]).toMatchObject({ kind: 'fallback', navTarget: '/' });
    expect(() => new ChunkedIndex({ version: 1 } as unknown as ChunkedManifest, '/')).toThrow();
  });
});
