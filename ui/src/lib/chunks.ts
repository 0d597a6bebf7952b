// Island chunk loading with the spec's failure behaviour: a ChunkLoadError naming the type
// ('missing' or 'timeout') and the URL, a retry button, and a 120000 ms timeout.
import { languageOfTag } from './languages';
import { RETRY_LABELS } from './site-languages.generated';

export const CHUNK_TIMEOUT_MS = 120000;

export class ChunkLoadError extends Error {
  readonly type: 'missing' | 'timeout';
  readonly request: string;
  constructor(chunk: string, type: 'missing' | 'timeout', request: string) {
    super(`Loading chunk ${chunk} failed.\n(${type}: ${request})`);
    this.name = 'ChunkLoadError';
    this.type = type;
    this.request = request;
  }
}

/** The chunk URL out of the browser's message ("Failed to fetch dynamically imported module: URL"). */
function urlFrom(err: unknown, fallback: string): string {
  const match = /(https?:\/\/\S+|\/assets\/\S+)/.exec(String((err as Error)?.message ?? err));
  return match ? match[1] : fallback;
}

export function importWithTimeout<T>(name: string, load: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(name, 'timeout', `/assets/${name}`)), timeoutMs);
    load().then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (err) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(name, 'missing', urlFrom(err, `/assets/${name}`)));
      },
    );
  });
}

/**
 * The island's own chunk, `/assets/<Name>-<HASH>.js`: the page preloads it (the generator writes a
 * modulepreload for each chunk an island needs), else the URL the failure named.
 */
export function islandChunkUrl(name: string, failed: ChunkLoadError, doc: Document = document): string | null {
  const own = new RegExp(`^/assets/${name}-[A-Za-z0-9]+\\.js$`);
  for (const link of Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"][href]'))) {
    const url = new URL(link.getAttribute('href')!, doc.baseURI);
    if (own.test(url.pathname)) return url.href;
  }
  return /^https?:\/\/\S+\.js$/.test(failed.request) ? failed.request : null;
}

/**
 * The loader a retry uses. A browser may keep a failed module fetch in its module map (the HTML
 * standard's earlier rule, which older Chromium follows), so importing the same URL again fails at
 * once without asking the server: the retry asks for the chunk under a new URL instead.
 * A shared chunk that failed is fetched again only by a browser that does not keep failures.
 */
export function retryLoader<T>(name: string, load: () => Promise<T>, failed: ChunkLoadError, attempt: number): () => Promise<T> {
  const url = islandChunkUrl(name, failed);
  if (!url) return load;
  const fresh = new URL(url);
  fresh.searchParams.set('retry', String(attempt));
  return () => import(fresh.href) as Promise<T>;
}

/**
 * The class on an island whose script could not load, until a retry loads it: what it prerendered
 * for that case shows (a calculator says its article's example still holds).
 */
export const ISLAND_FAILED = 'island-failed';

/** Shows the error in front of the island's prerendered HTML, which stays readable. */
export function showChunkError(el: HTMLElement, error: ChunkLoadError, retry: () => void): void {
  console.warn(error);
  el.querySelector(':scope > .chunk-error')?.remove();
  const box = document.createElement('div');
  box.className = 'chunk-error';
  box.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = `${error.name}: ${error.message}`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button';
  // The island's translations may be what failed to load: the label is bundled.
  button.textContent = RETRY_LABELS[languageOfTag(document.documentElement.lang)];
  button.addEventListener('click', () => {
    box.remove();
    retry();
  });
  box.append(text, button);
  el.prepend(box);
}
