// nginx answers the pages' old URLs itself: deploy/nginx-site.conf, templated as the deployment
// test does, includes the aliases' file the generator writes into dist/ (here the fixture site's,
// which `cargo test -p generator --test site_build` holds byte for byte to what `site build`
// writes). No instance runs behind it: a path that is not an alias goes on to the upstream and
// fails there, which shows nginx answered the aliases alone. Its catch-all server block answers
// no other host name.
//   node --test tests/deploy/aliases.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { freePort, repoDir } from '../browser/harness.mjs';
import { writeNginxConfig } from './nginx-config.mjs';
import { NGINX, waitFor } from './stack.mjs';

const fixtureDist = path.join(repoDir, 'generator/tests/fixtures/site-expected');
let dir;
let nginx;
let ca;
let httpsPort;
let httpPort;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aliases-nginx-'));
  // nginx's workers drop root's privileges and must reach their temp paths.
  await chmod(dir, 0o755);
  const instancePort = await freePort();
  httpPort = await freePort();
  httpsPort = await freePort();
  const written = await writeNginxConfig(dir, { httpPort, httpsPort, instancePorts: [instancePort], distDir: fixtureDist });
  ca = written.ca;
  nginx = spawn(NGINX, written.nginxArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitFor('nginx answers', async () => (await get('/notes/first-try')).status === 301);
});

after(async () => {
  nginx?.kill('SIGTERM');
  if (nginx && nginx.exitCode === null) await new Promise((resolve) => nginx.once('exit', resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** GET `target` from nginx over TLS, redirects not followed. */
function get(target) {
  return new Promise((resolve, reject) => {
    const request = https.get({ host: '127.0.0.1', port: httpsPort, path: target, ca, servername: 'localhost' }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, location: response.headers.location }));
    });
    request.on('error', reject);
  });
}

test("nginx answers each alias with a permanent redirect to its page in the alias's language", async () => {
  for (const [alias, target] of [
    ['/notes/first-try', '/notes/first'],
    ['/notes/first-try/', '/notes/first'],
    ['/old-first', '/notes/first'],
    ['/zh/notes/first-try', '/zh/notes/first'],
    ['/ja/old-first/', '/ja/notes/first'],
  ]) {
    const { status, location } = await get(alias);
    assert.equal(status, 301, alias);
    assert.equal(new URL(location).pathname, target, alias);
  }
});

/**
 * A GET to nginx with the given TLS server name (none when '': as a client that connects to an
 * address) and Host header; its status, or the error's code when no answer came.
 */
function attempt({ tls = true, servername, host }) {
  const options = { host: '127.0.0.1', path: '/notes/first-try', headers: host ? { host } : {} };
  return new Promise((resolve) => {
    const request = tls
      ? https.get({ ...options, port: httpsPort, ca, servername, rejectUnauthorized: false })
      : http.get({ ...options, port: httpPort });
    request.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode });
    });
    request.on('error', (error) => resolve({ error: error.code, message: error.message }));
  });
}

test('nginx answers no other host name: no TLS handshake, and no answer on port 80', async () => {
  // The site, by its name in TLS and in Host, on both ports.
  assert.deepEqual(await attempt({ servername: 'localhost', host: 'localhost' }), { status: 301 });
  assert.deepEqual(await attempt({ tls: false, host: 'localhost' }), { status: 301 });
  // An address scan names no server; a wrong name is refused before any certificate is shown.
  for (const [servername, host] of [
    ['', '127.0.0.1'],
    ['other.example', 'localhost'],
  ]) {
    const { status, message } = await attempt({ servername, host });
    assert.equal(status, undefined, `TLS name ${servername}: ${status}`);
    assert.match(message, /unrecognized name/, `TLS name '${servername}'`);
  }
  // The site's name in TLS but another in Host, and another Host on port 80: closed unanswered.
  assert.equal((await attempt({ servername: 'localhost', host: 'other.example' })).error, 'ECONNRESET');
  assert.equal((await attempt({ tls: false, host: 'other.example' })).error, 'ECONNRESET');
  assert.equal((await attempt({ tls: false, host: '203.0.113.7' })).error, 'ECONNRESET');
});

test('a path that is not an alias goes on to the instances', async () => {
  const { status } = await get('/notes/first-try-not');
  assert.equal(status, 502, 'no instance runs in this test');
});
