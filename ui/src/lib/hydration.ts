// When each island hydrates is declared where it is placed (a template's `island(..., hydrate="idle")`
// or a page's front matter `island: { name: ..., hydrate: idle }`), as the island's `data-hydrate`:
// islands nobody needs at first sight wait until the browser is idle, so their work never delays
// the first paint or a reader's first tap; every other island hydrates at once.

/** The class the head script puts on <html> on a first visit, while the welcome dialog is due. */
export const WELCOME_DUE = 'welcome-due';

/** Whether the island element `el` can wait for an idle moment on this page. */
export function canWait(el: HTMLElement, doc: Document = document): boolean {
  // A due welcome dialog is already drawn (see the head script): its button must work at once.
  if (el.dataset.island === 'Welcome' && doc.documentElement.classList.contains(WELCOME_DUE)) return false;
  return el.dataset.hydrate === 'idle';
}

/** Runs `task` once the browser is idle, and within `timeoutMs` even on a busy page. */
export function whenIdle(task: () => void, timeoutMs = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => task(), { timeout: timeoutMs });
  else setTimeout(task, 1);
}

/** The welcome dialog is no longer due: it was closed, or its island could not load. */
export function welcomeDone(doc: Document = document): void {
  doc.documentElement.classList.remove(WELCOME_DUE);
}

/**
 * Runs `task` once the page has painted content (its first contentful paint), so nothing `task`
 * fetches or runs competes with that paint. Without paint timing, and should that paint not come
 * (a tab in the background paints nothing), it runs a while after the load event.
 */
export function afterContentfulPaint(task: () => void, fallbackMs = 2000): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    task();
  };
  const later = () => setTimeout(once, fallbackMs);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return;
  new PerformanceObserver((list, observer) => {
    if (!list.getEntries().some((e) => e.name === 'first-contentful-paint')) return;
    observer.disconnect();
    setTimeout(once, 0);
  }).observe({ type: 'paint', buffered: true });
}

/** The URLs a page names in `<meta name="…">`. */
function namedUrls(doc: Document, name: string): string[] {
  return doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.split(' ').filter(Boolean) ?? [];
}

/** Marks the stylesheets the head script adds for the islands (see `islandStylesReady`). */
const ISLAND_STYLES = 'data-island-styles';

/**
 * Loads the scripts the page names in `<meta name="island-scripts">` (the generator writes the
 * entry, then the chunks of the page's islands): the chunks as module preloads, so they arrive
 * alongside the entry that imports them. With them, the stylesheet the page names in
 * `<meta name="island-styles">`: the rules the page left out of its inline ones, which match
 * nothing it has as written.
 */
export function loadIslandScripts(doc: Document = document): void {
  const [entry, ...chunks] = namedUrls(doc, 'island-scripts');
  if (!entry) return;
  for (const href of namedUrls(doc, 'island-styles')) {
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.setAttribute(ISLAND_STYLES, '');
    // Settled, loaded or not: a stylesheet that failed before the islands ask must not hold them.
    const settled = () => link.setAttribute(ISLAND_STYLES, 'settled');
    link.addEventListener('load', settled, { once: true });
    link.addEventListener('error', settled, { once: true });
    doc.head.append(link);
  }
  for (const href of chunks) {
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    doc.head.append(link);
  }
  const script = doc.createElement('script');
  script.type = 'module';
  script.src = entry;
  doc.head.append(script);
}

/**
 * Resolves once the stylesheets `loadIslandScripts` added have loaded (or failed: the islands
 * then run with the page's own rules). Islands render what the page did not have as written (a
 * dialog, an open menu, loaded posts), whose rules only that stylesheet holds.
 */
export function islandStylesReady(doc: Document = document): Promise<void> {
  const links = [...doc.querySelectorAll<HTMLLinkElement>(`link[${ISLAND_STYLES}]`)];
  return Promise.all(
    links.map(
      (link) =>
        new Promise<void>((resolve) => {
          if (link.getAttribute(ISLAND_STYLES) === 'settled') return resolve();
          link.addEventListener('load', () => resolve(), { once: true });
          link.addEventListener('error', () => resolve(), { once: true });
        }),
    ),
  ).then(() => undefined);
}
