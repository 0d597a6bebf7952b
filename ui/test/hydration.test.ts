// @vitest-environment jsdom
// When islands hydrate: the ones nobody needs at first sight wait; a due welcome dialog does not.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterContentfulPaint, canWait, islandStylesReady, loadIslandScripts, welcomeDone, WELCOME_DUE } from '../src/lib/hydration';

afterEach(() => {
  document.documentElement.classList.remove(WELCOME_DUE);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('hydration timing', () => {
  /** An island element as the generator writes it, with its `hydrate` declaration if any. */
  const island = (name: string, hydrate?: string) => {
    const el = document.createElement('div');
    el.className = 'island';
    el.dataset.island = name;
    if (hydrate) el.dataset.hydrate = hydrate;
    return el;
  };

  it('lets the islands placed with hydrate="idle" wait, and no other', () => {
    expect(canWait(island('ProfileImage', 'idle'))).toBe(true);
    expect(canWait(island('Search', 'idle'))).toBe(true);
    for (const name of ['TopBar', 'Sidebar', 'LoginForm', 'Search', 'DcfCalculator', 'BlogList', 'ProfileImage']) {
      expect(canWait(island(name))).toBe(false);
    }
    expect(canWait(island('Search', 'load'))).toBe(false);
  });

  it('hydrates a welcome dialog that is due at once, since it is already drawn', () => {
    document.documentElement.classList.add(WELCOME_DUE);
    expect(canWait(island('Welcome', 'idle'))).toBe(false);
    expect(canWait(island('ProfileImage', 'idle'))).toBe(true);
    welcomeDone();
    expect(document.documentElement.classList.contains(WELCOME_DUE)).toBe(false);
    expect(canWait(island('Welcome', 'idle'))).toBe(true);
  });

  it('loads the scripts the page names once it has loaded, the chunks as module preloads', () => {
    vi.useFakeTimers();
    document.head.innerHTML = '<meta name="island-scripts" content="/assets/entry-E.js /assets/TopBar-T.js /assets/chunk-C.js">';
    const task = vi.fn(() => loadIslandScripts());
    // jsdom has no paint timing: the load event and a wait stand in for the first contentful paint.
    afterContentfulPaint(task, 2000);
    vi.advanceTimersByTime(1999);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
    expect([...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href'))).toEqual([
      '/assets/TopBar-T.js',
      '/assets/chunk-C.js',
    ]);
    const script = document.querySelector('script[type="module"]')!;
    expect(script.getAttribute('src')).toBe('/assets/entry-E.js');
    vi.advanceTimersByTime(5000);
    expect(task).toHaveBeenCalledTimes(1);
    document.head.innerHTML = '';
    loadIslandScripts();
    expect(document.querySelector('script')).toBeNull();
  });

  it("loads the islands' stylesheet with the scripts, and holds the islands until it has loaded or failed", async () => {
    document.head.innerHTML =
      '<meta name="island-scripts" content="/assets/entry-E.js"><meta name="island-styles" content="/assets/island-styles-5e1f.css">';
    loadIslandScripts();
    const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')!;
    expect(link.getAttribute('href')).toBe('/assets/island-styles-5e1f.css');
    // The stylesheet comes before the entry, so the islands' rules arrive with their scripts.
    expect(document.head.lastElementChild?.getAttribute('src')).toBe('/assets/entry-E.js');
    let ready = false;
    void islandStylesReady().then(() => (ready = true));
    await Promise.resolve();
    expect(ready).toBe(false);
    link.dispatchEvent(new Event('load'));
    await new Promise((r) => setTimeout(r, 0));
    expect(ready).toBe(true);
    // A stylesheet that failed before the islands asked does not hold them.
    document.head.innerHTML =
      '<meta name="island-scripts" content="/assets/entry-E.js"><meta name="island-styles" content="/assets/island-styles-5e1f.css">';
    loadIslandScripts();
    document.querySelector('link[rel="stylesheet"]')!.dispatchEvent(new Event('error'));
    await islandStylesReady();
    // A page without islands adds no stylesheet, and nothing waits.
    document.head.innerHTML = '<meta name="island-styles" content="/assets/island-styles-5e1f.css">';
    loadIslandScripts();
    expect(document.querySelector('link')).toBeNull();
    await islandStylesReady();
    document.head.innerHTML = '';
  });
});
