// The one script a page with islands loads: imports only the chunks of the islands present,
// takes the page language's text from the page itself, and hydrates each island with the tree the
// server built.
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { loaders } from 'virtual:islands';
import { IslandRoot } from './components/IslandRoot';
import { createI18n, type LocaleBundle } from './lib/i18n';
import { embeddedLocale, loadLocale } from './lib/localeLoader';
import { builtinText } from './lib/builtinText';
import { importWithTimeout, ChunkLoadError, ISLAND_FAILED, retryLoader, showChunkError } from './lib/chunks';
import { DEFAULT_LANGUAGE } from './lib/languages';
import { watchScrollers } from './lib/scrollers';
import { watchContents } from './lib/contentsSpy';
import { watchContentsSheet } from './lib/contentsSheet';
import { canWait, islandStylesReady, whenIdle, welcomeDone } from './lib/hydration';
import { applyDarkMode, readDarkMode, readSelectedLanguage, writeLanguageCookie } from './lib/preferences';

/** Retries so far on this page: each asks for its chunk under a URL not tried before. */
let retries = 0;

function parseProps(el: HTMLElement): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(el.dataset.props || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An island's text, or null when it cannot be had: then the default language's built-in text is used. */
type Text = Promise<LocaleBundle | null>;

async function hydrateIsland(el: HTMLElement, text: Text, lng: string, load = loaders[el.dataset.island ?? '']) {
  const name = el.dataset.island ?? '';
  if (!load) {
    console.error(`No island named "${name}" in this build`);
    return;
  }
  let mod;
  try {
    mod = await importWithTimeout(name, load);
  } catch (err) {
    const error = err instanceof ChunkLoadError ? err : new ChunkLoadError(name, 'missing', String(err));
    // A welcome dialog drawn before its script arrived has no working button without it.
    if (name === 'Welcome') welcomeDone();
    el.classList.add(ISLAND_FAILED);
    showChunkError(el, error, () => hydrateIsland(el, text, lng, retryLoader(name, loaders[name], error, ++retries)));
    return;
  }
  el.classList.remove(ISLAND_FAILED);
  const [bundle] = await Promise.all([text, islandStylesReady()]);
  const id = el.dataset.id || name;
  const i18n = bundle ? createI18n(lng, bundle) : createI18n(lng, {}, await builtinText().catch(() => undefined));
  const tree = <IslandRoot name={name} id={id} lng={lng} i18n={i18n} Island={mod.default} props={parseProps(el)} />;
  if (!bundle) {
    // Other words than the server's would not hydrate: the island is drawn anew, working, in its
    // built-in wording rather than left as a prerendered page that does nothing.
    createRoot(el, { identifierPrefix: id }).render(tree);
    return;
  }
  // As a transition, React hydrates in slices of a few milliseconds and lets the browser paint and
  // answer input between them (a tap on an island hydrates that one first), rather than in one long
  // task per island: on a phone those tasks were most of Lighthouse's Total Blocking Time.
  startTransition(() => {
    hydrateRoot(el, tree, {
      identifierPrefix: id,
      onRecoverableError(error) {
        console.error(`Hydration error in island ${name} (${id})`, error);
      },
    });
  });
}

/** The generator writes the page language's text into the page; other languages are fetched. */
function textOf(lng: string): Text {
  const embedded = embeddedLocale(lng);
  if (embedded) return Promise.resolve(embedded);
  return loadLocale(lng).catch((err: unknown) => {
    console.warn(`Could not load the interface text for ${lng}; the islands use their built-in wording`, err);
    return null;
  });
}

function start() {
  const lng = document.documentElement.dataset.lang || DEFAULT_LANGUAGE;
  // The head script already set the classes; this covers a body parsed after it ran.
  applyDarkMode(readDarkMode());
  const stored = readSelectedLanguage();
  if (stored) writeLanguageCookie(stored);
  watchScrollers();
  watchContents();
  watchContentsSheet();
  const islands = Array.from(document.querySelectorAll<HTMLElement>('.island[data-island]'));
  if (islands.length === 0) return;
  const texts = new Map<string, Text>();
  for (const el of islands) {
    const lngOfIsland = el.dataset.lng || lng;
    if (!texts.has(lngOfIsland)) texts.set(lngOfIsland, textOf(lngOfIsland));
    const hydrate = () => hydrateIsland(el, texts.get(lngOfIsland)!, lngOfIsland).catch(() => undefined);
    if (canWait(el)) whenIdle(hydrate);
    else hydrate();
  }
}

start();
