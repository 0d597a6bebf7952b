// Writes src/lib/site-languages.generated.ts from site-config.yaml, the one list of the site's
// languages (the generator and the server read the same file, the server through _site.json).
// The build runs it; test/languages.test.ts fails when the committed copy is stale.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { parse } from 'yaml';

const uiDir = path.dirname(fileURLToPath(import.meta.url));
export const configFile = path.join(path.dirname(uiDir), 'site-config.yaml');
export const moduleFile = path.join(uiDir, 'src', 'lib', 'site-languages.generated.ts');

/** The module's text (formatted as the tree is) for the text of a site-config.yaml. */
export async function languagesModule(configText) {
  const config = parse(configText);
  const languages = (config.languages ?? []).map((l) => ({ code: String(l.code), tag: String(l.tag ?? l.code) }));
  const codes = languages.map((l) => l.code);
  if (codes.length === 0 || !codes.includes(config.default_language)) {
    throw new Error(`${configFile}: default_language must be one of languages (${codes.join(', ')})`);
  }
  const tags = languages.map((l) => `  ${JSON.stringify(l.code)}: ${JSON.stringify(l.tag)},`);
  const text = [
    '// Generated from site-config.yaml by ui/languages-module.mjs (run by `npm run build`): do not edit.',
    '',
    "/** The site's languages, in menu order; the default one has no URL prefix. */",
    `export const LANGUAGES = ${JSON.stringify(codes)} as const;`,
    'export type Lang = (typeof LANGUAGES)[number];',
    `export const DEFAULT_LANGUAGE: Lang = ${JSON.stringify(config.default_language)};`,
    '',
    "/** Each language's BCP 47 tag, for `lang`, `hreflang` and `Intl`. */",
    'export const LANGUAGE_TAGS: Record<Lang, string> = {',
    ...tags,
    '};',
    '',
  ].join('\n');
  return prettier.format(text, { ...(await prettier.resolveConfig(moduleFile)), filepath: moduleFile });
}

/** Rewrites the module when site-config.yaml says otherwise; returns whether it changed. */
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
