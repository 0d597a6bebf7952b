// nginx answers the pages' old URLs itself: deploy/nginx-site.conf, templated as the deployment
// test does, includes the aliases' file the generator writes into dist/ (here the fixture site's,
// which `cargo test -p generator --test site_build` holds byte for byte to what `site build`
// writes). No instance runs behind it: a path that is not an alias goes on to the upstream and
// fails there, which shows nginx answered the aliases alone.
//   node --test tests/deploy/aliases.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
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

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aliases-nginx-'));
  // nginx's workers drop root's privileges and must reach their temp paths.
  await chmod(dir, 0o755);
  const [httpPort, instancePort] = [await freePort(), await freePort()];
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

test('a path that is not an alias goes on to the instances', async () => {
  const { status } = await get('/notes/first-try-not');
  assert.equal(status, 502, 'no instance runs in this test');
});
