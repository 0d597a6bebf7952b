// The page language's text comes with the page (the generator's `island_text()`); other languages
// are read from /locales/{lng}/{ns}.json: up to 5 retries after the first try, waiting 350 ms and
// doubling, with at most 10 reads in flight across the page.
import type { LocaleBundle } from './i18n';

export const LOCALE_RETRIES = 5;
export const LOCALE_FIRST_WAIT_MS = 350;
export const LOCALE_MAX_PARALLEL = 10;

export interface LoaderOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  basePath?: string;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A counting semaphore: at most `limit` tasks run at once, the rest wait in order. */
export function createLimiter(limit: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    active -= 1;
    queue.shift()?.();
  };
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      release();
    }
  };
}

const limit = createLimiter(LOCALE_MAX_PARALLEL);

export async function fetchJsonWithRetry(url: string, options: LoaderOptions = {}): Promise<unknown> {
  const fetchImpl = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  let wait = LOCALE_FIRST_WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await limit(async () => {
        const response = await fetchImpl(url, { headers: { Accept: 'application/json' } });
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        return response.json();
      });
    } catch (err) {
      if (attempt >= LOCALE_RETRIES) throw err;
      await sleep(wait);
      wait *= 2;
    }
  }
}

/** Both namespaces of one language. */
export async function loadLocale(lng: string, options: LoaderOptions = {}): Promise<LocaleBundle> {
  const base = options.basePath ?? '/locales';
  const [translation, sidebar] = await Promise.all(
    (['translation', 'sidebar'] as const).map((ns) => fetchJsonWithRetry(`${base}/${lng}/${ns}.json`, options)),
  );
  return { translation: translation as Record<string, unknown>, sidebar: sidebar as Record<string, unknown> };
}

/** The id of the JSON block the generator writes into every page with islands. */
export const PAGE_TEXT_ID = 'island-text';

/** Both namespaces of `lng` as the page carries them, or null if the page has no whole block for it. */
export function embeddedLocale(lng: string, doc: Document = document): LocaleBundle | null {
  const block = doc.getElementById(PAGE_TEXT_ID);
  if (!block || block.dataset.lng !== lng) return null;
  try {
    const parsed = JSON.parse(block.textContent ?? '') as LocaleBundle;
    const whole = [parsed?.translation, parsed?.sidebar].every((ns) => ns !== null && typeof ns === 'object');
    return whole ? parsed : null;
  } catch {
    return null;
  }
}
