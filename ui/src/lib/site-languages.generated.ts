// Generated from site-config.yaml by ui/languages-module.mjs (run by `npm run build`): do not edit.

/** The site's languages, in menu order; the default one has no URL prefix. */
export const LANGUAGES = ['en', 'zh', 'ja'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Lang = 'en';

/** Each language's BCP 47 tag, for `lang`, `hreflang` and `Intl`. */
export const LANGUAGE_TAGS: Record<Lang, string> = {
  en: 'en',
  zh: 'zh-Hant',
  ja: 'ja',
};
