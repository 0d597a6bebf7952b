// Step 8: Lighthouse in its mobile profile (simulated slow 4G and a 4x slower CPU) on each page
// type, in Debian's Chromium (never a downloaded browser), served two ways: by our release server
// alone over plain HTTP/1.1, and as docs/deploy.md deploys it, nginx with TLS and HTTP/2
// (deploy/nginx-site.conf, templated as the deployment test does) in front of that server. The
// simulation gives an HTTP/1.1 origin six connections, each new one a handshake and a slow start;
// over HTTP/2 every request shares the page's own connection.
//
//   node bench/lighthouse_bench.mjs REPO WORK RESULTS [RUNS]
//
// A first visit (no stored preferences, so the welcome dialog is due). The articles page's blog
// list reads a small RSS feed served on loopback, as the real one would be read from the owner's
// blog. Each page is audited RUNS times (BENCH_LIGHTHOUSE_RUNS, default 3); every figure is the
// median of its runs.
import { spawn, execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, appendFileSync, openSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const [repo, work, results, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg || process.env.BENCH_LIGHTHOUSE_RUNS || 3);
const CHROME = '/usr/bin/chromium';
const LIGHTHOUSE = path.join(repo, 'bench/node_modules/.bin/lighthouse');
const PAGES = [
  ['home', '/'],
  ['article', '/valuation-models/dcf'],
  ['list', '/notes'],
  ['search', '/search'],
  ['login', '/login'],
  ['articles', '/about'],
];
const GROUP = '8. Lighthouse, mobile profile (first visit)';
const FCP_GOAL_S = 1.0;

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

/** The blog feed the articles page lists: three posts, images on our own site. */
async function startFeed(siteOrigin) {
  const items = [1, 2, 3]
    .map(
      (n) => `<item><title>Post ${n}</title><link>https://blog.example.test/post-${n}</link>
<pubDate>Mon, 0${n} Jun 2025 10:00:00 GMT</pubDate><description>Summary of post ${n}.</description>
<media:thumbnail url="${siteOrigin}/images/default-thumbnail.svg"/></item>`,
    )
    .join('\n');
  const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
<title>Blog</title><link>https://blog.example.test/</link><description>posts</description>${items}</channel></rss>`;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(rss);
  });
  return { server, url: `http://127.0.0.1:${await listen(server)}/feed.xml` };
}

async function freePort() {
  const server = http.createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`nothing answered at ${url}`);
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP) on a loaded machine;
 * such a run measured nothing, so it is run again, up to three times in all. */
const RETRIED = /NO_NAVSTART|NO_FCP|NO_TRACING_STARTED|PROTOCOL_TIMEOUT/;

async function audit(url, out, attempt = 1) {
  try {
    await runLighthouse(url, out);
  } catch (err) {
    if (attempt >= 3 || !RETRIED.test(String(err?.stderr ?? err))) throw err;
    console.log(`  ${url}: Lighthouse did not record the load (${String(err.stderr).trim()}); running it again`);
    return audit(url, out, attempt + 1);
  }
  return readReport(out);
}

function runLighthouse(url, out) {
  return promisify(execFile)(
    LIGHTHOUSE,
    [
      url,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      // The deployment's certificate is a throwaway self-signed one.
      `--chrome-flags=--headless=new --no-sandbox${url.startsWith('https:') ? ' --ignore-certificate-errors' : ''}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
  );
}

function readReport(out) {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const score = (id) => Math.round((report.categories[id]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcp: report.audits['first-contentful-paint'].numericValue / 1000,
    lcp: report.audits['largest-contentful-paint'].numericValue / 1000,
    lcpElement: report.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.selector ?? '',
    version: report.lighthouseVersion,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The servers this script started: stopped when it exits, even on an error before their run's end. */
const children = new Set();
process.on('exit', () => children.forEach((child) => child.kill()));

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** Our release server on `port`, reading `feedUrl`; `name` names its data and log. */
async function startApi(name, port, feedUrl) {
  const data = path.join(work, `data-lighthouse-${name}`);
  mkdirSync(data, { recursive: true });
  const log = openSync(path.join(work, `api-lighthouse-${name}.log`), 'w');
  const env = { ...process.env, PORT: String(port), DIST_DIR: path.join(repo, 'dist'), DATA_DIR: data, BLOG_FEED_URL: feedUrl };
  delete env.DATABASE_URL;
  const server = track(spawn(path.join(repo, 'target/release/api'), ['serve'], { env, stdio: ['ignore', log, log] }));
  await waitFor(`http://127.0.0.1:${port}/`);
  return { port, stop: () => server.kill() };
}

/**
 * nginx with the shipped site configuration on `httpsPort`, in front of the server on
 * `instancePort`, started as the deployment test starts it. Its directory is outside WORK, which
 * is private to root: nginx's workers must reach their temp paths.
 */
async function startNginx(httpsPort, instancePort) {
  const stack = await import(pathToFileURL(path.join(repo, 'tests/deploy/stack.mjs')).href);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'site-bench-nginx-'));
  chmodSync(dir, 0o755);
  const { nginx } = await stack.startNginx(dir, { httpPort: await freePort(), httpsPort, instancePorts: [instancePort] });
  track(nginx);
  return {
    stop: () => {
      nginx.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The two ways the pages are served: our server alone, and the deployment in front of it. */
const SERVINGS = [
  {
    name: 'alone',
    label: '',
    async start() {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      // The feed names images on the site itself, as the page's CSP requires ('self' or https).
      const feed = await startFeed(origin);
      const api = await startApi('alone', port, feed.url);
      return { origin, stop: () => (api.stop(), feed.server.close()) };
    },
  },
  {
    name: 'deployed',
    label: ' via nginx (TLS, HTTP/2)',
    async start() {
      const httpsPort = await freePort();
      // The deployment answers only its server name (localhost in the templated site): an IP
      // address sends no SNI, and the catch-all server rejects that handshake.
      const origin = `https://localhost:${httpsPort}`;
      const feed = await startFeed(origin);
      const api = await startApi('deployed', await freePort(), feed.url);
      const nginx = await startNginx(httpsPort, api.port);
      return { origin, stop: () => (nginx.stop(), api.stop(), feed.server.close()) };
    },
  },
];

async function measure(serving) {
  const { origin, stop } = await serving.start();
  try {
    for (const [kind, route] of PAGES) {
      const runs = [];
      for (let n = 0; n < RUNS; n++) {
        runs.push(await audit(`${origin}${route}`, path.join(work, `lighthouse-${serving.name}-${kind}-${n}.json`)));
      }
      const m = Object.fromEntries(
        ['performance', 'accessibility', 'bestPractices', 'seo', 'fcp', 'lcp'].map((k) => [k, median(runs.map((r) => r[k]))]),
      );
      const others = `accessibility ${m.accessibility}, best practices ${m.bestPractices}, SEO ${m.seo}`;
      const paints = `FCP ${m.fcp.toFixed(2)} s, LCP ${m.lcp.toFixed(2)} s (${runs[0].lcpElement || 'no element'})`;
      console.log(
        `  ${kind} ${route}${serving.label}: performance ${m.performance} (runs ${runs.map((r) => r.performance).join(', ')}); ${others}; ${paints}`,
      );
      const row = (r) => appendFileSync(results, JSON.stringify({ group: GROUP, ...r }) + '\n');
      row({
        row: `${kind} ${route}${serving.label}: performance score`,
        ours: m.performance,
        anchor: 100,
        unit: 'score',
        higher_is_better: true,
        goal: 1.0,
        detail: `${others}; Lighthouse ${runs[0].version}, median of ${RUNS}`,
      });
      row({
        row: `${kind} ${route}${serving.label}: First Contentful Paint`,
        ours: m.fcp,
        anchor: FCP_GOAL_S,
        unit: 's',
        higher_is_better: false,
        goal: 1.0,
        detail: `anchor: the 1.0 s goal; LCP ${m.lcp.toFixed(2)} s`,
      });
    }
  } finally {
    stop();
  }
}

async function main() {
  for (const serving of SERVINGS) await measure(serving);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
