// Languages and their URL prefixes: the default language unprefixed, every other under /<code>.
// The list itself is site-config.yaml's, through the generated module.
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_TAGS, type Lang } from './site-languages.generated';

export { DEFAULT_LANGUAGE, LANGUAGES, type Lang };

/** The BCP 47 tag of a language code (`zh` is `zh-Hant`), for `lang`, `hreflang` and `Intl`. */
export function languageTag(code: string): string {
  return isLang(code) ? LANGUAGE_TAGS[code] : code;
}

/** The language of a BCP 47 tag (`zh-Hant` is `zh`), as `<html lang>` holds it; else the default. */
export function languageOfTag(tag: string): Lang {
  return LANGUAGES.find((code) => LANGUAGE_TAGS[code] === tag) ?? (isLang(tag) ? tag : DEFAULT_LANGUAGE);
}

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Splits `/zh/notes` into `{lang: 'zh', route: '/notes'}`; an unprefixed path is in the default language. */
export function splitLanguagePrefix(pathname: string): { lang: Lang; route: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match || !isLang(match[1]) || match[1] === DEFAULT_LANGUAGE) return { lang: DEFAULT_LANGUAGE, route: pathname || '/' };
  return { lang: match[1], route: match[2] && match[2] !== '' ? match[2] : '/' };
}

/** Whether the address names its language (`/ja/notes`); the default language's has no prefix. */
export function addressNamesLanguage(pathname: string): boolean {
  return splitLanguagePrefix(pathname).lang !== DEFAULT_LANGUAGE;
}

/**
 * The path of an English route in a language: `localizedPath('/notes', 'zh')` is `/zh/notes`, home
 * is `/zh/`; a code that is not one of the site's languages leaves the route as it is.
 */
export function localizedPath(route: string, lang: string): string {
  const clean = route.startsWith('/') ? route : `/${route}`;
  if (!isLang(lang) || lang === DEFAULT_LANGUAGE) return clean;
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
