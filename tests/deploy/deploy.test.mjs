// The deployment of docs/deploy.md, run on loopback: nginx with the shipped site in front of two
// `api` instances sharing one PostgreSQL. Run it under scripts/with-postgres.sh (make test does):
//   scripts/with-postgres.sh node --test tests/deploy/deploy.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { apiBinary, distDir, freePort, latestCodeIn, repoDir } from '../browser/harness.mjs';
import { Instance, direct, sessionCookie, startStack, waitFor } from './stack.mjs';

const run = promisify(execFile);

const apiText = async (lang) => JSON.parse(await readFile(path.join(repoDir, `locales/${lang}/api.json`), 'utf8'));

function identity(tag) {
  const id = randomBytes(4).toString('hex');
  return { username: `${tag}_${id}`, email: `${tag}.${id}@example.test`, password: `pw-${id}-Secret!` };
}

let stack;
let client;

before(async () => {
  stack = await startStack();
  client = stack.client();
});

after(async () => {
  client?.close();
  if (!stack) return;
  const exits = await stack.stop();
  // SIGTERM is a clean stop for every instance still running.
  for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
});

/** Signs a member up through nginx as a visitor would, reading the code from whichever outbox has it. */
async function signUp(who) {
  const invitationCode = (await stack.api('invite', 'create')).trim().split('\n').pop().trim();
  const sent = await client.request('POST', '/api/send-email', {
    body: { email: who.email, username: who.username, preferredLanguage: 'en' },
  });
  assert.equal(sent.status, 200, sent.text);
  const emailVerificationCode = await stack.latestCode(who.email);
  const registered = await client.request('POST', '/api/register', {
    body: { username: who.username, password: who.password, email: who.email, invitationCode, emailVerificationCode },
  });
  assert.equal(registered.status, 200, registered.text);
  return emailVerificationCode;
}

async function logIn(who, via = client) {
  const login = await via.request('POST', '/api/denglu', { body: { username: who.username, password: who.password } });
  assert.equal(login.status, 200, login.text);
  return sessionCookie(login);
}

async function statusVia(via, cookie) {
  const response = await via.request('GET', '/api/denglu', { headers: { cookie } });
  assert.equal(response.status, 200, response.text);
  return response.json();
}

const statusDirect = async (instance, cookie) => {
  const response = await direct(instance, 'GET', '/api/denglu', { headers: { cookie } });
  assert.equal(response.status, 200, response.text);
  return response.json();
};

test('the shipped nginx site passes nginx -t and speaks HTTP/2 over TLS; both instances started together on the empty database', async () => {
  assert.match(stack.nginxTest.stderr, /syntax is ok/);
  assert.match(stack.nginxTest.stderr, /test is successful/);
  assert.equal(await client.protocol(), 'h2');
  for (const instance of stack.instances) {
    const health = await direct(instance, 'GET', '/api/health');
    assert.equal(health.status, 200, health.text);
    assert.doesNotMatch(instance.log(), /ERROR|panicked/);
  }
  // Every migration applied, each once, although both instances started on the empty database.
  assert.equal(await stack.psql('SELECT count(*) > 0 AND count(*) = count(DISTINCT version) FROM seaql_migrations'), 't');
  const health = await client.request('GET', '/api/health');
  assert.deepEqual([health.status, health.json()], [200, { status: 'ok' }]);
  // Plain HTTP only redirects to https.
  const plain = await fetch(`http://127.0.0.1:${stack.httpPort}/notes?x=1`, { redirect: 'manual' });
  assert.equal(plain.status, 301);
  assert.equal(plain.headers.get('location'), 'https://127.0.0.1/notes?x=1');
});

test('sign-up, login, status, logout and password reset through nginx; a session holds on both instances and ends on both', async () => {
  const who = identity('deploy');
  const signUpCode = await signUp(who);
  const cookie = await logIn(who);
  assert.deepEqual(await statusVia(client, cookie), { loggedIn: true, username: who.username });
  const [first, second] = stack.instances;
  for (const instance of stack.instances) {
    assert.deepEqual(await statusDirect(instance, cookie), { loggedIn: true, username: who.username }, instance.name);
  }
  // Cookies are Secure: PUBLIC_URL is https.
  const again = await client.request('POST', '/api/denglu', { body: { username: who.username, password: who.password } });
  assert.match([again.headers['set-cookie']].flat()[0], /; Secure/);

  const out = await direct(first, 'GET', '/api/denglu?logout=true', { headers: { cookie } });
  assert.equal(out.status, 200, out.text);
  assert.deepEqual(await statusDirect(second, cookie), { loggedIn: false });
  assert.deepEqual(await statusVia(client, cookie), { loggedIn: false });

  const sent = await client.request('POST', '/api/send-verify-code', {
    body: { username: who.username, email: who.email, preferredLanguage: 'en' },
  });
  assert.equal(sent.status, 200, sent.text);
  const code = await stack.latestCode(who.email, { except: signUpCode });
  const verified = await client.request('POST', '/api/verify-code', { body: { username: who.username, email: who.email, code } });
  assert.equal(verified.status, 200, verified.text);
  const newPassword = `${who.password}-new`;
  const reset = await client.request('POST', '/api/reset-password', {
    headers: { authorization: `Bearer ${verified.json().token}` },
    body: { username: who.username, newPassword },
  });
  assert.equal(reset.status, 200, reset.text);
  const old = await client.request('POST', '/api/denglu', { body: { username: who.username, password: who.password } });
  assert.equal(old.status, 401, old.text);
  await logIn({ ...who, password: newPassword });
});

/** The headers a client sees, less those that belong to the connection rather than the response. */
function responseHeaders(headers) {
  const hop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'server', 'content-length']);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hop.has(name)));
}

test('responses through nginx carry the same status and headers as the instance alone', async () => {
  const manifest = JSON.parse(await readFile(path.join(distDir, 'assets/manifest.json'), 'utf8'));
  const cases = [
    ['/', { 'accept-encoding': 'br, gzip' }],
    ['/', { 'accept-language': 'ja,en;q=0.5', 'accept-encoding': 'gzip' }],
    ['/zh/', {}],
    ['/no-such-page', { 'accept-language': 'zh-TW' }],
    [manifest.entry, { 'accept-encoding': 'br' }],
    ['/api/denglu', { 'accept-language': 'ja' }],
    ['/api/health/live', {}],
  ];
  for (const [pathname, headers] of cases) {
    const proxied = await client.request('GET', pathname, { headers });
    const alone = await direct(stack.instances[0], 'GET', pathname, { headers });
    const what = `${pathname} ${JSON.stringify(headers)}`;
    assert.equal(proxied.status, alone.status, what);
    assert.deepEqual(responseHeaders(proxied.headers), responseHeaders(alone.headers), what);
    assert.equal(proxied.text.length, alone.text.length, what);
  }
  const page = await client.request('GET', '/zh/');
  assert.match(page.headers['content-security-policy'], /default-src 'self'/);
  assert.equal(page.headers['content-language'], 'zh-Hant');
  assert.match(page.headers.vary, /Accept-Encoding/);
  assert.equal(page.headers['cache-control'], 'no-cache');
  const asset = await client.request('GET', manifest.entry);
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
});

test('killing an instance in the middle of a load run loses no idempotent request', async () => {
  const [, victim] = stack.instances;
  const total = 2000;
  const paths = ['/', '/api/denglu'];
  const statuses = new Map();
  let done = 0;
  let next = 0;
  let killed;
  const worker = async () => {
    while (next < total) {
      const pathname = paths[next++ % paths.length];
      const response = await client.request('GET', pathname);
      const key = `${pathname} ${response.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (++done === total / 4) killed = victim.stop('SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  assert.deepEqual((await killed).signal, 'SIGKILL');
  assert.deepEqual(Object.fromEntries(statuses), { '/ 200': total / 2, '/api/denglu 200': total / 2 });
  const log = await stack.accessLog();
  assert.ok(
    log.some((entry) => entry.upstream.includes(`127.0.0.1:${victim.port}`)) && log.some((entry) => entry.upstream.includes(',')),
    'both instances served, and requests the killed one failed were passed to the other',
  );
  await victim.start();
});

test('while PostgreSQL is stopped the API answers a translated 503 with Retry-After, pages still load, and it recovers without a restart', async () => {
  const who = identity('outage');
  await signUp(who);
  const cookie = await logIn(who);
  const ja = (await apiText('ja')).errors.databaseUnavailable;
  const pages = [];
  let outage = true;
  // Pages keep loading all through the outage.
  const pageLoad = (async () => {
    while (outage) pages.push((await client.request('GET', '/')).status);
  })();

  await stack.pgCtl('stop', '-m', 'fast');
  try {
    const down = await waitFor('the API reports the database down', async () => {
      const response = await client.request('GET', '/api/denglu', { headers: { cookie, 'accept-language': 'ja' } });
      return response.status === 503 && response;
    });
    assert.equal(down.json().message, ja);
    assert.ok(Number(down.headers['retry-after']) > 0, JSON.stringify(down.headers));
    const login = await client.request('POST', '/api/denglu', { body: { username: who.username, password: who.password } });
    assert.equal(login.status, 503, login.text);
    const health = await client.request('GET', '/api/health');
    assert.equal(health.status, 503, health.text);
    assert.deepEqual(health.json(), { status: 'unavailable' }, 'only a status to the public');
    assert.equal((await client.request('GET', '/api/health/live')).status, 200);
  } finally {
    await stack.pgCtl('start');
  }
  await waitFor('the API serves again', async () => (await statusVia(client, cookie)).loggedIn);
  outage = false;
  await pageLoad;
  assert.ok(pages.length > 0 && pages.every((s) => s === 200), JSON.stringify(pages));
  // Nothing was lost, and every instance recovered by itself.
  for (const instance of stack.instances) {
    await waitFor(`${instance.name} serves again`, async () => (await direct(instance, 'GET', '/api/health')).status === 200);
    assert.deepEqual(await statusDirect(instance, cookie), { loggedIn: true, username: who.username }, instance.name);
  }
  await logIn(who);
  assert.match(await stack.api('members', 'list'), new RegExp(who.username));
  // The outage shows in the metrics an instance serves on loopback.
  const unavailable = await Promise.all(
    stack.instances.map(async (instance) => {
      const scraped = await direct(instance, 'GET', '/metrics');
      assert.equal(scraped.status, 200, scraped.text);
      return Number(/^site_database_unavailable_total (\d+)/m.exec(scraped.text)?.[1] ?? 0);
    }),
  );
  assert.ok(
    unavailable.some((count) => count > 0),
    JSON.stringify(unavailable),
  );
});

test('per-client limits through nginx: clients are told apart by the address nginx adds, and one limit holds on both instances', async () => {
  const [first, second] = [stack.client('127.0.0.2'), stack.client('127.0.0.3')];
  const failedLogin = (via, headers = {}) =>
    via.request('POST', '/api/denglu', {
      headers,
      // A new name each time: only the per-client limit applies, never the per-username one.
      body: { username: `nobody_${randomBytes(4).toString('hex')}`, password: 'not the password' },
    });
  try {
    let allowed = 0;
    for (;;) {
      const response = await failedLogin(first);
      if (response.status === 429) break;
      assert.equal(response.status, 401, response.text);
      assert.ok(++allowed < 500, 'the per-client limit of failed logins never came');
    }
    assert.ok(allowed > 1, `only ${allowed} failed login allowed before the limit`);
    const other = await failedLogin(second);
    assert.equal(other.status, 401, `another client shares the first one's limit: ${other.text}`);
    // More attempts land on both instances, and both refuse them; a forged X-Forwarded-For does
    // not help, since nginx appends the address it sees.
    for (const headers of [{}, {}, { 'x-forwarded-for': '203.0.113.9' }, {}]) {
      const refused = await failedLogin(first, headers);
      assert.equal(refused.status, 429, refused.text);
      assert.ok(Number(refused.headers['retry-after']) > 0);
    }
    // Each instance, asked directly as the proxy would ask it for that client, refuses too: the
    // count lives in the shared database, not in one instance.
    for (const instance of stack.instances) {
      const refused = await direct(instance, 'POST', '/api/denglu', {
        headers: { 'x-forwarded-for': '127.0.0.2', origin: stack.origin },
        body: { username: `nobody_${randomBytes(4).toString('hex')}`, password: 'not the password' },
      });
      assert.equal(refused.status, 429, `${instance.url}: ${refused.text}`);
    }
  } finally {
    first.close();
    second.close();
  }
});

test('HSTS on https through nginx, as the instance sends it with an https PUBLIC_URL', async () => {
  const page = await client.request('GET', '/');
  assert.match(page.headers['strict-transport-security'] ?? '', /max-age=\d+/);
  const alone = await direct(stack.instances[0], 'GET', '/');
  assert.equal(page.headers['strict-transport-security'], alone.headers['strict-transport-security']);
});

test('the daily backup of the shared PostgreSQL keeps its retention and restores on a fresh host: members sign in, sessions hold, unused invitations work', async () => {
  const who = identity('backup');
  await signUp(who);
  const cookie = await logIn(who);
  const unused = (await stack.api('invite', 'create')).trim().split('\n').pop().trim();
  const backups = path.join(stack.dir, 'backups');
  await mkdir(backups);
  // Three old backups and one from yesterday: with 14 days kept but never fewer than the newest 3,
  // the two of 2019 go and the one of 2020 stays.
  const old = ['site-20190101T031500Z', 'site-20190102T031500Z', 'site-20200101T031500Z'];
  const yesterday = `site-${new Date(Date.now() - 86400000).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
  for (const name of [...old, yesterday]) await mkdir(path.join(backups, name));
  const { stdout } = await run(path.join(repoDir, 'deploy/backup.sh'), [], {
    env: {
      ...stack.env,
      API: apiBinary,
      DATA_DIR: stack.instances[0].dataDir,
      BACKUP_DIR: backups,
      BACKUP_KEEP_DAYS: '14',
      BACKUP_KEEP_MIN: '3',
    },
  });
  const kept = (await readdir(backups)).sort();
  const made = kept.filter((name) => ![...old, yesterday].includes(name));
  assert.equal(made.length, 1, `${kept} after:\n${stdout}`);
  assert.deepEqual(kept, ['site-20200101T031500Z', yesterday, made[0]].sort(), stdout);
  const backup = path.join(backups, made[0]);
  assert.deepEqual((await readdir(backup)).sort(), ['database.pgdump', 'invite.key', 'manifest.json', 'settings.env']);

  // A new host: an empty database, an empty data directory, and no INVITE_KEY in its settings.
  const database = `restored_${Date.now()}`;
  await run('psql', [process.env.TEST_DATABASE_URL, '-qc', `CREATE DATABASE ${database}`]);
  const restoredUrl = new URL(process.env.TEST_DATABASE_URL);
  restoredUrl.pathname = `/${database}`;
  const dataDir = path.join(stack.dir, 'restored-data');
  const env = { ...stack.env, DATABASE_URL: restoredUrl.toString() };
  delete env.INVITE_KEY;
  await run(apiBinary, ['restore', backup], { env: { ...env, DATA_DIR: dataDir } });
  const port = await freePort();
  const restored = new Instance('restored instance', port, dataDir, env);
  await restored.start();
  try {
    const post = (pathname, body) => direct(restored, 'POST', pathname, { headers: { origin: stack.origin }, body });
    assert.deepEqual(await statusDirect(restored, cookie), { loggedIn: true, username: who.username });
    const login = await post('/api/denglu', { username: who.username, password: who.password });
    assert.equal(login.status, 200, login.text);
    const newcomer = identity('restored');
    const sent = await post('/api/send-email', { email: newcomer.email, username: newcomer.username, preferredLanguage: 'en' });
    assert.equal(sent.status, 200, sent.text);
    const emailVerificationCode = await latestCodeIn([path.join(dataDir, 'outbox')], newcomer.email);
    const registered = await post('/api/register', { ...newcomer, invitationCode: unused, emailVerificationCode });
    assert.equal(registered.status, 200, registered.text);
  } finally {
    assert.deepEqual(await restored.stop(), { code: 0, signal: null });
  }
});

/**
 * A second build of the site for the upgrade test, made from this one: the entry script under
 * another hashed name, as a real new build's would be, named by every page and the manifest
 * (their compressed copies made again). Returns the two entries' paths.
 */
async function markedBuild(copy) {
  // Hard links: only the files changed below are new, and each is replaced, never written through.
  await run('cp', ['-al', distDir, copy]);
  const replace = async (file, bytes) => {
    await writeFile(`${file}.new`, bytes);
    await rename(`${file}.new`, file);
  };
  const manifest = JSON.parse(await readFile(path.join(copy, 'assets/manifest.json'), 'utf8'));
  const [oldEntry, newEntry] = [manifest.entry, '/assets/entry-RELEASEB.js'];
  for (const suffix of ['', '.gz', '.br']) {
    await rename(path.join(copy, oldEntry + suffix), path.join(copy, newEntry + suffix)).catch((err) => {
      if (suffix === '' || err.code !== 'ENOENT') throw err;
    });
  }
  for (const file of await readdir(copy, { recursive: true })) {
    if (!/\.(html|json)$/.test(file)) continue;
    const full = path.join(copy, file);
    const text = await readFile(full, 'utf8');
    if (!text.includes(oldEntry)) continue;
    const changed = text.replaceAll(oldEntry, newEntry);
    await replace(full, changed);
    await replace(`${full}.gz`, zlib.gzipSync(changed));
    await replace(`${full}.br`, zlib.brotliCompressSync(changed, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
  }
  return { oldEntry, newEntry };
}

/**
 * Page and login traffic through nginx until `running()` turns false: each page is fetched with
 * every asset it names, as a browser would. Returns what did not answer 200 and what was seen.
 */
async function steadyTraffic(via, who, running) {
  const failures = [];
  const entries = new Set();
  const counts = { pages: 0, assets: 0, logins: 0 };
  const get = async (pathname, kind) => {
    const response = await via.request('GET', pathname).catch((err) => ({ status: err.code ?? err.message, text: '' }));
    counts[kind]++;
    if (response.status !== 200) failures.push(`${new Date().toISOString()} GET ${pathname} ${response.status}`);
    return response;
  };
  const pages = ['/', '/zh/', '/ja/', '/login', '/notes', '/ja/register'];
  const pageWorker = async (start) => {
    for (let i = start; running(); i++) {
      const page = await get(pages[i % pages.length], 'pages');
      const named = new Set(page.text.match(/\/assets\/[\w.-]+\.\w+/g) ?? []);
      for (const asset of named) {
        if (/\/entry-/.test(asset) && asset.endsWith('.js')) entries.add(asset);
        await get(asset, 'assets');
      }
    }
  };
  const loginWorker = async () => {
    while (running()) {
      const login = await via
        .request('POST', '/api/denglu', { body: { username: who.username, password: who.password } })
        .catch((err) => ({ status: err.code ?? err.message, text: '' }));
      counts.logins++;
      if (login.status !== 200) failures.push(`${new Date().toISOString()} POST /api/denglu ${login.status}`);
      // A member signs in now and then, not in a loop: the shipped site's limit_req allows one
      // address 10 writes a second to /api/ (bursts of 50), and answers more with 429.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  };
  await Promise.all([pageWorker(0), pageWorker(3), loginWorker()]);
  return { failures, entries, counts };
}

test('an upgrade and a rollback from release archives, instance by instance, fail no request and leave no page without its assets', async (t) => {
  const who = identity('upgrade');
  await signUp(who);
  const cookie = await logIn(who);
  // The logins of the traffic are another member's: each login is a new session, and a member
  // keeps at most 20 (README, "Security"), so they would end the session this test follows.
  const busy = identity('upgrade_busy');
  await signUp(busy);
  const work = path.join(stack.dir, 'upgrade');
  const siteRoot = path.join(work, 'site');
  const runDir = path.join(work, 'run');
  await mkdir(runDir, { recursive: true });
  const ports = stack.instances.map((instance) => instance.port);
  const release = async (version, dist) => {
    const { stdout } = await run(path.join(repoDir, 'deploy/build-release.sh'), [], {
      env: { ...process.env, VERSION: version, API_BIN: apiBinary, DIST: dist, OUT_DIR: work, GZIP_LEVEL: '1' },
    });
    return stdout.trim();
  };
  const archiveA = await release('test-a', distDir);
  const { oldEntry, newEntry } = await markedBuild(path.join(work, 'dist-b'));
  const archiveB = await release('test-b', path.join(work, 'dist-b'));
  assert.deepEqual([archiveA, archiveB], [path.join(work, 'site-test-a.tar.gz'), path.join(work, 'site-test-b.tar.gz')]);

  const upgrade = (...args) =>
    run(path.join(repoDir, 'deploy/upgrade.sh'), args, {
      env: {
        ...stack.env,
        // As api.env does on a host: the release that `current` names.
        DIST_DIR: path.join(siteRoot, 'current/dist'),
        SITE_CONFIG: path.join(siteRoot, 'current/site-config.yaml'),
        DATA_DIR: stack.instances[0].dataDir,
        SITE_ROOT: siteRoot,
        RUN_DIR: runDir,
        INSTANCES: ports.join(' '),
        SYSTEMCTL: path.join(repoDir, 'tests/deploy/fake-systemctl.sh'),
        // The test's nginx reads its aliases from the repository's dist/, not from `current`.
        NGINX_RELOAD: 'true',
      },
    });
  // The instances the stack started give way to ones run from the first archive.
  await Promise.all(stack.instances.map((instance) => instance.stop()));
  await upgrade('install', archiveA);
  const traffic = stack.client('127.0.0.4');
  try {
    await waitFor('nginx serves the first release', async () => (await traffic.request('GET', '/')).text.includes(oldEntry));
    let running = true;
    const load = steadyTraffic(traffic, busy, () => running);
    try {
      const upgraded = await upgrade('install', archiveB);
      assert.match(upgraded.stderr, /every instance runs site-test-b/);
      assert.ok((await traffic.request('GET', '/')).text.includes(newEntry), 'the new release serves its pages');
      const rolledBack = await upgrade('rollback');
      assert.match(rolledBack.stderr, /every instance runs site-test-a/);
    } finally {
      running = false;
    }
    const { failures, entries, counts } = await load;
    assert.deepEqual(failures, [], JSON.stringify(counts));
    t.diagnostic(`answered during the upgrade and the rollback: ${JSON.stringify(counts)}`);
    // Pages of both releases were served while the load ran, and every asset they named answered.
    assert.deepEqual([...entries].sort(), [oldEntry, newEntry].sort());
    assert.ok(counts.logins > 0 && counts.assets > counts.pages, JSON.stringify(counts));
    assert.ok((await traffic.request('GET', '/')).text.includes(oldEntry), 'the rollback serves the first release again');
    // The member's session from before the upgrade holds, and new logins work.
    assert.deepEqual(await statusVia(traffic, cookie), { loggedIn: true, username: who.username });
    await logIn(who, traffic);
  } finally {
    traffic.close();
    const stop = path.join(repoDir, 'tests/deploy/fake-systemctl.sh');
    await Promise.all(
      ports.map((port) => run(stop, ['stop', `api@${port}`], { env: { ...process.env, RUN_DIR: runDir, SITE_ROOT: siteRoot } })),
    );
  }
});
