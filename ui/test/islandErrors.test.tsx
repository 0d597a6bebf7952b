// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { IslandRoot } from '../src/components/IslandRoot';
import translation from '../../locales/en/translation.json';
import { createI18n } from '../src/lib/i18n';
import { ChunkLoadError, CHUNK_TIMEOUT_MS, importWithTimeout, islandChunkUrl, retryLoader, showChunkError } from '../src/lib/chunks';
import { refreshLoginStatus } from '../src/lib/session';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('kaput');
}

describe('island error boundary', () => {
  it("shows 'Unexpected Application Error' instead of a blank island", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const el = document.createElement('div');
    document.body.append(el);
    const root = createRoot(el);
    const i18n = createI18n('en', { translation, sidebar: {} });
    await act(async () => root.render(<IslandRoot name="Broken" id="b" lng="en" i18n={i18n} Island={Broken} props={{}} />));
    expect(el.querySelector('[role="alert"]')?.textContent).toContain('Unexpected Application Error');
    expect(el.textContent).toContain('kaput');
    await act(async () => root.unmount());
  });

  it('uses the translated title when there is one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const el = document.createElement('div');
    const root = createRoot(el);
    const i18n = createI18n('zh', { translation: { errors: { unexpectedTitle: '發生未預期的錯誤' } }, sidebar: {} });
    await act(async () => root.render(<IslandRoot name="Broken" id="b" lng="zh" i18n={i18n} Island={Broken} props={{}} />));
    expect(el.textContent).toContain('發生未預期的錯誤');
    await act(async () => root.unmount());
  });
});

describe('chunk loading', () => {
  it('times out after 120000 ms with type timeout', async () => {
    vi.useFakeTimers();
    const result = importWithTimeout('TopBar', () => new Promise<never>(() => undefined)).catch((e) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    let settled = false;
    void result.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error.type).toBe('timeout');
    expect(error.message).toContain('TopBar');
  });

  it('names the URL of a chunk that failed to load', async () => {
    const error = await importWithTimeout('Sidebar', () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:8080/assets/Sidebar-AB12.js')),
    ).catch((e) => e);
    expect(error.type).toBe('missing');
    expect(error.request).toBe('http://127.0.0.1:8080/assets/Sidebar-AB12.js');
    expect(error.message).toBe('Loading chunk Sidebar failed.\n(missing: http://127.0.0.1:8080/assets/Sidebar-AB12.js)');
  });

  it('shows the error with a retry button in front of the prerendered HTML', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const el = document.createElement('div');
    el.innerHTML = '<header>prerendered</header>';
    const retry = vi.fn();
    showChunkError(el, new ChunkLoadError('TopBar', 'missing', '/assets/TopBar-X.js'), retry);
    expect(el.firstElementChild?.getAttribute('role')).toBe('alert');
    expect(el.textContent).toContain('ChunkLoadError: Loading chunk TopBar failed.');
    expect(el.textContent).toContain('prerendered');
    el.querySelector('button')!.click();
    expect(retry).toHaveBeenCalledOnce();
    expect(el.querySelector('[role="alert"]')).toBeNull();
  });

  it("retries the island's own chunk under a new URL, found in the page's preloads", () => {
    document.head.innerHTML =
      '<link rel="modulepreload" href="/assets/TopBarExtra-ZZ.js"><link rel="modulepreload" href="/assets/chunk-Q1.js">' +
      '<link rel="modulepreload" href="/assets/TopBar-AB12.js">';
    const failed = new ChunkLoadError('TopBar', 'missing', '/assets/TopBar');
    expect(islandChunkUrl('TopBar', failed)).toBe(`${location.origin}/assets/TopBar-AB12.js`);
    expect(islandChunkUrl('TopBarExtra', failed)).toBe(`${location.origin}/assets/TopBarExtra-ZZ.js`);
    // No preload: the URL the browser named, if it named one.
    expect(islandChunkUrl('Sidebar', new ChunkLoadError('Sidebar', 'missing', 'http://x.test/assets/Sidebar-9.js'))).toBe(
      'http://x.test/assets/Sidebar-9.js',
    );
    const load = vi.fn(async () => ({}));
    expect(retryLoader('Sidebar', load, new ChunkLoadError('Sidebar', 'timeout', '/assets/Sidebar'), 1)).toBe(load);
    expect(retryLoader('TopBar', load, failed, 2)).not.toBe(load);
    document.head.innerHTML = '';
  });
});

describe('login status', () => {
  it('reads loggedIn and treats any failure as logged out', async () => {
    const answer = (body: unknown, ok = true) => vi.fn(async () => ({ ok, json: async () => body }) as Response);
    expect(await refreshLoginStatus(answer({ loggedIn: true }) as never)).toBe(true);
    expect(await refreshLoginStatus(answer({ loggedIn: true }, false) as never)).toBe(false);
    expect(await refreshLoginStatus(answer({ loggedIn: true }) as never)).toBe(true);
    expect(await refreshLoginStatus(vi.fn(async () => Promise.reject(new Error('offline'))) as never)).toBe(false);
    const fetchImpl = answer({ loggedIn: 'yes' });
    expect(await refreshLoginStatus(fetchImpl as never)).toBe(false);
    expect(fetchImpl).toHaveBeenCalledWith('/api/denglu', expect.objectContaining({ credentials: 'include' }));
  });
});
