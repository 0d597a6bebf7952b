// The one script a page with islands loads: imports only the chunks of the islands present,
// loads the page language's locale files, and hydrates each island with the tree the server built.
import { hydrateRoot } from 'react-dom/client';
import { loaders } from 'virtual:islands';
import { IslandRoot } from './components/IslandRoot';
import { createI18n, type LocaleBundle } from './lib/i18n';
import { loadLocale } from './lib/localeLoader';
import { importWithTimeout, ChunkLoadError, retryLoader, showChunkError } from './lib/chunks';
import { DEFAULT_LANGUAGE } from './lib/languages';
import { watchScrollers } from './lib/scrollers';
import { applyDarkMode, readPreference, readSelectedLanguage, writeLanguageCookie } from './lib/preferences';

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

async function hydrateIsland(el: HTMLElement, bundle: Promise<LocaleBundle>, lng: string, load = loaders[el.dataset.island ?? '']) {
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
    showChunkError(el, error, () => hydrateIsland(el, bundle, lng, retryLoader(name, loaders[name], error, ++retries)));
    return;
  }
  const i18n = createI18n(lng, await bundle);
  const id = el.dataset.id || name;
  hydrateRoot(el, <IslandRoot name={name} id={id} lng={lng} i18n={i18n} Island={mod.default} props={parseProps(el)} />, {
    identifierPrefix: id,
    onRecoverableError(error) {
      console.error(`Hydration error in island ${name} (${id})`, error);
    },
  });
}

function start() {
  const lng = document.documentElement.dataset.lang || DEFAULT_LANGUAGE;
  // The head script already set the classes; this covers a body parsed after it ran.
  applyDarkMode(readPreference('darkMode') === 'true');
  const stored = readSelectedLanguage();
  if (stored) writeLanguageCookie(stored);
  watchScrollers();
  const islands = Array.from(document.querySelectorAll<HTMLElement>('.island[data-island]'));
  if (islands.length === 0) return;
  const bundle = loadLocale(lng);
  // Without its text an island would hydrate into a mismatch: the prerendered HTML stays instead.
  bundle.catch((err) => console.warn('Could not load the interface text; the page stays as prerendered', err));
  for (const el of islands) {
    const lngOfIsland = el.dataset.lng || lng;
    const own = lngOfIsland === lng ? bundle : loadLocale(lngOfIsland);
    hydrateIsland(el, own, lngOfIsland).catch(() => undefined);
  }
}

start();
