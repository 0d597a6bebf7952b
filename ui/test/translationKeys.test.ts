// UI text lives in locales/ only: a `t()` call names a key and never carries a copy of the text,
// and every key the islands name is in the English locale, the one every language falls back to.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const uiDir = path.resolve(__dirname, '..');
const srcDir = path.join(uiDir, 'src');
const english = (ns: string) => JSON.parse(readFileSync(path.resolve(uiDir, '../locales/en', `${ns}.json`), 'utf8'));

/** Every TypeScript source of the islands, tests and generated modules aside. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.(test|generated)\.tsx?$/.test(name) ? [file] : [];
  });
}

const files = sources(srcDir).map((file) => ({ file: path.relative(uiDir, file), text: readFileSync(file, 'utf8') }));

/** Whether `key` (dotted) leads to a text, or with `prefix` to a group of texts, in `tree`. */
function has(tree: unknown, key: string, prefix = false): boolean {
  const node = key
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((at, part) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), tree);
  return prefix ? typeof node === 'object' && node !== null : typeof node === 'string';
}

const KEY = String.raw`'([^'\n]+)'`;

describe('translation keys', () => {
  it('finds the calls it checks', () => {
    const calls = files.flatMap(({ text }) => [...text.matchAll(new RegExp(String.raw`\bt\(\s*${KEY}`, 'g'))]);
    expect(calls.length).toBeGreaterThan(100);
  });

  it('never gives t() a copy of the text as its default', () => {
    const literalDefault = /\bt\(\s*(?:'[^'\n]*'|`[^`\n]*`|[\w.]+)\s*,\s*['"`]/g;
    const found = files.flatMap(({ file, text }) => [
      ...[...text.matchAll(literalDefault)].map((m) => `${file}: ${m[0]}`),
      ...[...text.matchAll(/\bdefaultValue\s*:/g)].map((m) => `${file}: ${m[0]}`),
    ]);
    expect(found).toEqual([]);
  });

  it('names only keys the English locale has', () => {
    const translation = english('translation');
    const sidebar = english('sidebar');
    const missing = files.flatMap(({ file, text }) => {
      const literal = [...text.matchAll(new RegExp(String.raw`\bt\(\s*${KEY}(\s*,\s*\{\s*ns:\s*'sidebar')?`, 'g'))].filter(
        // A count picks a plural form: `search.count` is `search.count_one` and `search.count_other`.
        (m) => !has(m[2] ? sidebar : translation, m[1]) && !has(translation, `${m[1]}_other`),
      );
      // `calculator.dcf.${key}`: the part before the first `${` must be a group of texts.
      const templated = [...text.matchAll(/\bt\(\s*`([^`$\n]*)\$\{/g)].filter((m) => !has(translation, m[1], true));
      return [...literal, ...templated].map((m) => `${file}: ${m[1]}`);
    });
    expect(missing).toEqual([]);
  });
});
