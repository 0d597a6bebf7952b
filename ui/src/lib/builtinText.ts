// The default language's text, for a page whose own text cannot be had (not in the page, and its
// locale files unreachable): its islands are drawn in this wording rather than as bare keys. The
// build writes each language's locale files into the assets as one hashed file (build.mjs), which
// a page reads only in that case.
import type { LocaleBundle } from './i18n';
import { DEFAULT_LANGUAGE } from './languages';
import { fetchJsonWithRetry } from './localeLoader';

export async function builtinText(urls: Record<string, string> = BUILTIN_TEXT_URLS): Promise<LocaleBundle> {
  return (await fetchJsonWithRetry(urls[DEFAULT_LANGUAGE])) as LocaleBundle;
}
