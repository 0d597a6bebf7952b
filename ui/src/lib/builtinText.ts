// The default language's text, for a page whose own text cannot be had (not in the page, and its
// locale files unreachable): its islands are drawn in this wording rather than as bare keys. The
// text is read from locales/ at build time into chunks of their own (esbuild bundles every file the
// import's pattern matches), which a page loads only in that case.
import type { LocaleBundle } from './i18n';
import { DEFAULT_LANGUAGE } from './languages';

export async function builtinText(): Promise<LocaleBundle> {
  const [translation, sidebar] = await Promise.all([
    import(`../../../locales/${DEFAULT_LANGUAGE}/translation.json`),
    import(`../../../locales/${DEFAULT_LANGUAGE}/sidebar.json`),
  ]);
  return { translation: translation.default, sidebar: sidebar.default };
}
