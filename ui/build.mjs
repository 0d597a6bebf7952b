// Builds the UI: the browser bundle (code-split, content-hashed) and its manifest in dist/assets/,
// the inline head script, one site CSS, and the Node bundle the generator uses for SSR.
import * as esbuild from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLanguagesModule } from './languages-module.mjs';

const uiDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.dirname(uiDir);
const srcDir = path.join(uiDir, 'src');
const islandsDir = path.join(srcDir, 'islands');
const stylesDir = path.join(srcDir, 'styles');
const distDir = process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : path.join(repoDir, 'dist');
const assetsDir = path.join(distDir, 'assets');
const ssrDir = path.join(uiDir, '.ssr');
const publicPath = '/assets';

const shared = {
  bundle: true,
  minify: true,
  target: 'es2020',
  jsx: 'automatic',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
};

/** Island name -> absolute file, from the files themselves, so nobody edits a shared list. */
async function findIslands() {
  const files = (await readdir(islandsDir)).filter((f) => /^[A-Z][A-Za-z0-9]*\.tsx$/.test(f)).sort();
  return files.map((f) => ({ name: f.slice(0, -4), file: path.join(islandsDir, f) }));
}

function islandRegistryPlugin(islands, side) {
  return {
    name: 'island-registry',
    setup(build) {
      build.onResolve({ filter: /^virtual:islands$/ }, () => ({ path: 'islands', namespace: 'island-registry' }));
      build.onLoad({ filter: /.*/, namespace: 'island-registry' }, () => {
        const lines =
          side === 'client'
            ? [
                'export const components = {};',
                'export const loaders = {',
                ...islands.map((i) => `  ${i.name}: () => import(${JSON.stringify(i.file)}),`),
                '};',
              ]
            : [
                ...islands.map((i, n) => `import I${n} from ${JSON.stringify(i.file)};`),
                'export const loaders = {};',
                `export const components = { ${islands.map((i, n) => `${i.name}: I${n}`).join(', ')} };`,
              ];
        return { contents: lines.join('\n'), loader: 'js', resolveDir: srcDir };
      });
    },
  };
}

/** All of src/styles/*.css in file-name order, as one stylesheet. */
function stylesPlugin(cssFiles) {
  return {
    name: 'site-styles',
    setup(build) {
      build.onResolve({ filter: /^virtual:styles$/ }, () => ({ path: 'styles', namespace: 'site-styles' }));
      build.onLoad({ filter: /.*/, namespace: 'site-styles' }, () => ({
        contents: cssFiles.map((f) => `@import ${JSON.stringify(f)};`).join('\n'),
        loader: 'css',
        resolveDir: stylesDir,
      }));
    },
  };
}

const toUrl = (outPath) => `${publicPath}/${path.relative(assetsDir, path.resolve(uiDir, outPath)).split(path.sep).join('/')}`;

/** The chunk files an output needs: itself and everything it imports statically, transitively;
 * with `dynamic`, also what it imports on demand. */
function closure(metafile, outPath, { dynamic = false } = {}) {
  const seen = new Set();
  const visit = (p) => {
    if (seen.has(p)) return;
    seen.add(p);
    for (const imp of metafile.outputs[p]?.imports ?? []) {
      const followed = imp.kind === 'import-statement' || (dynamic && imp.kind === 'dynamic-import');
      if (followed && !imp.external) visit(imp.path);
    }
  };
  visit(outPath);
  return [...seen];
}

/** Every top-level section of the `translation` namespace, in any language. */
async function translationSections() {
  const localesDir = path.join(repoDir, 'locales');
  const sections = new Set();
  for (const lang of await readdir(localesDir)) {
    const file = path.join(localesDir, lang, 'translation.json');
    if (existsSync(file)) for (const key of Object.keys(JSON.parse(await readFile(file, 'utf8')))) sections.add(key);
  }
  return sections;
}

/** The `translation` sections the source behind `outputs` names: a page carries only those of
 * its islands' text (the generator's `island_text`). A key is named as a string starting with
 * its section ('login.title', `calculator.${field}`), which this finds. */
async function sectionsNamed(metafile, outputs, sections, sources) {
  const found = new Set();
  for (const out of outputs) {
    for (const input of Object.keys(metafile.outputs[out].inputs)) {
      if (!input.startsWith('src/')) continue;
      if (!sources.has(input)) sources.set(input, await readFile(path.join(uiDir, input), 'utf8'));
      for (const m of sources.get(input).matchAll(/['"`]([A-Za-z]+)\./g)) if (sections.has(m[1])) found.add(m[1]);
    }
  }
  return [...found].sort();
}

/**
 * Each language's text (`translation` and `sidebar`) as one content-hashed file in the assets,
 * for a page whose own text cannot be had (src/lib/builtinText.ts); its URL per language.
 */
async function writeBuiltinTexts() {
  const localesDir = path.join(repoDir, 'locales');
  const urls = {};
  for (const lang of (await readdir(localesDir)).sort()) {
    const read = async (ns) => JSON.parse(await readFile(path.join(localesDir, lang, `${ns}.json`), 'utf8'));
    if (!existsSync(path.join(localesDir, lang, 'translation.json'))) continue;
    const text = JSON.stringify({ translation: await read('translation'), sidebar: await read('sidebar') });
    const name = `text-${lang}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}.json`;
    await writeFile(path.join(assetsDir, name), text);
    urls[lang] = `${publicPath}/${name}`;
  }
  return urls;
}

async function buildClient(islands, builtinTexts) {
  const result = await esbuild.build({
    ...shared,
    define: { ...shared.define, BUILTIN_TEXT_URLS: JSON.stringify(builtinTexts) },
    absWorkingDir: uiDir,
    entryPoints: [{ in: path.join(srcDir, 'entry.tsx'), out: 'entry' }, ...islands.map((i) => ({ in: i.file, out: i.name }))],
    outdir: assetsDir,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file' },
    metafile: true,
    plugins: [islandRegistryPlugin(islands, 'client')],
    // V8's explicit compile hint: compile every function while the script streams in, off the
    // main thread. Nearly all of this code runs on load (React, i18next, hydration); lazily
    // compiled, React DOM's module body alone was a ~100 ms task on Lighthouse's phone.
    banner: { js: '//# allFunctionsCalledOnLoad' },
  });
  const { metafile } = result;
  const byEntry = new Map();
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (info.entryPoint) byEntry.set(path.resolve(uiDir, info.entryPoint), out);
  }
  const entryOut = byEntry.get(path.join(srcDir, 'entry.tsx'));
  const sections = await translationSections();
  const sources = new Map();
  const islandChunks = {};
  const text = { entry: await sectionsNamed(metafile, closure(metafile, entryOut), sections, sources), islands: {} };
  for (const island of islands) {
    const out = byEntry.get(island.file);
    if (!out) throw new Error(`esbuild produced no chunk for island ${island.name}`);
    islandChunks[island.name] = closure(metafile, out).map(toUrl);
    const withLazy = closure(metafile, out, { dynamic: true });
    text.islands[island.name] = await sectionsNamed(metafile, withLazy, sections, sources);
  }
  // The chunks the entry itself imports: pages preload them with their islands' chunks, or the
  // browser finds them only once the entry has arrived, a round trip later.
  const entryImports = closure(metafile, entryOut)
    .filter((o) => o !== entryOut)
    .map(toUrl);
  return { entry: toUrl(entryOut), entryImports, islands: islandChunks, text, outputs: Object.keys(metafile.outputs) };
}

async function buildCss() {
  const cssFiles = (await readdir(stylesDir)).filter((f) => f.endsWith('.css')).sort();
  const result = await esbuild.build({
    ...shared,
    absWorkingDir: uiDir,
    entryPoints: [{ in: 'virtual:styles', out: 'entry' }],
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    // Absolute URLs: the generator inlines the stylesheet into pages at every depth.
    publicPath,
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file' },
    metafile: true,
    plugins: [stylesPlugin(cssFiles.map((f) => path.join(stylesDir, f)))],
  });
  const outputs = Object.keys(result.metafile.outputs);
  const css = outputs.filter((o) => o.endsWith('.css'));
  const text = (await Promise.all(css.map((o) => readFile(path.resolve(uiDir, o), 'utf8')))).join('\n').trim();
  // The formulas' font: the generator preloads it (at low priority) on the pages with formulas.
  const mathFont = outputs.find((o) => /\/article-math-[^/]+\.woff2$/.test(o));
  return { css: css.map(toUrl), text, mathFont: mathFont ? toUrl(mathFont) : '', outputs };
}

async function buildHeadScript() {
  const result = await esbuild.build({
    ...shared,
    absWorkingDir: uiDir,
    entryPoints: [path.join(srcDir, 'head', 'head.ts')],
    format: 'iife',
    write: false,
  });
  return result.outputFiles[0].text.trim();
}

async function buildSsr(islands) {
  await esbuild.build({
    ...shared,
    minify: false,
    absWorkingDir: uiDir,
    entryPoints: [path.join(srcDir, 'ssr.tsx')],
    outfile: path.join(ssrDir, 'render.mjs'),
    platform: 'node',
    format: 'esm',
    target: 'node18',
    // React's CommonJS builds require Node built-ins; an ES module has no `require` of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [islandRegistryPlugin(islands, 'server')],
  });
}

/** Removes what an earlier build of ours left in dist/assets; the generator's files stay. */
async function removeStale(keep) {
  for (const name of await readdir(assetsDir)) {
    const base = name.replace(/\.(gz|br)$/, '');
    if (base.startsWith('search-index-') || keep.has(base)) continue;
    await rm(path.join(assetsDir, name), { force: true, recursive: true });
  }
}

async function main() {
  // Before bundling: the bundles import the languages site-config.yaml lists, and their words.
  await writeLanguagesModule();
  const islands = await findIslands();
  await mkdir(assetsDir, { recursive: true });
  const builtinTexts = await writeBuiltinTexts();
  const [client, styles, headScript] = await Promise.all([buildClient(islands, builtinTexts), buildCss(), buildHeadScript()]);
  await buildSsr(islands);
  // `inlineCss`: the pages carry the stylesheet in their <head>, so first paint waits for no request.
  const manifest = {
    entry: client.entry,
    entryImports: client.entryImports,
    css: styles.css,
    inlineCss: styles.text,
    mathFont: styles.mathFont,
    headScript,
    islands: client.islands,
    text: client.text,
  };
  await writeFile(path.join(assetsDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  const texts = Object.values(builtinTexts).map((url) => path.basename(url));
  const keep = new Set(['manifest.json', ...texts, ...[...client.outputs, ...styles.outputs].map((o) => path.basename(o))]);
  await removeStale(keep);
  console.log(`ui: ${islands.length} islands (${islands.map((i) => i.name).join(', ')}) -> ${path.relative(repoDir, assetsDir)}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
