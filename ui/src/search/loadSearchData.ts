import { fetchJsonWithRetry } from '../lib/localeLoader';
import { BUILTIN_LABELS, labelsFromTranslations } from './search';
import { ChunkedIndex, type ChunkedManifest } from './chunked';
import { LANGUAGES } from '../lib/languages';
import type { RouteLabels } from './types';

/**
 * The search page reads all three translation files itself, so a Japanese
 * word finds the Japanese label of a page from an English page. A language whose file cannot be
 * read keeps the text the page already holds for it (`held`: its own language, which came with
 * the page), else the built-in labels (section 8).
 */
export async function loadRouteLabels(
  held: Record<string, unknown> = {},
  basePath = '/locales',
): Promise<{ labels: RouteLabels; failed: string[] }> {
  const settled = await Promise.allSettled(LANGUAGES.map((lng) => fetchJsonWithRetry(`${basePath}/${lng}/translation.json`)));
  const resources: Record<string, unknown> = {};
  const failed: string[] = [];
  settled.forEach((s, i) => {
    const lng = LANGUAGES[i];
    if (s.status === 'fulfilled') resources[lng] = s.value;
    else {
      failed.push(lng);
      if (held[lng]) resources[lng] = held[lng];
    }
  });
  const fromFiles = labelsFromTranslations(resources);
  const labels: RouteLabels = {};
  for (const lng of LANGUAGES) labels[lng] = { ...BUILTIN_LABELS[lng], ...(fromFiles[lng] ?? {}) };
  return { labels, failed };
}

/** The generator's index manifest, fetched only by the search page; its chunks sit in `search/` beside it. */
export async function loadIndex(url: string): Promise<ChunkedIndex> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`search index answered ${res.status}`);
  const base = url.slice(0, url.lastIndexOf('/')) + '/search';
  return new ChunkedIndex((await res.json()) as ChunkedManifest, base);
}
