// `site publish` against a local S3-compatible server: moto in server mode (PyPI's
// `moto[server]`, installed by `scripts/ensure-deps.sh test`) on a free loopback port, with a
// versioned bucket so every upload leaves a version to count. The dist published is the fixture
// site's golden build plus a UI chunk and a precompressed sibling, as a real build has.
//   node --test tests/deploy/publish.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, repoDir } from '../browser/harness.mjs';
import { waitFor } from './stack.mjs';

const run = promisify(execFile);
const siteBinary = path.join(repoDir, 'target/debug/site');
const fixtureDist = path.join(repoDir, 'generator/tests/fixtures/site-expected');
const BUCKET = 'site-pages';
const PREFIX = 'www';
const CHUNK = 'assets/chunk-ABCD2345.js';
let dir;
let dist;
let moto;
let endpoint;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'publish-'));
  dist = path.join(dir, 'dist');
  await cp(fixtureDist, dist, { recursive: true });
  await writeFile(path.join(dist, CHUNK), 'export const answer = 42;\n');
  await writeFile(path.join(dist, 'index.html.gz'), 'not a page of its own');
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  moto = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitFor('moto answers', async () => (await fetch(`${endpoint}/moto-api/`)).ok);
  assert.equal((await fetch(`${endpoint}/${BUCKET}`, { method: 'PUT' })).status, 200);
  const versioning =
    '<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>Enabled</Status></VersioningConfiguration>';
  assert.equal((await fetch(`${endpoint}/${BUCKET}?versioning`, { method: 'PUT', body: versioning })).status, 200);
  // Visitors read the bucket (or the CDN in front does), as on a bucket that serves a site.
  const policy = {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${BUCKET}/*` }],
  };
  assert.ok((await fetch(`${endpoint}/${BUCKET}?policy`, { method: 'PUT', body: JSON.stringify(policy) })).ok);
  // Not the site's: publishing into the prefix leaves it alone.
  assert.equal((await fetch(`${endpoint}/${BUCKET}/other/keep.txt`, { method: 'PUT', body: 'keep' })).status, 200);
});

after(async () => {
  moto?.kill('SIGTERM');
  if (moto && moto.exitCode === null) await new Promise((resolve) => moto.once('exit', resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `site publish` on `dist` with the settings `env` over the test's; its exit code and output. */
async function publish(env = {}) {
  const settings = {
    PUBLISH_BUCKET: BUCKET,
    PUBLISH_ENDPOINT: endpoint,
    PUBLISH_PREFIX: PREFIX,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    ...env,
  };
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...settings }).filter(([, v]) => v !== undefined));
  try {
    const { stdout, stderr } = await run(siteBinary, ['--out', dist, 'publish'], { env: clean, cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** The counts of the summary line: uploaded, deleted, unchanged. */
function summary(stdout) {
  const match = stdout.match(/: (\d+) uploaded, (\d+) deleted, (\d+) unchanged$/m);
  assert.ok(match, stdout);
  return { uploaded: Number(match[1]), deleted: Number(match[2]), unchanged: Number(match[3]) };
}

/** Every version moto holds, by key: how many uploads each key had, and whether it is deleted now. */
async function versions() {
  const xml = await (await fetch(`${endpoint}/${BUCKET}?versions`)).text();
  const byKey = new Map();
  for (const [, kind, body] of xml.matchAll(/<(Version|DeleteMarker)>([\s\S]*?)<\/\1>/g)) {
    const key = body.match(/<Key>(.*?)<\/Key>/)[1];
    const entry = byKey.get(key) ?? { uploads: 0, deleted: false };
    if (kind === 'Version') entry.uploads += 1;
    else if (/<IsLatest>true<\/IsLatest>/.test(body)) entry.deleted = true;
    byKey.set(key, entry);
  }
  return byKey;
}

const object = (file) => fetch(`${endpoint}/${BUCKET}/${PREFIX}/${file}`);

let hosted;

test('a first publish uploads every file a visitor can ask for, with its type, language and cache rule', async () => {
  const { code, stdout, stderr } = await publish();
  assert.equal(code, 0, stderr);
  hosted = stdout
    .split('\n')
    .filter((l) => l.startsWith('uploaded '))
    .map((l) => l.slice('uploaded '.length));
  assert.deepEqual(summary(stdout), { uploaded: hosted.length, deleted: 0, unchanged: 0 });
  assert.ok(hosted.length > 30, stdout);

  const searchIndex = hosted.find((f) => /^assets\/search-index-[0-9a-z]+\.json$/.test(f));
  assert.ok(searchIndex, stdout);
  const expect = [
    ['notes/first/index.html', 'text/html; charset=utf-8', 'public, max-age=0, must-revalidate', 'en'],
    ['zh/notes/first/index.html', 'text/html; charset=utf-8', 'public, max-age=0, must-revalidate', 'zh-Hant'],
    [CHUNK, 'text/javascript', 'public, max-age=31536000, immutable', null],
    [searchIndex, 'application/json', 'public, max-age=31536000, immutable', null],
    ['assets/search/en/v.json', 'application/json', 'public, max-age=0, must-revalidate', null],
  ];
  for (const [file, type, cache, language] of expect) {
    const response = await object(file);
    assert.equal(response.status, 200, file);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), await readFile(path.join(dist, file)), file);
    assert.equal(response.headers.get('content-type'), type, file);
    assert.equal(response.headers.get('cache-control'), cache, file);
    assert.equal(response.headers.get('content-language'), language, file);
  }
  // The build's records and the precompressed siblings stay out of the bucket.
  for (const file of ['_site.json', '_headers', '_redirects', '_aliases.nginx.conf', 'index.html.gz']) {
    assert.ok(!hosted.includes(file), file);
    assert.equal((await object(file)).status, 404, file);
  }
});

test('a second publish with nothing changed uploads nothing', async () => {
  const { code, stdout, stderr } = await publish();
  assert.equal(code, 0, stderr);
  assert.deepEqual(summary(stdout), { uploaded: 0, deleted: 0, unchanged: hosted.length });
  const held = await versions();
  for (const file of hosted) assert.equal(held.get(`${PREFIX}/${file}`)?.uploads, 1, file);
});

test('a changed file is uploaded and a removed one deleted, and nothing else', async () => {
  const page = path.join(dist, 'notes/first/index.html');
  await writeFile(page, (await readFile(page, 'utf8')).replace('</body>', '<p>edited</p></body>'));
  await unlink(path.join(dist, 'images/dot.svg'));
  const { code, stdout, stderr } = await publish();
  assert.equal(code, 0, stderr);
  assert.deepEqual(
    stdout.split('\n').filter((l) => /^(uploaded|deleted) /.test(l)),
    ['uploaded notes/first/index.html', 'deleted images/dot.svg'],
  );
  assert.deepEqual(summary(stdout), { uploaded: 1, deleted: 1, unchanged: hosted.length - 2 });
  const held = await versions();
  for (const file of hosted) {
    const expected = file === 'notes/first/index.html' ? 2 : 1;
    assert.equal(held.get(`${PREFIX}/${file}`).uploads, expected, file);
    assert.equal(held.get(`${PREFIX}/${file}`).deleted, file === 'images/dot.svg', file);
  }
  assert.match(await (await object('notes/first/index.html')).text(), /<p>edited<\/p>/);
  assert.equal((await object('images/dot.svg')).status, 404);
  assert.equal(await (await fetch(`${endpoint}/${BUCKET}/other/keep.txt`)).text(), 'keep', 'outside the prefix');
});

test('a missing setting, a wrong endpoint or a missing bucket fails with a message naming it', async () => {
  const missing = await publish({ PUBLISH_BUCKET: undefined });
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /PUBLISH_BUCKET is not set/);

  const nowhere = `http://127.0.0.1:${await freePort()}`;
  const refused = await publish({ PUBLISH_ENDPOINT: nowhere });
  assert.notEqual(refused.code, 0);
  assert.ok(refused.stderr.includes(`listing s3://${BUCKET}/${PREFIX} at ${nowhere}`), refused.stderr);

  const noBucket = await publish({ PUBLISH_BUCKET: 'no-such-bucket' });
  assert.notEqual(noBucket.code, 0);
  assert.ok(noBucket.stderr.includes('listing s3://no-such-bucket/'), noBucket.stderr);
  assert.match(noBucket.stderr, /NoSuchBucket|does not exist/, noBucket.stderr);
  const held = await versions();
  assert.equal(held.get(`${PREFIX}/notes/first/index.html`).uploads, 2, 'a failed publish changes nothing');
});
