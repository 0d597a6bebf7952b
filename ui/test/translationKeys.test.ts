// UI text is written once, in locales/: the islands name a key and never carry a copy of its
// text (a copy hides a key missing from the locale files and drifts from the translation).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE } from '../src/lib/languages';

const uiDir = path.resolve(__dirname, '..');
const srcDir = path.join(uiDir, 'src');
const localesDir = path.resolve(uiDir, '../locales');

/** The islands' source files: no tests, nothing generated. */
function sourceFiles(dir = srcDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.(test|generated|d)\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

interface TCall {
  where: string;
  args: readonly ts.Expression[];
}

/** Every call of a function named `t` (`t(...)`, `i18n.t(...)`) in `text`. */
function translationCalls(text: string, file = 'x.tsx'): TCall[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const calls: TCall[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (name === 't') {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        calls.push({ where: `${path.relative(uiDir, file)}:${line}`, args: node.arguments });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

/** Whether `node` writes out text anywhere in it ('Menu', `${n} results`, open ? '收合' : '展開'). */
function holdsText(node: ts.Node | undefined): boolean {
  if (!node) return false;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) return true;
  return ts.forEachChild(node, (child) => holdsText(child) || undefined) ?? false;
}

/** The option `name` of an options object, if it is there. */
function option(args: readonly ts.Expression[], name: string): ts.Expression | undefined {
  const options = args.find(ts.isObjectLiteralExpression);
  const property = options?.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);
  return property && ts.isPropertyAssignment(property) ? property.initializer : undefined;
}

/** A call that carries its own text: a second argument other than the options, or a `defaultValue` written out. */
function writtenDefault(call: TCall): boolean {
  const second = call.args[1];
  return (!!second && !ts.isObjectLiteralExpression(second)) || holdsText(option(call.args, 'defaultValue'));
}

/** The namespace and key a call names when both are written out, else null. */
function namedKey(call: TCall): { ns: string; key: string } | null {
  const [key] = call.args;
  if (!key || !(ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key))) return null;
  const ns = option(call.args, 'ns');
  if (ns && !ts.isStringLiteral(ns)) return null;
  return { ns: ns ? ns.text : 'translation', key: key.text };
}

type Tree = { [key: string]: Tree | string };
const locale = (ns: string): Tree => JSON.parse(readFileSync(path.join(localesDir, DEFAULT_LANGUAGE, `${ns}.json`), 'utf8'));

/** Whether `key` names a text in `tree`, itself or by its plural forms (`key_one`, `key_other`). */
function hasText(tree: Tree, key: string): boolean {
  const parts = key.split('.');
  const last = parts.pop()!;
  let node: Tree | string | undefined = tree;
  for (const part of parts) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'object') return false;
  return typeof node[last] === 'string' || typeof node[`${last}_other`] === 'string';
}

/** The texts the code keeps as keys to translate later ('login.errors.empty'): in sections of `tree`. */
function keysKept(text: string, tree: Tree, file = 'x.ts'): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const keys: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) && /^[a-z][A-Za-z]*(\.[A-Za-z0-9_]+)+$/.test(node.text)) {
      if (typeof tree[node.text.split('.')[0]] === 'object') keys.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
}

const files = sourceFiles().map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const calls = files.flatMap(({ file, text }) => translationCalls(text, file));

describe('the UI text in code', () => {
  it('finds the calls it checks', () => {
    // Some hundred calls name a key: a scan that found few would check nothing.
    expect(calls.filter((call) => namedKey(call)).length).toBeGreaterThan(100);
  });

  it('names a key and carries no copy of its text', () => {
    expect(calls.filter(writtenDefault).map((call) => call.where)).toEqual([]);
  });

  it(`names only keys that locales/${DEFAULT_LANGUAGE} has`, () => {
    const namespaces = new Map<string, Tree>();
    const missing = calls.flatMap((call) => {
      const named = namedKey(call);
      if (!named) return [];
      if (!namespaces.has(named.ns)) namespaces.set(named.ns, locale(named.ns));
      return hasText(namespaces.get(named.ns)!, named.key) ? [] : [`${call.where}: ${named.ns}:${named.key}`];
    });
    expect(missing).toEqual([]);
  });

  it(`keeps only keys that locales/${DEFAULT_LANGUAGE} has, as the forms' checks answer them`, () => {
    const translation = locale('translation');
    const kept = files.flatMap(({ file, text }) => keysKept(text, translation, file).map((key) => ({ file, key })));
    expect(kept.map(({ key }) => key)).toContain('login.errors.empty');
    const missing = kept.filter(({ key }) => !hasText(translation, key));
    expect(missing.map(({ file, key }) => `${path.relative(uiDir, file)}: ${key}`)).toEqual([]);
  });

  it('tells a copy of the text and a missing key from a good call', () => {
    const [copy, inOptions, chosen, passed, counted, sidebar, computed, named] = translationCalls(
      [
        "t('login.title', 'Member Login');",
        "i18n.t('blog.by', { author, defaultValue: 'By {{author}}' });",
        "t(open ? 'sidebarTips.collapse' : 'sidebarTips.expand', open ? '收合' : '展開');",
        't(`sidebarTips.${key}`, TOOLTIPS[key]);',
        "t('search.count', { count });",
        "t('navLabel', { ns: 'sidebar' });",
        't(`calculator.dcf.${key}`);',
        't(`languages.${code}`, { defaultValue: code });',
      ].join('\n'),
    );
    const calls = [copy, inOptions, chosen, passed, counted, sidebar, computed, named];
    expect(calls.map(writtenDefault)).toEqual([true, true, true, true, false, false, false, false]);
    expect(namedKey(sidebar)).toEqual({ ns: 'sidebar', key: 'navLabel' });
    expect(namedKey(computed)).toBeNull();
    const tree = { search: { count_one: '{{count}} result', count_other: '{{count}} results' }, login: { title: 'Member Login' } };
    expect([hasText(tree, 'search.count'), hasText(tree, 'login.title'), hasText(tree, 'login.titles'), hasText(tree, 'login')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
