// One i18next instance per island language, with its resources given inline, so the server
// render and the hydration see the same text synchronously.
import i18next, { type i18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE } from './languages';

export const NAMESPACES = ['translation', 'sidebar'] as const;
export type LocaleBundle = Partial<Record<(typeof NAMESPACES)[number], Record<string, unknown>>>;

/** The instance for `lng` with its text; `fallback`, the default language's, fills in what `bundle` lacks. */
export function createI18n(lng: string, bundle: LocaleBundle, fallback?: LocaleBundle): i18n {
  const instance = i18next.createInstance();
  const resources: Resource = { [lng]: bundle as Resource[string] };
  if (fallback) resources[DEFAULT_LANGUAGE] = (lng === DEFAULT_LANGUAGE ? { ...fallback, ...bundle } : fallback) as Resource[string];
  instance.use(initReactI18next).init({
    lng,
    resources,
    fallbackLng: DEFAULT_LANGUAGE,
    ns: [...NAMESPACES],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    react: { useSuspense: false },
    // i18next otherwise prints a sponsor notice to every visitor's console and to the build log.
    showSupportNotice: false,
  });
  return instance;
}
