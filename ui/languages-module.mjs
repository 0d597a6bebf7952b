// Writes src/lib/site-languages.generated.ts (not committed: .gitignore) from site-config.yaml,
// the one list of the site's languages, and from locales/: the few words each language needs
// before its translation file has loaded, or when it cannot load (the search page's route labels,
// the retry button of an island whose script failed). The generator and the server read the same
// files. The build, the type check and the tests run it first (package.json). The file's schema
// is site-contract's `SiteConfig`, which the generator checks; this runs before any Rust is built,
// so it reads only the three facts it needs (each language's code and tag, default_language).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { parse } from 'yaml';

const uiDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(uiDir);
export const configFile = path.join(rootDir, 'site-config.yaml');
export const moduleFile = path.join(uiDir, 'src', 'lib', 'site-languages.generated.ts');

/** The route labels bundled with the UI, keyed as `breadcrumb.segments` (home is `breadcrumb.home`). */
export const BUILTIN_ROUTES = ['about', 'valuation-models', 'investment-basics', 'notes', 'search', 'login'];

/** A language's translation file, parsed. */
export async function readTranslation(code) {
  return JSON.parse(await readFile(path.join(rootDir, 'locales', code, 'translation.json'), 'utf8'));
}

/** The text at `keys` in a translation, or an error naming the file and the key. */
function text(translation, code, keys) {
  const value = keys.reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), translation);
  if (typeof value !== 'string') throw new Error(`locales/${code}/translation.json has no text at ${keys.join('.')}`);
  return value;
}

/** One language's built-in words out of its translation. */
function builtinWords(translation, code) {
  const labels = { home: text(translation, code, ['breadcrumb', 'home']) };
  for (const route of BUILTIN_ROUTES) labels[route] = text(translation, code, ['breadcrumb', 'segments', route]);
  return { labels, retry: text(translation, code, ['common', 'retry']) };
}

/**
 * The module's text (formatted as the tree is) for the text of a site-config.yaml; `translation`
 * reads a language's translation file (the real ones unless a test passes its own).
 */
export async function languagesModule(configText, translation = readTranslation) {
  const config = parse(configText);
  const languages = (config.languages ?? []).map((l) => ({ code: String(l.code), tag: String(l.tag ?? l.code) }));
  const codes = languages.map((l) => l.code);
  if (codes.length === 0 || !codes.includes(config.default_language)) {
    throw new Error(`${configFile}: default_language must be one of languages (${codes.join(', ')})`);
  }
  const words = {};
  for (const code of codes) words[code] = builtinWords(await translation(code), code);
  const perLanguage = (pick) => codes.map((code) => `  ${JSON.stringify(code)}: ${JSON.stringify(pick(code))},`);
  const text = [
    '// Generated from site-config.yaml and locales/ by ui/languages-module.mjs: do not edit.',
    '',
    "/** The site's languages, in menu order; the default one has no URL prefix. */",
    `export const LANGUAGES = ${JSON.stringify(codes)} as const;`,
    'export type Lang = (typeof LANGUAGES)[number];',
    `export const DEFAULT_LANGUAGE: Lang = ${JSON.stringify(config.default_language)};`,
    '',
    "/** Each language's BCP 47 tag, for `lang`, `hreflang` and `Intl`. */",
    'export const LANGUAGE_TAGS: Record<Lang, string> = {',
    ...languages.map((l) => `  ${JSON.stringify(l.code)}: ${JSON.stringify(l.tag)},`),
    '};',
    '',
    '/** Route labels for when the translation files cannot be read: `breadcrumb.home` and `breadcrumb.segments`. */',
    'export const BUILTIN_ROUTE_LABELS: Record<Lang, Record<string, string>> = {',
    ...perLanguage((code) => words[code].labels),
    '};',
    '',
    "/** The retry button's label (`common.retry`), for an island whose script could not load. */",
    'export const RETRY_LABELS: Record<Lang, string> = {',
    ...perLanguage((code) => words[code].retry),
    '};',
    '',
  ].join('\n');
  return prettier.format(text, { ...(await prettier.resolveConfig(moduleFile)), filepath: moduleFile });
}

/** Writes the module when it is missing or says otherwise; returns whether it changed. */
export async function writeLanguagesModule() {
  const text = await languagesModule(await readFile(configFile, 'utf8'));
  const current = await readFile(moduleFile, 'utf8').catch(() => null);
  if (current === text) return false;
  await writeFile(moduleFile, text);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeLanguagesModule();
}
