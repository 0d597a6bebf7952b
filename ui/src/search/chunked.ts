// The generator's chunked search index (docs/internals.md, "The search index"): a query fetches
// the n-gram buckets of its substrings, then only the page chunks of the pages those buckets say
// may match, and runs the same matching as over a whole index (search.ts) on just those pages.
import {
  MIN_ITEM_IN_QUERY,
  bestFuzzy,
  compareHits,
  fallbackResults,
  matchesEitherWay,
  matchPage,
  preparePage,
  recommendations,
  routeKey,
  toResult,
  RECOMMENDED_ROUTES,
  PRIORITY,
  type Hit,
  type PreparedPage,
  type SearchOptions,
  type SearchOutcome,
} from './search';

/** Page ids: gaps between ascending ids, or a base64 bitmap (bit i of byte i/8 for page i). */
type Posting = number[] | string;

interface LangManifest {
  /** The language's version: a hash of all its files, added to their URLs. */
  v: string;
  pages: number;
  /** Pages per chunk: chunk `p{n}` holds pages n × per to (n + 1) × per − 1. */
  per: number;
  /** Gram buckets `g{n}` (a gram lives in `bucketOf(gram, grams)`) and item buckets `i{n}` (an
   * item lives in the bucket of its first two characters). */
  grams: number;
  items: number;
  /** Route key (last segment) → pages: the keys a label can name, and the top-level routes. */
  keys: Record<string, number[]>;
}

export interface ChunkedManifest {
  version: 2;
  langs: Record<string, LangManifest>;
}

/** gram → [pages with it in a title, keyword or route; pages with it in the text] */
type GramBucket = Record<string, [Posting, Posting]>;
/** title, keyword, route or segment → pages */
type ItemBucket = Record<string, Posting>;

type PageRecord = [order: number, route: string, url: string, title: string, text: string, keywords: string[]];
type VocabRecord = [route: string, title: string, keywords: string[]];

/** Results shown before "show more": a screenful, few enough that a query common to thousands
 * of pages reads the text of a few dozen. */
export const RESULT_LIMIT = 10;

export interface ChunkedOutcome extends SearchOutcome {
  /** Pages may match beyond the results: more can be asked for with a larger limit. */
  more: boolean;
}

/** FNV-1a over UTF-16 code units, as the generator files grams (`bucket_of` in generator/src/output/search/grams.rs). */
export function bucketOf(gram: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < gram.length; i++) {
    hash ^= gram.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % buckets;
}

export function decodePosting(posting: Posting | undefined): number[] {
  if (posting === undefined) return [];
  if (Array.isArray(posting)) {
    let id = 0;
    return posting.map((gap, i) => (id = i === 0 ? gap : id + gap));
  }
  const bytes = atob(posting);
  const ids: number[] = [];
  for (let byte = 0; byte < bytes.length; byte++) {
    const bits = bytes.charCodeAt(byte);
    for (let bit = 0; bit < 8; bit++) if (bits & (1 << bit)) ids.push(byte * 8 + bit);
  }
  return ids;
}

/**
 * The substrings a query is looked up by: three-character ones that cover it (every third, and
 * the last), or itself when shorter. A page holding the query holds them all; the pages they
 * allow are then matched in full, so fewer lookups only mean more pages to read.
 */
export function queryGrams(q: string): string[] {
  const cps = Array.from(q);
  if (cps.length < 3) return [q];
  const starts = cps.slice(0, -2).flatMap((_, i) => (i % 3 === 0 || i === cps.length - 3 ? [i] : []));
  return [...new Set(starts.map((i) => cps.slice(i, i + 3).join('')))];
}

/** Its two-character substrings: every item (≥ 2 characters) inside the query starts with one. */
function queryBigrams(q: string): string[] {
  const cps = Array.from(q);
  return [...new Set(cps.slice(0, -1).map((_, i) => cps[i] + cps[i + 1]))];
}

function intersect(lists: number[][]): number[] {
  if (!lists.length) return [];
  const [first, ...rest] = [...lists].sort((a, b) => a.length - b.length);
  const sets = rest.map((l) => new Set(l));
  return first.filter((id) => sets.every((s) => s.has(id)));
}

type FetchJson = (url: string) => Promise<unknown>;

const defaultFetch: FetchJson = async (url) => {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
};

export class ChunkedIndex {
  private readonly files = new Map<string, Promise<unknown>>();
  private readonly prepared = new Map<string, Map<number, PreparedPage>>();

  constructor(
    readonly manifest: ChunkedManifest,
    /** Where the chunk files are: `/assets/search`. */
    private readonly base: string,
    private readonly fetchJson: FetchJson = defaultFetch,
  ) {
    if (manifest?.version !== 2 || typeof manifest.langs !== 'object') throw new Error('not a chunked search index');
  }

  /** Languages in the order their results are shown: the page's own first. */
  private languages(lang: string): string[] {
    const all = Object.keys(this.manifest.langs);
    return all.includes(lang) ? [lang, ...all.filter((l) => l !== lang)] : all;
  }

  /** One file of a language, fetched once (a failed fetch is tried again by the next query). */
  private file<T>(lang: string, name: string): Promise<T> {
    const url = `${this.base}/${lang}/${name}.json?v=${this.manifest.langs[lang].v}`;
    let pending = this.files.get(url);
    if (!pending) {
      pending = this.fetchJson(url);
      pending.catch(() => this.files.delete(url));
      this.files.set(url, pending);
    }
    return pending as Promise<T>;
  }

  private bucket<T>(lang: string, kind: 'grams' | 'items', key: string): Promise<T> {
    const count = this.manifest.langs[lang][kind];
    return this.file<T>(lang, `${kind[0]}${bucketOf(key, count)}`);
  }

  /** Pages by id, fetching the chunks they are in. */
  private async pages(lang: string, ids: number[]): Promise<PreparedPage[]> {
    const { per } = this.manifest.langs[lang];
    let cache = this.prepared.get(lang);
    if (!cache) this.prepared.set(lang, (cache = new Map()));
    const missing = [...new Set(ids.filter((id) => !cache.has(id)).map((id) => Math.floor(id / per)))];
    await Promise.all(
      missing.map(async (c) => {
        const records = await this.file<PageRecord[]>(lang, `p${c}`);
        records.forEach(([order, route, url, title, text, keywords], i) =>
          cache.set(c * per + i, preparePage({ route, url, lang, title, text, keywords }, order)),
        );
      }),
    );
    return ids.map((id) => cache.get(id)!).filter(Boolean);
  }

  /**
   * The pages of `lang` that may match `q`: `first` those with all its grams in their titles,
   * keywords and routes, an item inside the query, or a matching label (few, and all ranked
   * before text matches); `text` those with all its grams in their text, ascending.
   */
  async candidates(lang: string, q: string, opts: SearchOptions): Promise<{ first: number[]; text: number[] }> {
    const grams = queryGrams(q);
    const bigrams = Array.from(q).length >= MIN_ITEM_IN_QUERY ? queryBigrams(q) : [];
    const [gramBuckets, itemBuckets] = await Promise.all([
      Promise.all(grams.map((g) => this.bucket<GramBucket>(lang, 'grams', g))),
      Promise.all(bigrams.map((g) => this.bucket<ItemBucket>(lang, 'items', g))),
    ]);
    const postings = grams.map((g, i) => gramBuckets[i][g]);
    const meta = postings.some((p) => !p) ? [] : intersect(postings.map((p) => decodePosting(p![0])));
    const text = postings.some((p) => !p) ? [] : intersect(postings.map((p) => decodePosting(p![1])));
    const first = new Set(meta);
    for (const bucket of new Set(itemBuckets)) {
      for (const [item, posting] of Object.entries(bucket)) {
        if (q.includes(item)) decodePosting(posting).forEach((id) => first.add(id));
      }
    }
    for (const [key, ids] of Object.entries(this.manifest.langs[lang].keys)) {
      const label = opts.labels?.[lang]?.[key]?.toLowerCase();
      if (label && matchesEitherWay(label, q)) ids.forEach((id) => first.add(id));
    }
    return { first: [...first], text: text.filter((id) => !first.has(id)).sort((a, b) => a - b) };
  }

  /**
   * The search of search.ts over the pages that may match: every page ranked by keyword, route
   * or label, then text matches in index order until `limit` results. Results are exact as far
   * as they go; `more` says pages were left unread (a larger limit reads on).
   */
  async search(rawQuery: string, opts: SearchOptions, limit = RESULT_LIMIT): Promise<ChunkedOutcome | null> {
    const q = rawQuery.trim().toLowerCase();
    if (!q) return null;
    const hits: Hit[] = [];
    const langs = this.languages(opts.lang);
    let cutIn = -1;
    for (const [n, lang] of langs.entries()) {
      const { first, text } = await this.candidates(lang, q, opts);
      for (const p of await this.pages(lang, first)) {
        const hit = matchPage(p, q, opts.labels);
        if (hit) hits.push(hit);
      }
      let read = 0;
      while (read < text.length && hits.length < limit) {
        const batch = text.slice(read, read + Math.max(limit - hits.length, 8));
        for (const p of await this.pages(lang, batch)) {
          const hit = matchPage(p, q, opts.labels);
          if (hit) hits.push(hit);
        }
        read += batch.length;
      }
      if (read < text.length || (hits.length >= limit && n < langs.length - 1)) {
        cutIn = n;
        break;
      }
    }
    if (hits.length) {
      hits.sort(compareHits(opts.lang));
      // Unread text matches of the language cut short rank above its reverse text matches and
      // every later language's: those wait for "more".
      const shown =
        cutIn < 0
          ? hits
          : hits.filter((h) => {
              const n = langs.indexOf(h.p.page.lang);
              return n < cutIn || (n === cutIn && !(h.priority === PRIORITY.text && h.reverse));
            });
      return { kind: 'results', results: shown.map((h) => toResult(h)), more: cutIn >= 0 };
    }
    return this.noMatch(q, opts);
  }

  /** Nothing matched: the best fuzzy match over every language's vocabulary, else recommendations. */
  private async noMatch(q: string, opts: SearchOptions): Promise<ChunkedOutcome> {
    const langs = this.languages(opts.lang);
    const vocabs = await Promise.all(langs.map((l) => this.file<VocabRecord[]>(l, 'v')));
    const candidates = langs.flatMap((lang, n) =>
      vocabs[n].map(([route, title, keywords], id) => ({
        lang,
        id,
        p: preparePage({ route, url: '', lang, title, text: '', keywords }, n * 1e7 + id),
      })),
    );
    const best = bestFuzzy({ pages: candidates.map((c) => c.p) }, q, opts);
    if (best) {
      const found = candidates.find((c) => c.p === best.p)!;
      const [page] = await this.pages(found.lang, [found.id]);
      return { kind: 'fuzzy', results: [toResult({ ...best, p: page })], more: false };
    }
    const recommended = await Promise.all(
      [opts.lang, 'en']
        .filter((l) => this.manifest.langs[l])
        .map((l) => {
          const ids = RECOMMENDED_ROUTES.flatMap((r) => this.manifest.langs[l].keys[routeKey(r)] ?? []);
          return this.pages(l, ids);
        }),
    );
    return { kind: 'recommended', results: recommendations({ pages: recommended.flat() }, opts.lang, opts.labels), more: false };
  }
}

/** `ChunkedIndex.search`, but any failure (a missing chunk) becomes the single fallback result to home. */
export async function safeChunkedSearch(
  index: ChunkedIndex | null,
  rawQuery: string,
  opts: SearchOptions,
  limit = RESULT_LIMIT,
): Promise<ChunkedOutcome | null> {
  if (!rawQuery.trim()) return null;
  try {
    if (!index) throw new Error('search index unavailable');
    return await index.search(rawQuery, opts, limit);
  } catch (err) {
    console.warn('search failed', err);
    return { kind: 'recommended', results: fallbackResults(opts.lang, opts.labels), more: false };
  }
}
