// The head script as it ships: bundled by esbuild like build.mjs does, run against a fake page.
import { beforeAll, describe, expect, it } from 'vitest';
import * as esbuild from 'esbuild';
import path from 'node:path';

let source = '';

beforeAll(async () => {
  const result = await esbuild.build({
    entryPoints: [path.join(__dirname, '../src/head/head.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
  });
  source = result.outputFiles[0].text;
});

function runHead(opts: {
  pathname: string;
  pageLang: string;
  stored?: Record<string, string>;
  storageThrows?: boolean;
  body?: boolean;
  systemDark?: boolean;
  search?: string;
}) {
  const classes = new Set<string>();
  const bodyClasses = new Set<string>();
  const calls: { replaced?: string; reloaded: boolean; cookie?: string; address?: string } = { reloaded: false };
  const classList = (set: Set<string>) => ({
    add: (c: string) => set.add(c),
    remove: (c: string) => set.delete(c),
    contains: (c: string) => set.has(c),
  });
  const document = {
    readyState: 'interactive',
    documentElement: { classList: classList(classes), getAttribute: (n: string) => (n === 'data-lang' ? opts.pageLang : null) },
    body: opts.body ? { classList: classList(bodyClasses) } : null,
    set cookie(v: string) {
      calls.cookie = v;
    },
  };
  const storage = {
    getItem(key: string) {
      if (opts.storageThrows) throw new Error('SecurityError');
      return opts.stored?.[key] ?? null;
    },
  };
  const session = new Map<string, string>();
  const sessionStorage = { getItem: (k: string) => session.get(k) ?? null, setItem: (k: string, v: string) => session.set(k, v) };
  const location = {
    pathname: opts.pathname,
    search: opts.search ?? '?q=1',
    hash: '',
    replace: (url: string) => (calls.replaced = url),
    reload: () => (calls.reloaded = true),
  };
  const matchMedia = (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' && opts.systemDark === true });
  const history = {
    state: null,
    replaceState: (_state: unknown, _title: string, url: string) => {
      calls.address = url;
      location.search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    },
  };
  class MutationObserver {
    observe() {}
    disconnect() {}
  }
  // Loading the island scripts waits for the page's load event, which this fake page never fires.
  const loadListeners: string[] = [];
  const addEventListener = (type: string) => loadListeners.push(type);
  new Function(
    'document',
    'localStorage',
    'location',
    'sessionStorage',
    'MutationObserver',
    'addEventListener',
    'PerformanceObserver',
    'matchMedia',
    'history',
    source,
  )(document, storage, location, sessionStorage, MutationObserver, addEventListener, undefined, matchMedia, history);
  expect(loadListeners.filter((type) => type === 'load')).toEqual(['load']);
  return { classes, bodyClasses, calls };
}

describe('head script', () => {
  it('sets dark mode from storage on html and body', () => {
    const { classes, bodyClasses, calls } = runHead({ pathname: '/', pageLang: 'en', stored: { darkMode: 'true' }, body: true });
    expect(classes.has('dark-mode')).toBe(true);
    expect(bodyClasses.has('dark-mode')).toBe(true);
    expect(calls.replaced).toBeUndefined();
  });

  it('marks a first visit so the stylesheet draws the welcome dialog with the first paint', () => {
    expect(runHead({ pathname: '/', pageLang: 'en' }).classes.has('welcome-due')).toBe(true);
    expect(runHead({ pathname: '/', pageLang: 'en', stored: { hasSeenWelcome: 'true' } }).classes.has('welcome-due')).toBe(false);
    // Storage that cannot be read: the island decides after hydration, nothing is drawn early.
    expect(runHead({ pathname: '/', pageLang: 'en', storageThrows: true }).classes.has('welcome-due')).toBe(false);
  });

  it('leaves light mode alone', () => {
    const { classes } = runHead({ pathname: '/', pageLang: 'en', stored: { darkMode: 'false' } });
    expect(classes.has('dark-mode')).toBe(false);
    expect(classes.has('js')).toBe(true);
  });

  it('redirects to the stored language, keeping the query, and sets the cookie', () => {
    const { calls } = runHead({ pathname: '/notes', pageLang: 'en', stored: { selectedLanguage: 'ja' } });
    expect(calls.replaced).toBe('/ja/notes?q=1');
    expect(calls.cookie).toMatch(/^selectedLanguage=ja; Path=\/; SameSite=Lax; max-age=31536000$/);
  });

  it('does not redirect when the language matches', () => {
    const { calls } = runHead({ pathname: '/zh/notes', pageLang: 'zh', stored: { selectedLanguage: 'zh' } });
    expect(calls.replaced).toBeUndefined();
    expect(calls.reloaded).toBe(false);
  });

  it('reloads once instead of looping when the path would not change', () => {
    const { calls } = runHead({ pathname: '/notes', pageLang: 'zh', stored: { selectedLanguage: 'en' } });
    expect(calls.replaced).toBeUndefined();
    expect(calls.reloaded).toBe(true);
  });

  it('follows a dark system while no choice is stored, and the stored choice after', () => {
    expect(runHead({ pathname: '/', pageLang: 'en', systemDark: true }).classes.has('dark-mode')).toBe(true);
    expect(runHead({ pathname: '/', pageLang: 'en', systemDark: false }).classes.has('dark-mode')).toBe(false);
    expect(runHead({ pathname: '/', pageLang: 'en', systemDark: true, stored: { darkMode: 'false' } }).classes.has('dark-mode')).toBe(
      false,
    );
    expect(runHead({ pathname: '/', pageLang: 'en', systemDark: false, stored: { darkMode: 'true' } }).classes.has('dark-mode')).toBe(true);
  });

  it('keeps an address that names its language, whatever is stored', () => {
    const { calls } = runHead({ pathname: '/ja/notes', pageLang: 'ja', stored: { selectedLanguage: 'zh' } });
    expect(calls.replaced).toBeUndefined();
    expect(calls.reloaded).toBe(false);
  });

  it('marks the not-found flag, takes it out of the address, and carries it to the stored language', () => {
    const here = runHead({ pathname: '/', pageLang: 'en', search: '?not-found=1' });
    expect(here.classes.has('page-missing')).toBe(true);
    expect(here.calls.address).toBe('/');
    expect(runHead({ pathname: '/', pageLang: 'en' }).classes.has('page-missing')).toBe(false);
    const moved = runHead({ pathname: '/', pageLang: 'en', search: '?not-found=1', stored: { selectedLanguage: 'ja' } });
    expect(moved.calls.replaced).toBe('/ja/?not-found=1');
  });

  it('survives a localStorage that throws', () => {
    const { classes, calls } = runHead({ pathname: '/', pageLang: 'en', storageThrows: true });
    expect(classes.has('dark-mode')).toBe(false);
    expect(calls.replaced).toBeUndefined();
  });
});
