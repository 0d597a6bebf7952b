// Step 3: our search against Pagefind, on the real site's dist/ and on a synthetic site of
// N pages x 3 languages (BENCH_SEARCH_N, default 10000; 0 skips it), in headless Chromium.
//   node search_bench.mjs REPO WORK OUR_BASE_URL RESULTS
// Appends its rows to RESULTS (see report.py) and prints one JSON line. Bytes to first results:
// ours, every byte our /search page fetches after it loads until the results of the query show
// (index files and the other languages' translation files, compressed as our server sends them
// to Chromium); Pagefind's, every byte of its JS, wasm, index chunks and first 5 fragments,
// counted by the server that sends them (text gzipped as a host would). Query time: the UI's own
// ui/src/search code in our /search page, over the real index.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync, spawn } from 'node:child_process';
import { freePort, launchBrowser } from '../tests/browser/harness.mjs';

const [repo, work, ourBase, resultsFile] = process.argv.slice(2);
const QUERY = 'discount rate';
const RESULTS_SHOWN = 5; // Pagefind's UI loads this many result fragments first.
const REPEATS = 25;
const SYNTH_N = Number(process.env.BENCH_SEARCH_N ?? 10000);
// The generator and server binaries (make bench builds them in release mode).
const BIN = path.resolve(repo, process.env.BENCH_BIN ?? 'target/release');

async function waitFor(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

/** The synthetic site (bench/make_site.py) with the real search page, built by our release generator and served by our server. */
async function synthetic(n) {
  const dir = path.join(work, `search-site-${n}`);
  execFileSync('python3', [path.join(repo, 'bench/make_site.py'), String(n), dir, repo], { stdio: 'ignore' });
  for (const lang of ['en', 'zh', 'ja']) {
    fs.copyFileSync(path.join(repo, `content/search.${lang}.md`), path.join(dir, `ours/content/search.${lang}.md`));
  }
  const out = path.join(dir, 'dist');
  fs.cpSync(path.join(repo, 'dist/assets'), path.join(out, 'assets'), { recursive: true });
  for (const f of fs.readdirSync(path.join(out, 'assets'))) {
    if (f.startsWith('search')) fs.rmSync(path.join(out, 'assets', f), { recursive: true });
  }
  const site = path.join(BIN, 'site');
  execFileSync(site, ['--root', path.join(dir, 'ours'), '--out', out, '--templates', path.join(repo, 'generator/templates'), 'build'], {
    stdio: 'ignore',
  });
  const port = await freePort();
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  const env = { ...process.env, PORT: String(port), DIST_DIR: out, DATA_DIR: path.join(dir, 'data') };
  delete env.DATABASE_URL;
  const server = spawn(path.join(BIN, 'api'), ['serve'], { env, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/`);
  return { dist: out, base, stop: () => server.kill() };
}

/** Pagefind indexes `dist` and searches it in a page of its own server: bytes, requests, results. */
async function pagefind(browser, dist, name) {
  const pfDir = path.join(work, `pagefind-${name}`);
  fs.rmSync(pfDir, { recursive: true, force: true });
  execFileSync('node', [path.join(repo, 'bench/node_modules/pagefind/lib/runner/bin.cjs'), '--site', dist, '--output-path', pfDir], {
    stdio: 'ignore',
  });
  const testPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pf</title></head><body><script type="module">
const pagefind = await import("/pagefind/pagefind.js");
await pagefind.options({});
const search = await pagefind.search(${JSON.stringify(QUERY)});
const shown = await Promise.all(search.results.slice(0, ${RESULTS_SHOWN}).map((r) => r.data()));
window.__done = { results: search.results.length, first: shown.map((d) => d.url) };
</script></body></html>`;
  let bytes = 0;
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    if (url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(testPage);
    }
    const file = path.join(pfDir, url.replace(/^\/pagefind\//, ''));
    if (!url.startsWith('/pagefind/') || !fs.existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    let body = fs.readFileSync(file);
    const headers = {
      'content-type': url.endsWith('.js') ? 'text/javascript' : url.endsWith('.json') ? 'application/json' : 'application/octet-stream',
    };
    // Text is compressed in transit like any host would; index chunks and wasm are gzipped already.
    if (/\.(js|json|css)$/.test(url)) {
      body = zlib.gzipSync(body, { level: 9 });
      headers['content-encoding'] = 'gzip';
    }
    bytes += body.length;
    requests.push(`${url} ${body.length}`);
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const pf = await browser.newPage();
    await pf.goto(`http://127.0.0.1:${server.address().port}/`);
    await pf.waitForFunction(() => window.__done, null, { timeout: 120000 });
    const done = await pf.evaluate(() => window.__done);
    await pf.close();
    return { bytes, requests, results: done.results, first: done.first };
  } finally {
    server.close();
  }
}

/** Our /search page opened with ?q=: every byte of its index and translation fetches until its results show. */
async function ours(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const started = Date.now();
    await page.goto(`${base}/search?q=${encodeURIComponent(QUERY)}`);
    await page.locator('.search-results .search-result').first().waitFor({ timeout: 120000 });
    const elapsed = Date.now() - started;
    const fetched = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => ({ url: new URL(e.name).pathname, bytes: e.encodedBodySize })),
    );
    const status = (await page.locator('.search-status').textContent()).trim();
    const results = await page.locator('.search-results .search-result').count();
    // Everything the page fetched beyond its own HTML, CSS and JS (those count as page weight).
    const searchFiles = fetched.filter((f) => f.url.startsWith('/assets/search'));
    const locales = fetched.filter((f) => f.url.startsWith('/locales/'));
    const sum = (list) => list.reduce((n, f) => n + f.bytes, 0);
    return { index: sum(searchFiles), files: searchFiles.length, locales: sum(locales), results, status, elapsed };
  } finally {
    await context.close();
  }
}

/** Our keystroke time: the chunked index in the /search page, each prefix of the query, chunks already fetched. */
async function keystrokes(browser, base) {
  const lib = path.join(work, 'search-lib.js');
  execFileSync(path.join(repo, 'ui/node_modules/.bin/esbuild'), [
    path.join(repo, 'ui/src/search/loadSearchData.ts'),
    '--bundle',
    '--format=iife',
    '--global-name=SearchLib',
    `--outfile=${lib}`,
    '--log-level=error',
  ]);
  // The site's CSP forbids injected scripts, rightly; the measurement page may bypass it.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  try {
    await page.goto(`${base}/search`);
    await page.addScriptTag({ path: lib });
    return await page.evaluate(
      async ({ query, repeats }) => {
        const props = JSON.parse(document.querySelector('[data-island="Search"]').dataset.props);
        const t0 = performance.now();
        const index = await SearchLib.loadIndex(props.indexUrl);
        const load = performance.now() - t0;
        const perPrefix = [];
        for (let i = 1; i <= query.length; i++) {
          const prefix = query.slice(0, i);
          // The first search of a prefix fetches its chunks; a keystroke's cost is the search
          // over fetched chunks, timed as a batch (the browser's clock is coarse).
          await index.search(prefix, { lang: 'en' });
          const s = performance.now();
          for (let r = 0; r < repeats; r++) await index.search(prefix, { lang: 'en' });
          perPrefix.push((performance.now() - s) / repeats);
        }
        return { load, perPrefix };
      },
      { query: QUERY, repeats: REPEATS },
    );
  } finally {
    await context.close();
  }
}

const browser = await launchBrowser();
const sites = [];
let synth;
try {
  const real = { name: 'real site', dist: path.join(repo, 'dist'), base: ourBase };
  const realOurs = await ours(browser, ourBase);
  const realPf = await pagefind(browser, real.dist, 'real');
  const timing = await keystrokes(browser, ourBase);
  sites.push({ ...real, ours: realOurs, pf: realPf });
  if (SYNTH_N > 0) {
    synth = await synthetic(SYNTH_N);
    sites.push({
      name: `N=${SYNTH_N}x3`,
      dist: synth.dist,
      ours: await ours(browser, synth.base),
      pf: await pagefind(browser, synth.dist, `n${SYNTH_N}`),
    });
  }
  const sorted = [...timing.perPrefix].sort((a, b) => a - b);
  const group = `3. Search vs Pagefind (query "${QUERY}")`;
  const rows = sites.map((s, n) => ({
    row: `${s.name}: bytes to first results`,
    ours: (s.ours.index + s.ours.locales) / 1024,
    anchor: s.pf.bytes / 1024,
    unit: 'KB',
    higher_is_better: false,
    goal: n === 0 ? 0.5 : 1.0,
    detail:
      `ours: ${s.ours.files} index files ${(s.ours.index / 1024).toFixed(1)} KB + translations ${(s.ours.locales / 1024).toFixed(1)} KB (br), ` +
      `"${s.ours.status}"; Pagefind: ${s.pf.requests.length} requests (JS, wasm, index chunks, ${RESULTS_SHOWN} fragments), ${s.pf.results} results`,
  }));
  rows.push(
    {
      row: 'our query time per keystroke, median over prefixes',
      ours: sorted[Math.floor(sorted.length / 2)],
      anchor: null,
      unit: 'ms',
      higher_is_better: false,
      goal: null,
      detail: `max ${sorted[sorted.length - 1].toFixed(3)} ms; real site, chunks fetched; headless Chromium, ${QUERY.length} prefixes x ${REPEATS}`,
    },
    {
      row: 'our index manifest download + parse',
      ours: timing.load,
      anchor: null,
      unit: 'ms',
      higher_is_better: false,
      detail: 'once per visit, loopback',
    },
  );
  fs.appendFileSync(resultsFile, rows.map((r) => JSON.stringify({ group, ...r }) + '\n').join(''));
  console.log(
    JSON.stringify({
      query: QUERY,
      sites: sites.map((s) => ({
        name: s.name,
        ours: s.ours,
        pagefind: { bytes: s.pf.bytes, requests: s.pf.requests.length, results: s.pf.results },
      })),
      keystroke_ms: { median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1], perPrefix: timing.perPrefix },
      index_load_ms: timing.load,
    }),
  );
} finally {
  await browser.close();
  synth?.stop();
}
