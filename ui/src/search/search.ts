import { BUILTIN_ROUTE_LABELS } from '../lib/site-languages.generated';
import { buildSnippet } from './snippet';
import { FUZZY_THRESHOLD, FuzzyScorer, words, type Word } from './similarity';
import { localizedPath } from '../lib/languages';
import type { IndexPage, ResultKind, RouteLabels, SearchIndex, SearchResult } from './types';

/** Result priorities: lower shows first. */
export const PRIORITY = { keyword: 1, path: 2, text: 3, fuzzy: 4, recommended: 10 } as const;

/** Pages recommended when nothing matches, in this order (priority 10, 11, 12). */
export const RECOMMENDED_ROUTES = ['/', '/valuation-models', '/investment-basics'];

/**
 * How much a fuzzy match on each part of a page counts: the page's title (and its label, the
 * same name in the breadcrumb) above its keywords and route, so a misspelt title finds its page
 * rather than one that lists a similar keyword. Body text is never compared fuzzily.
 */
export const FUZZY_WEIGHT = { title: 1, keyword: 0.9, route: 0.85 } as const;

/** Items shorter than this are not looked for inside the query: one letter is in everything. */
export const MIN_ITEM_IN_QUERY = 2;

/** An index page with its fields lowered once, so a keystroke costs only the comparisons. */
export interface PreparedPage {
  page: IndexPage;
  order: number;
  keywords: string[];
  route: string;
  segments: string[];
  title: string;
  text: string;
  /** Title, keywords and route segments, for the fuzzy fallback. */
  fuzzy: FuzzyCandidate[];
}

/** A string a misspelt query may be close to: as code points, as words, and what it weighs. */
export interface FuzzyCandidate {
  points: string[];
  words: Word[];
  weight: number;
}

function candidate(text: string, weight: number): FuzzyCandidate {
  return { points: Array.from(text), words: words(text), weight };
}

export interface PreparedIndex {
  pages: PreparedPage[];
}

export type OutcomeKind = 'results' | 'fuzzy' | 'recommended';

export interface SearchOutcome {
  kind: OutcomeKind;
  results: SearchResult[];
}

export interface SearchOptions {
  lang: string;
  /** Route labels from the three translation files (or the built-in set). */
  labels?: RouteLabels;
}

/** Segment key of a route for labels: `/valuation-models/dcf` → `dcf`, `/` → `home`. */
export function routeKey(route: string): string {
  const parts = route.split('/').filter(Boolean);
  return parts.length ? parts[parts.length - 1] : 'home';
}

/** One index page with its fields lowered once; `order` ranks it among equals. */
export function preparePage(page: IndexPage, order: number): PreparedPage {
  const keywords = (page.keywords ?? []).map((k) => String(k).toLowerCase());
  const segments = page.route
    .toLowerCase()
    .split('/')
    .filter(Boolean)
    .flatMap((s) => [s, s.replace(/-/g, ' ')]);
  const title = (page.title ?? '').toLowerCase();
  return {
    page,
    order,
    keywords,
    route: page.route.toLowerCase(),
    segments,
    title,
    text: (page.text ?? '').toLowerCase(),
    fuzzy: [
      ...[title].filter(Boolean).map((t) => candidate(t, FUZZY_WEIGHT.title)),
      ...keywords.filter(Boolean).map((k) => candidate(k, FUZZY_WEIGHT.keyword)),
      ...segments.map((s) => candidate(s, FUZZY_WEIGHT.route)),
    ],
  };
}

export function prepareIndex(index: SearchIndex): PreparedIndex {
  if (!index || !Array.isArray(index.pages)) throw new Error('search index has no pages');
  return { pages: index.pages.map(preparePage) };
}

/** Substring matching in both directions, case already lowered. */
export function matchesEitherWay(item: string, query: string): boolean {
  if (!item || !query) return false;
  return item.includes(query) || (Array.from(item).length >= MIN_ITEM_IN_QUERY && query.includes(item));
}

function labelFor(p: PreparedPage, labels: RouteLabels | undefined): string {
  return labels?.[p.page.lang]?.[routeKey(p.page.route)]?.toLowerCase() ?? '';
}

export interface Hit {
  p: PreparedPage;
  priority: number;
  kind: ResultKind;
  /** Matched only because an item of the page is inside the query: ranks after direct hits. */
  reverse: boolean;
  /** The query is in the page's title: among equals, the page that is about it comes first. */
  inTitle: boolean;
  /** What to highlight in the snippet, best first. */
  terms: string[];
}

/** "direct" when the query is in the item, "reverse" when a (long enough) item is in the query. */
function matchKind(items: string[], q: string): { how: 'direct' | 'reverse'; item: string } | null {
  const direct = items.find((i) => i && i.includes(q));
  if (direct !== undefined) return { how: 'direct', item: direct };
  const reverse = items.find((i) => i && Array.from(i).length >= MIN_ITEM_IN_QUERY && q.includes(i));
  return reverse !== undefined ? { how: 'reverse', item: reverse } : null;
}

export function matchPage(p: PreparedPage, q: string, labels: RouteLabels | undefined): Hit | null {
  const hit = (priority: number, kind: ResultKind, m: { how: string; item: string }): Hit => ({
    p,
    priority,
    kind,
    reverse: m.how === 'reverse',
    inTitle: p.title.includes(q),
    terms: [q, m.item],
  });
  const keyword = matchKind(p.keywords, q);
  if (keyword) return hit(PRIORITY.keyword, 'keyword', keyword);
  const path = matchKind([p.route, ...p.segments], q);
  if (path) return hit(PRIORITY.path, 'path', path);
  const text = matchKind([p.title, labelFor(p, labels)], q) ?? (p.text.includes(q) ? { how: 'direct', item: q } : null);
  if (text) return hit(PRIORITY.text, 'text', text);
  return null;
}

export function toResult(hit: Hit, priority = hit.priority, kind = hit.kind): SearchResult {
  const { page } = hit.p;
  return {
    path: page.url,
    title: page.title,
    text: page.text,
    navTarget: page.url,
    textSnippet: buildSnippet(page.text, hit.terms),
    priority,
    lang: page.lang,
    kind,
  };
}

/** Page language first, then priority, direct before reverse, title hits, then index order. */
export function compareHits(lang: string) {
  return (a: Hit, b: Hit) =>
    Number(a.p.page.lang !== lang) - Number(b.p.page.lang !== lang) ||
    a.priority - b.priority ||
    Number(a.reverse) - Number(b.reverse) ||
    Number(b.inTitle) - Number(a.inTitle) ||
    a.p.order - b.p.order;
}

/** Each language's route labels as fuzzy candidates, made once per labels object. */
const labelCandidates = new WeakMap<RouteLabels, Map<string, FuzzyCandidate | null>>();

function labelCandidate(p: PreparedPage, labels: RouteLabels | undefined): FuzzyCandidate | null {
  if (!labels) return null;
  let cache = labelCandidates.get(labels);
  if (!cache) labelCandidates.set(labels, (cache = new Map()));
  const key = `${p.page.lang}\u0000${routeKey(p.page.route)}`;
  if (!cache.has(key)) {
    const label = labelFor(p, labels);
    cache.set(key, label ? candidate(label, FUZZY_WEIGHT.title) : null);
  }
  return cache.get(key) ?? null;
}

/**
 * The page whose title, label, keyword or route segment is most similar to the query, weighed by
 * FUZZY_WEIGHT; only a similarity above FUZZY_THRESHOLD counts. A candidate that cannot beat the
 * best so far even when equal to the query is not measured, so a keystroke with no match stays
 * cheap. Among equals, the page in the page's language, then the first in the index.
 */
export function bestFuzzy(index: PreparedIndex, q: string, opts: SearchOptions): Hit | null {
  const scorer = new FuzzyScorer(q);
  let best: { p: PreparedPage; term: string; score: number } | null = null;
  for (const p of index.pages) {
    const label = labelCandidate(p, opts.labels);
    for (const c of label ? [...p.fuzzy, label] : p.fuzzy) {
      const toBeat = best?.score ?? 0;
      if (c.weight < toBeat) continue;
      const similarity = scorer.score(c.points, c.words, Math.max(toBeat / c.weight, FUZZY_THRESHOLD));
      if (similarity <= FUZZY_THRESHOLD) continue;
      const score = similarity * c.weight;
      const better = !best || score > best.score || (score === best.score && p.page.lang === opts.lang && best.p.page.lang !== opts.lang);
      if (better) best = { p, term: c.points.join(''), score };
    }
  }
  return best ? { p: best.p, priority: PRIORITY.fuzzy, kind: 'fuzzy', reverse: false, inTitle: false, terms: [best.term] } : null;
}

/** Home, valuation models, investment basics in the page's language, priority 10 and up. */
export function recommendations(index: PreparedIndex | null, lang: string, labels?: RouteLabels): SearchResult[] {
  return RECOMMENDED_ROUTES.map((route, i) => {
    const p =
      index?.pages.find((x) => x.page.route === route && x.page.lang === lang) ??
      index?.pages.find((x) => x.page.route === route && x.page.lang === 'en');
    const url = p?.page.url ?? localizedPath(route, lang);
    const title = p?.page.title ?? labels?.[lang]?.[routeKey(route)] ?? BUILTIN_LABELS.en[routeKey(route)] ?? route;
    const text = p?.page.text ?? '';
    return {
      path: url,
      title,
      text,
      navTarget: url,
      textSnippet: buildSnippet(text, []),
      priority: PRIORITY.recommended + i,
      lang: p?.page.lang ?? lang,
      kind: 'recommended' as const,
    };
  });
}

/** A search error gives a single result to home. */
export function fallbackResults(lang: string, labels?: RouteLabels): SearchResult[] {
  const url = localizedPath('/', lang);
  return [
    {
      path: url,
      title: labels?.[lang]?.home ?? BUILTIN_LABELS[lang]?.home ?? BUILTIN_LABELS.en.home,
      text: '',
      navTarget: url,
      textSnippet: '',
      priority: PRIORITY.recommended,
      lang,
      kind: 'fallback',
    },
  ];
}

/**
 * Search the index. The query is trimmed and compared case-insensitively as one string, so
 * Chinese and Japanese queries (no spaces between words) work like English ones.
 * Returns null for an empty query (empty is ignored).
 */
export function search(index: PreparedIndex, rawQuery: string, opts: SearchOptions): SearchOutcome | null {
  const q = rawQuery.trim().toLowerCase();
  if (!q) return null;
  const hits: Hit[] = [];
  for (const p of index.pages) {
    const hit = matchPage(p, q, opts.labels);
    if (hit) hits.push(hit);
  }
  if (hits.length) {
    hits.sort(compareHits(opts.lang));
    return { kind: 'results', results: hits.map((h) => toResult(h)) };
  }
  const fuzzy = bestFuzzy(index, q, opts);
  if (fuzzy) return { kind: 'fuzzy', results: [toResult(fuzzy)] };
  return { kind: 'recommended', results: recommendations(index, opts.lang, opts.labels) };
}

/** `search`, but any failure (a broken index) becomes the single fallback result to home. */
export function safeSearch(index: PreparedIndex | null, rawQuery: string, opts: SearchOptions): SearchOutcome | null {
  if (!rawQuery.trim()) return null;
  try {
    if (!index) throw new Error('search index unavailable');
    return search(index, rawQuery, opts);
  } catch (err) {
    console.warn('search failed', err);
    return { kind: 'recommended', results: fallbackResults(opts.lang, opts.labels) };
  }
}

/**
 * Route labels when the translation files cannot be loaded: a small set bundled with the UI,
 * made from locales/ at build time. Keys are route segments, as in `breadcrumb.segments`.
 */
export const BUILTIN_LABELS: RouteLabels = BUILTIN_ROUTE_LABELS;

/** Route labels out of the three translation files: `breadcrumb.home` and `breadcrumb.segments`. */
export function labelsFromTranslations(resources: Record<string, unknown>): RouteLabels {
  const out: RouteLabels = {};
  for (const [lang, res] of Object.entries(resources)) {
    const crumb = (res as { breadcrumb?: { home?: unknown; segments?: Record<string, unknown> } })?.breadcrumb;
    const labels: Record<string, string> = {};
    if (typeof crumb?.home === 'string') labels.home = crumb.home;
    for (const [seg, label] of Object.entries(crumb?.segments ?? {})) {
      if (typeof label === 'string') labels[seg] = label;
    }
    out[lang] = labels;
  }
  return out;
}
