// `make dev` in the browser: the watcher (`site watch --dev`) over a copy of the site's sources
// and the dev server (`api serve --dev`) over its output. Saving a page reloads the open page
// with the new text; a failed build shows its file, line and message over every open page (and
// pages opened meanwhile) until the next good build clears it; the terminal prints it once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { distDir, launchBrowser, openPage, repoDir, startServer } from './harness.mjs';

const siteBinary = path.join(repoDir, 'target/debug/site');
const NOTE = 'content/notes/liquidity-risk.en.md';

let work, root, out, watcher, watcherOutput, server, browser;

/** Resolves once the watcher has finished a build after `since` (its status file's count). */
async function buildAfter(since) {
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (watcher.exitCode !== null) throw new Error(`site watch exited:\n${watcherOutput.join('')}`);
    try {
      const status = JSON.parse(await readFile(path.join(out, '.dev-build.json'), 'utf8'));
      if (status.build > since) return status;
    } catch {
      // not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no build after ${since} within a minute:\n${watcherOutput.join('')}`);
}

before(async () => {
  if (!existsSync(siteBinary)) throw new Error(`${siteBinary} is missing: run \`make site\` first`);
  work = await mkdtemp(path.join(os.tmpdir(), 'site-dev-test-'));
  root = path.join(work, 'site');
  out = path.join(root, 'dist');
  for (const part of ['content', 'locales', 'static', 'site-config.yaml']) {
    await cp(path.join(repoDir, part), path.join(root, part), { recursive: true });
  }
  await symlink(path.join(repoDir, 'ui'), path.join(root, 'ui'));
  await cp(path.join(distDir, 'assets'), path.join(out, 'assets'), { recursive: true });
  watcherOutput = [];
  watcher = spawn(siteBinary, ['--templates', path.join(repoDir, 'generator/templates'), 'watch', '--dev'], {
    cwd: root,
    env: { ...process.env, TMPDIR: work },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  watcher.stdout.on('data', (chunk) => watcherOutput.push(chunk.toString()));
  watcher.stderr.on('data', (chunk) => watcherOutput.push(chunk.toString()));
  const first = await buildAfter(0);
  assert.equal(first.errors, null, JSON.stringify(first));
  server = await startServer({ env: { DIST_DIR: out }, args: ['--dev'] });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  watcher?.kill('SIGTERM');
  if (work) await rm(work, { recursive: true, force: true });
});

test('a saved page reloads; a failed build shows its errors over every open page until fixed', async () => {
  const page = await openPage(browser, `${server.url}/notes/liquidity-risk`);
  const original = await readFile(path.join(root, NOTE), 'utf8');
  let build = JSON.parse(await readFile(path.join(out, '.dev-build.json'), 'utf8')).build;

  // Saving the page: the open page reloads with the new text.
  const edited = `${original}\nA sentence written while the page was open.\n`;
  await writeFile(path.join(root, NOTE), edited);
  await page.waitForFunction(() => document.body.innerText.includes('A sentence written while the page was open.'));
  build = (await buildAfter(build)).build;

  // A broken link: the error, with its file and line, over the open page.
  const brokenLine = edited.split('\n').length + 1;
  await writeFile(path.join(root, NOTE), `${edited}\nSee [this](/no-such-page).\n`);
  const overlay = page.locator('#dev-build-errors');
  await overlay.waitFor({ state: 'visible' });
  const text = await overlay.innerText();
  assert.match(text, new RegExp(`content/notes/liquidity-risk\\.en\\.md:${brokenLine}`));
  assert.match(text, /no-such-page/);
  assert.equal(await overlay.getAttribute('role'), 'alert');
  build = (await buildAfter(build)).build;

  // A page opened while the build stays failed shows it too.
  const later = await openPage(browser, `${server.url}/zh/`);
  await later.locator('#dev-build-errors').waitFor({ state: 'visible' });
  assert.match(await later.locator('#dev-build-errors').innerText(), /no-such-page/);

  // Fixing it (back to the last good text, so no page changes) clears both overlays.
  await writeFile(path.join(root, NOTE), edited);
  await overlay.waitFor({ state: 'detached' });
  await later.locator('#dev-build-errors').waitFor({ state: 'detached' });
  assert.ok(await page.getByText('A sentence written while the page was open.').isVisible());

  const printed = watcherOutput.join('').split(`liquidity-risk.en.md:${brokenLine}:`).length - 1;
  assert.equal(printed, 1, `the terminal printed the error ${printed} times:\n${watcherOutput.join('')}`);
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(later.problems(), []);
  await page.closeContext();
  await later.closeContext();
});
