// Languages and their URL prefixes: English at the spec's paths, Chinese under /zh, Japanese under /ja.
export const LANGUAGES = ['en', 'zh', 'ja'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Splits `/zh/notes` into `{lang: 'zh', route: '/notes'}`; an unprefixed path is English. */
export function splitLanguagePrefix(pathname: string): { lang: Lang; route: string } {
  const match = /^\/(zh|ja)(\/.*)?$/.exec(pathname);
  if (!match) return { lang: DEFAULT_LANGUAGE, route: pathname || '/' };
  return { lang: match[1] as Lang, route: match[2] && match[2] !== '' ? match[2] : '/' };
}

/** The path of an English route in a language: `localizedPath('/notes', 'zh')` is `/zh/notes`, home is `/zh/`. */
export function localizedPath(route: string, lang: Lang): string {
  const clean = route.startsWith('/') ? route : `/${route}`;
  if (lang === DEFAULT_LANGUAGE) return clean;
  return clean === '/' ? `/${lang}/` : `/${lang}${clean}`;
}

/**
 * Where a visitor who chose `stored` belongs when the page is in `pageLang`, or null to stay.
 * The head script runs this before first paint; it must never send a page to itself.
 */
export function languageRedirect(pathname: string, pageLang: string | null, stored: string | null): string | null {
  if (!isLang(stored) || !isLang(pageLang) || stored === pageLang) return null;
  const { route } = splitLanguagePrefix(pathname);
  const target = localizedPath(route, stored);
  return target === pathname ? null : target;
}
