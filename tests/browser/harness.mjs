// Shared by the browser tests: a real api server over the built dist/, a headless Chromium, and
// pages that record every console error, page error and hydration warning.
import { spawn, execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

export const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const apiBinary = path.join(repoDir, 'target/debug/api');
// TEST_DIST_DIR points the tests at another build of the site (a scratch one while developing).
export const distDir = process.env.TEST_DIST_DIR ? path.resolve(process.env.TEST_DIST_DIR) : path.join(repoDir, 'dist');
export const CHROMIUM = '/usr/bin/chromium';

const run = promisify(execFile);

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url, child, output, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`api serve exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      const response = await fetch(url, { redirect: 'manual' });
      if (response.status > 0) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`api serve did not answer at ${url} within ${timeoutMs} ms:\n${output.join('')}`);
}

/**
 * Starts `target/debug/api serve` on a free port with DIST_DIR=dist and a fresh DATA_DIR.
 * `env` adds to (or overrides) the environment; `args` go after `serve` (`--dev`).
 */
export async function startServer({ env = {}, args = [] } = {}) {
  if (!existsSync(apiBinary)) throw new Error(`${apiBinary} is missing: run \`cargo build -p server\` first`);
  if (!existsSync(path.join(distDir, 'index.html'))) throw new Error(`${distDir}/index.html is missing: run \`make build\` first`);
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'site-test-data-'));
  const serverEnv = {
    ...process.env,
    PORT: String(port),
    DIST_DIR: distDir,
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite://${path.join(dataDir, 'site.db')}?mode=rwc`,
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
    ...env,
  };
  delete serverEnv.SMTP_URL;
  if (env.SMTP_URL) serverEnv.SMTP_URL = env.SMTP_URL;
  const child = spawn(apiBinary, ['serve', ...args], { cwd: repoDir, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(`${url}/`, child, output);
  } catch (err) {
    child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  return {
    url,
    dataDir,
    env: serverEnv,
    output: () => output.join(''),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
    /**
     * The 6-digit code in the newest mail in DATA_DIR/outbox addressed to `email`; with `except`,
     * waits for a newer mail than the one that brought that code (the API mails after answering).
     */
    latestCode(email, { except } = {}) {
      return latestCodeIn([path.join(dataDir, 'outbox')], email, { except });
    },
    /** A new invitation code: the last line `api invite create` prints. */
    async createInvite() {
      const { stdout } = await run(apiBinary, ['invite', 'create'], { cwd: repoDir, env: serverEnv });
      const lines = stdout.trim().split('\n');
      return lines[lines.length - 1].trim();
    },
  };
}

/**
 * The 6-digit code in the newest mail addressed to `email` in any of `outboxes` (several servers
 * may share the mailing); with `except`, waits for a newer code than that one.
 */
export async function latestCodeIn(outboxes, email, { except } = {}) {
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    const mails = [];
    for (const outbox of outboxes) {
      const files = existsSync(outbox) ? (await readdir(outbox)).filter((f) => f.endsWith('.eml')) : [];
      for (const f of files) mails.push({ text: await readFile(path.join(outbox, f), 'utf8'), name: f });
    }
    const addressed = mails
      .filter((m) => new RegExp(`^To:.*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(m.text))
      // Outbox names begin with when the message was written.
      .sort((a, b) => b.name.localeCompare(a.name));
    if (addressed.length > 0) {
      const body = decodeMail(addressed[0].text);
      const code = /\b(\d{6})\b/.exec(body);
      if (!code) throw new Error(`no 6-digit code in the mail to ${email}:\n${body}`);
      if (code[1] !== except) return code[1];
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${email} in ${outboxes.join(', ')}`);
}

/** Undoes quoted-printable and base64 bodies enough to find a code in them. */
function decodeMail(text) {
  const [, ...rest] = text.split(/\r?\n\r?\n/);
  let body = rest.join('\n\n');
  if (/Content-Transfer-Encoding:\s*base64/i.test(text)) {
    const decoded = body
      .split(/\r?\n\r?\n|--/)
      .map((part) => part.replace(/\s+/g, ''))
      .filter((part) => /^[A-Za-z0-9+/=]{16,}$/.test(part))
      .map((part) => Buffer.from(part, 'base64').toString('utf8'))
      .join('\n');
    body += `\n${decoded}`;
  }
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/** Headless Debian Chromium; `args` adds command-line switches. */
export async function launchBrowser({ args = [] } = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium); the tests never download a browser`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

const HYDRATION = /hydrat|did not match|server rendered|Minified React error #(418|423|425)/i;

/**
 * A new context and page at `url`. `width`: viewport width (height 900); `dark`: stored dark-mode
 * preference before the first load (null: none stored); `colorScheme`: the system's ('light' or
 * 'dark'); `welcome`: leave the first-visit overlay to appear (default:
 * marked seen, because the overlay is modal and makes the page inert); `javaScript`: false for a
 * JS-off visit; `storage`: more localStorage entries; `expectHttpErrors`: a RegExp of paths whose
 * 4xx/5xx answers the test expects (e.g. /^\/api\/denglu$/ for a wrong password).
 * `page.problems()` lists every console error, page error, hydration warning and failed response so far.
 */
/**
 * One server and one browser for the tests of a file (or of the `describe` it is called in):
 * started together before them, handed to `ready`, and stopped after them.
 */
export function useServerAndBrowser(ready) {
  let server;
  let browser;
  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    ready(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
}

export async function openPage(
  browser,
  url,
  {
    width = 1280,
    height = 900,
    dark = false,
    colorScheme = 'light',
    welcome = false,
    javaScript = true,
    storage = {},
    waitForHydration = true,
    expectHttpErrors = null,
  } = {},
) {
  const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: javaScript, locale: 'en-US', colorScheme });
  const initial = {
    ...(dark === null ? {} : { darkMode: dark ? 'true' : 'false' }),
    ...(welcome ? {} : { hasSeenWelcome: 'true' }),
    ...storage,
  };
  await context.addInitScript((entries) => {
    // Only on the first document of the test: later loads must see what the page itself stored.
    if (sessionStorage.getItem('__seeded')) return;
    sessionStorage.setItem('__seeded', '1');
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, initial);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    const text = message.text();
    // A failed load is reported below with its URL.
    if (text.startsWith('Failed to load resource')) return;
    if (message.type() === 'error' || HYDRATION.test(text)) problems.push(`console.${message.type()}: ${text}`);
  });
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    // Chromium asks for /favicon.ico on its own; the site declares no icon (the lead's templates).
    if (response.status() >= 400 && pathname !== '/favicon.ico' && !expectHttpErrors?.test(pathname))
      problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.problems = () => [...problems];
  page.closeContext = () => context.close();
  if (url) {
    await page.goto(url, { waitUntil: 'load' });
    if (javaScript && waitForHydration) await waitForIslands(page);
  }
  return page;
}

/** Resolves once every island on the page has hydrated (React attaches its fiber keys). */
export async function waitForIslands(page, timeout = 30000) {
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll('.island[data-island]')).every((el) =>
        Object.keys(el).some((key) => key.startsWith('__reactContainer')),
      ),
    null,
    { timeout },
  );
  // Browser state applies in the effects right after hydration.
  await nextFrames(page);
}

/**
 * Resolves once the page has come to rest: fonts loaded and every finite CSS animation and
 * transition (the fade-ins) finished. Works with JavaScript off too (no animation frames there).
 */
export async function waitForStillness(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** Resolves after the next two frames: what the page changed before has been laid out and painted. */
export async function nextFrames(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * From the next document the page loads on: records whether <html> was dark when <body> appeared,
 * that is at the first paint (read it with `darkAtFirstPaint`).
 */
export async function watchFirstPaint(page) {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      window.__darkWhenBodyAppeared = document.documentElement.classList.contains('dark-mode');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Whether the current document was dark at its first paint (after `watchFirstPaint`). */
export function darkAtFirstPaint(page) {
  return page.evaluate(() => window.__darkWhenBodyAppeared);
}

/**
 * Makes a member through the API as a visitor would (invitation, email code from the outbox,
 * registration) and returns its credentials.
 */
export async function createMember(server, { username = `user${Date.now() % 1e8}`, password = 'correct horse battery 9', email } = {}) {
  const address = email ?? `${username}@example.com`;
  const invitationCode = await server.createInvite();
  const post = (route, body) =>
    fetch(`${server.url}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const sent = await post('/api/send-email', { email: address, username, preferredLanguage: 'en' });
  if (!sent.ok) throw new Error(`send-email answered ${sent.status}: ${await sent.text()}`);
  const emailVerificationCode = await server.latestCode(address);
  const registered = await post('/api/register', { username, password, email: address, invitationCode, emailVerificationCode });
  if (!registered.ok) throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
  return { username, password, email: address };
}

/** Logs the page's browser context in (the session cookie lands in the context). */
export async function logIn(page, server, { username, password }) {
  const response = await page.context().request.post(`${server.url}/api/denglu`, { data: { username, password } });
  if (!response.ok()) throw new Error(`login answered ${response.status()}: ${await response.text()}`);
}

/** The serious and critical axe-core violations on the page, one line each. */
export async function axeViolations(page) {
  const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // CDP evaluation is not subject to the page's CSP, which forbids inline scripts.
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations);
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
