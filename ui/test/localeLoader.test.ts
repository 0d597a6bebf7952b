import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimiter, embeddedLocale, fetchJsonWithRetry, loadLocale, PAGE_TEXT_ID } from '../src/lib/localeLoader';

const ok = (body: unknown) => ({ ok: true, status: 200, json: async () => body }) as Response;
const fail = () => ({ ok: false, status: 503, json: async () => ({}) }) as Response;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('locale loader', () => {
  it('retries after 350, 700, 1400, 2800 and 5600 ms, then gives up', async () => {
    const times: number[] = [];
    const fetchImpl = vi.fn(async () => {
      times.push(Date.now());
      return fail();
    });
    const start = Date.now();
    const result = fetchJsonWithRetry('/locales/zh/translation.json', { fetch: fetchImpl as never });
    const settled = result.catch((e: Error) => e);
    await vi.runAllTimersAsync();
    const error = await settled;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('HTTP 503');
    expect(fetchImpl).toHaveBeenCalledTimes(6);
    const gaps = times.map((t, i) => (i === 0 ? t - start : t - times[i - 1]));
    expect(gaps).toEqual([0, 350, 700, 1400, 2800, 5600]);
  });

  it('returns the body once a retry succeeds', async () => {
    let calls = 0;
    const fetchImpl = vi.fn(async () => (++calls < 3 ? fail() : ok({ a: 'b' })));
    const result = fetchJsonWithRetry('/x.json', { fetch: fetchImpl as never });
    await vi.advanceTimersByTimeAsync(349);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(700);
    await expect(result).resolves.toEqual({ a: 'b' });
    expect(fetchImpl).toHaveBeenCalledTimes(3);
  });

  it('loads both namespaces of a language', async () => {
    const urls: string[] = [];
    const fetchImpl = vi.fn(async (url: string) => {
      urls.push(url);
      return ok({ url });
    });
    const bundle = await loadLocale('ja', { fetch: fetchImpl as never });
    expect(urls.sort()).toEqual(['/locales/ja/sidebar.json', '/locales/ja/translation.json']);
    expect(bundle.translation).toEqual({ url: '/locales/ja/translation.json' });
  });

  it('keeps at most 10 reads in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const fetchImpl = vi.fn(async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 100));
      inFlight -= 1;
      return ok({});
    });
    const all = Promise.all(Array.from({ length: 25 }, (_, i) => fetchJsonWithRetry(`/l/${i}.json`, { fetch: fetchImpl as never })));
    await vi.advanceTimersByTimeAsync(0);
    expect(inFlight).toBe(10);
    await vi.runAllTimersAsync();
    await all;
    expect(peak).toBe(10);
    expect(fetchImpl).toHaveBeenCalledTimes(25);
  });

  it('limiter runs queued tasks in order as slots free', async () => {
    const run = createLimiter(2);
    const order: number[] = [];
    const task = (n: number, ms: number) => run(() => new Promise<void>((r) => setTimeout(() => (order.push(n), r()), ms)));
    const all = Promise.all([task(1, 30), task(2, 10), task(3, 10), task(4, 10)]);
    await vi.runAllTimersAsync();
    await all;
    expect(order).toEqual([2, 3, 1, 4]);
  });
});

describe('the text the page carries', () => {
  /** A document holding only the generator's JSON block. */
  const page = (lng: string, text: string) =>
    ({ getElementById: (id: string) => (id === PAGE_TEXT_ID ? { dataset: { lng }, textContent: text } : null) }) as unknown as Document;

  it("reads the page language's namespaces from the block", () => {
    const bundle = { translation: { search: { button: '搜尋' } }, sidebar: { notes: '筆記' } };
    expect(embeddedLocale('zh', page('zh', JSON.stringify(bundle)))).toEqual(bundle);
  });

  it('is null for another language, a broken or partial block, or none', () => {
    const whole = JSON.stringify({ translation: {}, sidebar: {} });
    expect(embeddedLocale('ja', page('zh', whole))).toBeNull();
    expect(embeddedLocale('zh', page('zh', '{"translation": {'))).toBeNull();
    expect(embeddedLocale('zh', page('zh', JSON.stringify({ translation: {}, sidebar: null })))).toBeNull();
    expect(embeddedLocale('zh', { getElementById: () => null } as unknown as Document)).toBeNull();
  });
});
