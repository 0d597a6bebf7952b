// Step 3: our search against Pagefind over the same dist/, in headless Chromium.
//   node search_bench.mjs REPO WORK OUR_BASE_URL RESULTS
// Appends its rows to RESULTS (see report.py) and prints one JSON line: our index bytes (gzip, br, as served), Pagefind's bytes for the first
// results of the same query (counted by the server that sends them, text gzipped as a host would),
// and our query time per keystroke over the real index.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const [repo, work, ourBase, resultsFile] = process.argv.slice(2);
const QUERY = 'discount rate';
const RESULTS_SHOWN = 5; // Pagefind's UI loads this many result fragments first.
const REPEATS = 25;
const require = createRequire(path.join(repo, 'tests/package.json'));
const { chromium } = require('playwright-core');
const dist = path.join(repo, 'dist');

// Our side: the one index file, as the server sends it.
const indexName = fs.readdirSync(path.join(dist, 'assets')).find((n) => /^search-index-.*\.json$/.test(n));
const ourBytes = Object.fromEntries(['gz', 'br'].map((ext) => [ext, fs.statSync(path.join(dist, 'assets', `${indexName}.${ext}`)).size]));

// Pagefind's side: index the same dist/, serve its files plus a page that searches.
const pfDir = path.join(work, 'pagefind');
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
let pfBytes = 0;
const pfRequests = [];
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
  pfBytes += body.length;
  pfRequests.push(`${url} ${body.length}`);
  res.writeHead(200, headers);
  res.end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const pfBase = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const pf = await browser.newPage();
  await pf.goto(pfBase + '/');
  await pf.waitForFunction(() => window.__done, null, { timeout: 60000 });
  const pfDone = await pf.evaluate(() => window.__done);
  await pf.close();

  // Our query time: the UI's own search code, bundled from ui/src/search, over the real index
  // that the /search page names, in the page of our running server.
  const lib = path.join(work, 'search-lib.js');
  execFileSync(path.join(repo, 'ui/node_modules/.bin/esbuild'), [
    path.join(repo, 'ui/src/search/search.ts'),
    '--bundle',
    '--format=iife',
    '--global-name=SearchLib',
    `--outfile=${lib}`,
    '--log-level=error',
  ]);
  // The site's CSP forbids injected scripts, rightly; the measurement page may bypass it.
  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  await page.goto(`${ourBase}/search`);
  await page.addScriptTag({ path: lib });
  const timing = await page.evaluate(
    async ({ query, repeats }) => {
      const props = JSON.parse(document.querySelector('[data-island="Search"]').dataset.props);
      const t0 = performance.now();
      const raw = await (await fetch(props.indexUrl)).json();
      const index = SearchLib.prepareIndex(raw);
      const load = performance.now() - t0;
      const perPrefix = [];
      let results = 0;
      for (let i = 1; i <= query.length; i++) {
        const prefix = query.slice(0, i);
        // Timed as a batch: the browser's clock is coarse (0.1 ms) next to one search.
        SearchLib.search(index, prefix, { lang: 'en' });
        const s = performance.now();
        for (let r = 0; r < repeats; r++) {
          const outcome = SearchLib.search(index, prefix, { lang: 'en' });
          results = outcome ? outcome.results.length : 0;
        }
        perPrefix.push((performance.now() - s) / repeats);
      }
      return { load, perPrefix, results, pages: raw.pages.length };
    },
    { query: QUERY, repeats: REPEATS },
  );
  const sorted = [...timing.perPrefix].sort((a, b) => a - b);
  const group = `3. Search vs Pagefind (query "${QUERY}")`;
  const pfDetail = `Pagefind: ${pfRequests.length} requests (JS, wasm, index chunks, ${RESULTS_SHOWN} fragments), ${pfDone.results} results`;
  const rows = [
    {
      row: 'bytes to first results, ours brotli',
      ours: ourBytes.br / 1024,
      anchor: pfBytes / 1024,
      unit: 'KB',
      higher_is_better: false,
      goal: 1.0,
      detail: `ours: the one index of ${timing.pages} pages; ${pfDetail}`,
    },
    {
      row: 'bytes to first results, ours gzip',
      ours: ourBytes.gz / 1024,
      anchor: pfBytes / 1024,
      unit: 'KB',
      higher_is_better: false,
      goal: 1.0,
      detail: "Pagefind's JS gzipped in transit",
    },
    {
      row: 'our query time per keystroke, median over prefixes',
      ours: sorted[Math.floor(sorted.length / 2)],
      anchor: null,
      unit: 'ms',
      higher_is_better: false,
      detail: `max ${sorted[sorted.length - 1].toFixed(3)} ms; headless Chromium, ${QUERY.length} prefixes x ${REPEATS}`,
    },
    {
      row: 'our index download + parse + prepare',
      ours: timing.load,
      anchor: null,
      unit: 'ms',
      higher_is_better: false,
      detail: 'once per visit, loopback',
    },
  ];
  fs.appendFileSync(resultsFile, rows.map((r) => JSON.stringify({ group, ...r }) + '\n').join(''));
  console.log(
    JSON.stringify({
      query: QUERY,
      ours: ourBytes,
      pagefind: { bytes: pfBytes, requests: pfRequests, results: pfDone.results, first: pfDone.first },
      keystroke_ms: { median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1], perPrefix: timing.perPrefix },
      index_load_ms: timing.load,
      index_pages: timing.pages,
      our_results: timing.results,
    }),
  );
} finally {
  await browser.close();
  server.close();
}
