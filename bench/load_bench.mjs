// Step 5: a bounded run of mixed traffic against one server: every prerendered page, the UI's
// assets and GET /api/denglu, over 32 keep-alive connections, until CAP_REQUESTS requests or
// CAP_SECONDS have passed. Prints one JSON line: requests, ok, errors, seconds.
//   node load_bench.mjs http://127.0.0.1:PORT DIST_DIR
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const [base, dist] = process.argv.slice(2);
const CAP_REQUESTS = 100000;
const CAP_SECONDS = 30;
const CONNECTIONS = 32;

function pagePaths(dir, prefix = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !['assets', 'locales', 'images'].includes(e.name))
      out.push(...pagePaths(path.join(dir, e.name), `${prefix}/${e.name}`));
    else if (e.name === 'index.html') out.push(prefix || '/');
  }
  return out;
}
const pages = pagePaths(dist);
const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'assets/manifest.json'), 'utf8'));
const assets = [manifest.entry, ...manifest.css, ...new Set(Object.values(manifest.islands).flat())];
// Six page views, two asset fetches and two API calls in every ten requests.
const mix = (i) => {
  const k = i % 10;
  if (k < 6) return pages[(i * 7) % pages.length];
  if (k < 8) return assets[(i * 3) % assets.length];
  return '/api/denglu';
};

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const encodings = ['gzip', 'br', 'gzip, deflate, br', 'identity'];
let next = 0,
  ok = 0,
  errors = 0;
const samples = [];
const started = performance.now();
const deadline = started + CAP_SECONDS * 1000;

function once(i) {
  return new Promise((resolve) => {
    const p = mix(i);
    const req = http.get(`${base}${p}`, { agent, headers: { 'Accept-Encoding': encodings[i % 4] } }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) ok++;
        else {
          errors++;
          if (samples.length < 5) samples.push(`${p}: ${res.statusCode}`);
        }
        resolve();
      });
    });
    req.on('error', (e) => {
      errors++;
      if (samples.length < 5) samples.push(`${p}: ${e.message}`);
      resolve();
    });
  });
}

async function worker() {
  while (next < CAP_REQUESTS && performance.now() < deadline) await once(next++);
}
await Promise.all(Array.from({ length: CONNECTIONS }, worker));
const seconds = (performance.now() - started) / 1000;
agent.destroy();
console.log(
  JSON.stringify({
    requests: next,
    ok,
    errors,
    seconds,
    cap_requests: CAP_REQUESTS,
    cap_seconds: CAP_SECONDS,
    pages: pages.length,
    error_samples: samples,
  }),
);
