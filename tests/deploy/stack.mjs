// The deployment of docs/deploy.md on loopback: the shipped nginx site (deploy/nginx-site.conf)
// with a throwaway certificate in front of `api` instances that share one PostgreSQL (the cluster
// of scripts/with-postgres.sh), and clients that speak HTTP/2 through it or HTTP/1.1 straight to
// an instance.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { apiBinary, distDir, freePort, latestCodeIn, repoDir } from '../browser/harness.mjs';
import { writeNginxConfig } from './nginx-config.mjs';

const run = promisify(execFile);
export const NGINX = '/usr/sbin/nginx';

/** Waits for `check` to return a truthy value, polling; fails with `what` after `timeoutMs`. */
export async function waitFor(what, check, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting until ${what}${last ? `: ${last.message}` : ''}`);
}

/** One `api serve` on 127.0.0.1:`port` with its own data directory (its own mail outbox). */
export class Instance {
  constructor(name, port, dataDir, env) {
    Object.assign(this, { name, port, dataDir, env, output: [], url: `http://127.0.0.1:${port}` });
  }

  async start() {
    this.child = spawn(apiBinary, ['serve'], {
      cwd: repoDir,
      env: { ...this.env, LISTEN: `127.0.0.1:${this.port}`, DATA_DIR: this.dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child.stderr.on('data', (chunk) => this.output.push(chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    await waitFor(`${this.name} answers /api/health/live`, async () => {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited:\n${this.log()}`);
      return (await direct(this, 'GET', '/api/health/live')).status === 200;
    });
  }

  log() {
    return this.output.join('');
  }

  /** Sends `signal` and returns how the process ended. */
  async stop(signal = 'SIGTERM') {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** One request over HTTP/1.1 straight to an instance: { status, headers, text, json }. */
export function direct(instance, method, pathname, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${instance.url}${pathname}`,
      {
        method,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        agent: false,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(reply(res.statusCode, res.headers, Buffer.concat(chunks))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function reply(status, headers, bytes) {
  const text = bytes.toString('utf8');
  return {
    status,
    headers,
    text,
    json() {
      return JSON.parse(text);
    },
  };
}

/**
 * An HTTP/2 client of the site through nginx, from `localAddress` (127.0.0.x). Like a browser it
 * opens a new connection when nginx ends one (GOAWAY after keepalive_requests) and sends again
 * the requests nginx refused unprocessed (REFUSED_STREAM), which HTTP/2 says is safe.
 */
export class Client {
  constructor(origin, ca, localAddress = '127.0.0.1') {
    Object.assign(this, { origin, ca, localAddress });
    this.connect();
  }

  connect() {
    // The TLS server name a browser sends; without one nginx's catch-all refuses the handshake.
    const session = http2.connect(this.origin, { ca: this.ca, localAddress: this.localAddress, servername: 'localhost' });
    session.on('error', () => {});
    session.on('goaway', () => {
      if (this.session === session) this.connect();
    });
    this.connected = new Promise((resolve, reject) => {
      session.once('connect', resolve);
      session.once('error', reject);
    });
    this.connected.catch(() => {});
    this.session = session;
  }

  /** The protocol agreed by ALPN: `h2` when nginx speaks HTTP/2. */
  async protocol() {
    await this.connected;
    return this.session.alpnProtocol;
  }

  async request(method, pathname, options = {}) {
    for (let attempt = 1; ; attempt++) {
      if (this.session.closed || this.session.destroyed) this.connect();
      try {
        return await this.send(method, pathname, options);
      } catch (err) {
        const unprocessed = err.code === 'ERR_HTTP2_STREAM_ERROR' && /REFUSED_STREAM/.test(err.message);
        const ended = err.code === 'ERR_HTTP2_GOAWAY_SESSION' || err.code === 'ERR_HTTP2_INVALID_SESSION';
        if (!(unprocessed || ended) || attempt === 3) throw err;
      }
    }
  }

  send(method, pathname, { headers = {}, body } = {}) {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const stream = this.session.request({
        ':method': method,
        ':path': pathname,
        ...headers,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      });
      let status;
      let responseHeaders;
      const chunks = [];
      stream.on('response', (h) => {
        status = h[':status'];
        responseHeaders = Object.fromEntries(Object.entries(h).filter(([name]) => !name.startsWith(':')));
      });
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => resolve(reply(status, responseHeaders, Buffer.concat(chunks))));
      stream.on('error', reject);
      stream.end(payload);
    });
  }

  close() {
    this.session.close();
  }
}

/** The `session=...` pair of a response's Set-Cookie. */
export function sessionCookie(response) {
  const set = [response.headers['set-cookie'] ?? []].flat();
  // Over https the cookie is `__Host-session`, elsewhere `session`.
  const found = set.map((c) => c.split(';')[0]).find((pair) => /^(__Host-)?session=./.test(pair));
  if (!found) throw new Error(`no session cookie in ${JSON.stringify(set)}`);
  return found;
}

/**
 * nginx with the shipped site (`writeNginxConfig`, every path in `dir`, which its workers must be
 * able to reach) in front of the instances on `instancePorts`, once `nginx -t` accepts it.
 * Resolves when it answers `/api/health/live` over HTTPS; stopped again if it never does.
 */
export async function startNginx(dir, { httpPort, httpsPort, instancePorts }) {
  const { ca, nginxArgs } = await writeNginxConfig(dir, { httpPort, httpsPort, instancePorts });
  const checked = await run(NGINX, [...nginxArgs, '-t']).catch((err) => err);
  if (checked instanceof Error) throw new Error(`nginx -t rejects the site:\n${checked.stderr}`);
  const nginx = spawn(NGINX, nginxArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  const nginxOutput = [];
  nginx.stderr.on('data', (c) => nginxOutput.push(c.toString()));
  const origin = `https://127.0.0.1:${httpsPort}`;
  try {
    await waitFor('nginx answers on https', async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited: ${nginxOutput.join('')}`);
      const client = new Client(origin, ca);
      try {
        return (await client.request('GET', '/api/health/live')).status === 200;
      } finally {
        client.close();
      }
    });
  } catch (err) {
    nginx.kill();
    throw err;
  }
  return { nginx, ca, checked };
}

/**
 * Starts the stack: a fresh database in the with-postgres cluster, `instances` api processes
 * started at once on it (the first start of an empty database), nginx with the shipped site.
 */
export async function startStack({ instances = 2 } = {}) {
  for (const [what, ok] of [
    ['nginx (Debian: nginx-light; scripts/ensure-deps.sh test installs it)', existsSync(NGINX)],
    [`${apiBinary} (cargo build -p server)`, existsSync(apiBinary)],
    [`${distDir}/index.html (make site)`, existsSync(path.join(distDir, 'index.html'))],
    ['TEST_DATABASE_URL and TEST_PG_CTL (run under scripts/with-postgres.sh)', process.env.TEST_DATABASE_URL && process.env.TEST_PG_CTL],
  ]) {
    if (!ok) throw new Error(`the deployment test needs ${what}`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-deploy-'));
  // nginx's workers drop root's privileges and must reach their temp paths.
  await chmod(dir, 0o755);

  const database = `deploy_${Date.now()}_${process.pid}`;
  await run('psql', [process.env.TEST_DATABASE_URL, '-qc', `CREATE DATABASE ${database}`]);
  const databaseUrl = new URL(process.env.TEST_DATABASE_URL);
  databaseUrl.pathname = `/${database}`;

  const [httpPort, httpsPort, ...instancePorts] = await Promise.all(Array.from({ length: 2 + instances }, freePort));
  const origin = `https://127.0.0.1:${httpsPort}`;
  const env = {
    ...process.env,
    DIST_DIR: distDir,
    DATABASE_URL: databaseUrl.toString(),
    PUBLIC_URL: origin,
    TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
    // Instances with data directories of their own share one invitation key, as an operator's
    // must (deploy/api.env.example): a code made through one is valid on the other.
    INVITE_KEY: randomBytes(32).toString('hex'),
    // Real limits, doubled so that the sign-up mail and the reset mail to one address may come
    // within a minute.
    RATE_LIMIT_SCALE: '2',
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
  };
  delete env.SMTP_URL;
  delete env.PORT;
  const servers = instancePorts.map((port, i) => new Instance(`instance ${i + 1}`, port, path.join(dir, `data-${i + 1}`), env));
  await Promise.all(servers.map((s) => s.start()));

  const { nginx, ca, checked } = await startNginx(dir, { httpPort, httpsPort, instancePorts });

  return {
    dir,
    origin,
    ca,
    env,
    instances: servers,
    httpPort,
    nginxTest: checked,
    client(localAddress) {
      return new Client(origin, ca, localAddress);
    },
    /** The instance that answered each request nginx logged so far: `[{ client, uri, status, upstream }]`. */
    async accessLog() {
      const text = await readFile(path.join(dir, 'access.log'), 'utf8').catch(() => '');
      return text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [client, method, uri, status, ...upstream] = line.split(' ');
          return { client, method, uri, status: Number(status), upstream: upstream.join(' ') };
        });
    },
    latestCode(email, options) {
      return latestCodeIn(
        servers.map((s) => path.join(s.dataDir, 'outbox')),
        email,
        options,
      );
    },
    async api(...args) {
      const { stdout } = await run(apiBinary, args, { cwd: repoDir, env: { ...env, DATA_DIR: servers[0].dataDir } });
      return stdout;
    },
    async psql(sql) {
      const { stdout } = await run('psql', [databaseUrl.toString(), '-tAc', sql]);
      return stdout.trim();
    },
    pgCtl(...args) {
      return run(process.env.TEST_PG_CTL, args);
    },
    /** Stops everything; how each instance that was still running ended. */
    async stop() {
      nginx.kill('SIGQUIT');
      const running = servers.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
      const exits = await Promise.all(running.map((s) => s.stop('SIGTERM')));
      await new Promise((resolve) => (nginx.exitCode !== null ? resolve() : nginx.once('exit', resolve)));
      await rm(dir, { recursive: true, force: true });
      return exits;
    },
  };
}
