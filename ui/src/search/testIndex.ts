// A small index in three languages, shared by the tests of both search engines.
import { bucketOf, type ChunkedManifest } from './chunked';
import { BUILTIN_LABELS, routeKey } from './search';
import type { IndexPage, SearchIndex } from './types';

export function page(route: string, lang: string, title: string, text: string, keywords: string[] = []): IndexPage {
  const url = lang === 'en' ? route : route === '/' ? `/${lang}/` : `/${lang}${route}`;
  return { route, url, lang, title, text, keywords };
}

export const INDEX: SearchIndex = {
  version: 1,
  pages: [
    page('/', 'en', 'Alex Chen', 'Full-stack developer and investment representative.', ['profile']),
    page('/valuation-models', 'en', 'Valuation Models', 'How to value a company: P/E, P/S, P/B, DCF and DDM.'),
    page(
      '/valuation-models/dcf',
      'en',
      'Discounted Cash Flow',
      'The value of a business is the sum of its future cash flows, discounted.',
      ['dcf', 'intrinsic value'],
    ),
    page('/valuation-models/pe', 'en', 'Price to Earnings', 'The P/E ratio compares the share price with earnings per share.'),
    page('/investment-basics', 'en', 'Investment Basics', 'Start here: what investing is, risk and reward.'),
    page('/investment-basics/risk-and-reward', 'en', 'Risk and Reward', 'Higher expected return comes with higher risk of loss.'),
    page('/', 'zh', '陳艾力', '全端工程師與投資代表。'),
    page('/valuation-models', 'zh', '估值模型', '如何評估一家公司的價值：本益比、股價營收比、股價淨值比。'),
    page('/valuation-models/dcf', 'zh', '現金流量折現', '企業的價值是其未來現金流量折現後的總和。', ['現金流量', 'dcf']),
    page('/investment-basics', 'zh', '投資基礎', '從這裡開始：什麼是投資，風險與報酬。'),
    page('/', 'ja', 'アレックス・チェン', 'フルスタック開発者、投資担当者。'),
    page('/valuation-models', 'ja', 'バリュエーションモデル', '企業価値の評価方法：株価収益率など。'),
    page('/valuation-models/dcf', 'ja', '割引キャッシュフロー', '企業の価値は将来のキャッシュフローを割り引いた合計です。', ['dcf']),
    page('/investment-basics', 'ja', '投資の基礎', 'ここから始めましょう：投資とは何か、リスクとリターン。'),
  ],
};

/**
 * The generator's format (generator/src/output/search/) written out for a test index: grams
 * of one to three characters, postings as gaps, items filed under their first two characters.
 */
export function encodeChunked(pages: IndexPage[], { perChunk = 2, buckets = 16 } = {}) {
  const files = new Map<string, unknown>();
  const langs: ChunkedManifest['langs'] = {};
  const grams = (s: string) => {
    const cps = Array.from(s);
    const out = new Set<string>();
    cps.forEach((_, i) => [1, 2, 3].forEach((n) => i + n <= cps.length && out.add(cps.slice(i, i + n).join(''))));
    return out;
  };
  const gaps = (ids: number[]) => ids.map((id, i) => (i ? id - ids[i - 1] : id));
  for (const lang of ['en', 'zh', 'ja']) {
    const mine = pages.map((p, order) => ({ p, order })).filter(({ p }) => p.lang === lang);
    const gramFiles = Array.from({ length: buckets }, () => ({}) as Record<string, [number[], number[]]>);
    const itemFiles = Array.from({ length: 4 }, () => ({}) as Record<string, number[]>);
    const meta = new Map<string, number[]>();
    const text = new Map<string, number[]>();
    const items = new Map<string, number[]>();
    const keys: Record<string, number[]> = {};
    mine.forEach(({ p }, id) => {
      const route = p.route.toLowerCase();
      const segments = route.split('/').filter(Boolean);
      const its = [
        p.title.toLowerCase(),
        route,
        ...p.keywords.map((k) => k.toLowerCase()),
        ...segments.flatMap((s) => [s, s.replace(/-/g, ' ')]),
      ].filter(Boolean);
      const m = new Set<string>();
      for (const it of new Set(its)) {
        grams(it).forEach((g) => m.add(g));
        if (Array.from(it).length >= 2) items.set(it, [...(items.get(it) ?? []), id]);
      }
      m.forEach((g) => meta.set(g, [...(meta.get(g) ?? []), id]));
      grams(p.text.toLowerCase()).forEach((g) => text.set(g, [...(text.get(g) ?? []), id]));
      const key = routeKey(p.route);
      if (segments.length <= 1 || BUILTIN_LABELS.en[key]) keys[key] = [...(keys[key] ?? []), id];
    });
    for (const g of new Set([...meta.keys(), ...text.keys()])) {
      gramFiles[bucketOf(g, buckets)][g] = [gaps(meta.get(g) ?? []), gaps(text.get(g) ?? [])];
    }
    for (const [it, ids] of items) itemFiles[bucketOf(Array.from(it).slice(0, 2).join(''), itemFiles.length)][it] = gaps(ids);
    const named = (kind: string, list: unknown[]) => list.forEach((content, n) => files.set(`${lang}-${kind}${n}`, content));
    const chunkList: unknown[] = [];
    for (let first = 0; first < mine.length; first += perChunk) {
      chunkList.push(mine.slice(first, first + perChunk).map(({ p, order }) => [order, p.route, p.url, p.title, p.text, p.keywords]));
    }
    named('p', chunkList);
    named('g', gramFiles);
    named('i', itemFiles);
    files.set(
      `${lang}-v`,
      mine.map(({ p }) => [p.route, p.title, p.keywords]),
    );
    langs[lang] = { v: 'x1', pages: mine.length, per: perChunk, grams: gramFiles.length, items: itemFiles.length, keys };
  }
  return { manifest: { version: 2 as const, langs }, files };
}
