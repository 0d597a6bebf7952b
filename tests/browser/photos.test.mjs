// Photos at build time, in the browser, on a copy of the site's sources built by the debug
// generator with photos made here (Chromium encodes canvas gradients as JPEG; no binary photo sits
// in the repository): an article with a cover and a photo in its text, whose boxes have their
// size before the photos arrive and whose arrival shifts nothing, and the owner's portrait.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { distDir, launchBrowser, nextFrames, openPage, repoDir, startServer, waitForIslands, waitForStillness } from './harness.mjs';

const siteBinary = path.join(repoDir, 'target/debug/site');
const NOTE = 'content/notes/liquidity-risk.en.md';

let work, out, server, browser;

/** A `width` x `height` gradient JPEG, encoded by the browser's canvas. */
async function gradientJpeg(width, height) {
  const page = await browser.newPage();
  try {
    const dataUrl = await page.evaluate(
      ([w, h]) => {
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [w, h];
        const context = canvas.getContext('2d');
        const gradient = context.createLinearGradient(0, 0, w, h);
        gradient.addColorStop(0, '#1d4e89');
        gradient.addColorStop(1, '#f4a259');
        context.fillStyle = gradient;
        context.fillRect(0, 0, w, h);
        return canvas.toDataURL('image/jpeg', 0.9);
      },
      [width, height],
    );
    return Buffer.from(dataUrl.split(',')[1], 'base64');
  } finally {
    await page.close();
  }
}

before(async () => {
  if (!existsSync(siteBinary)) throw new Error(`${siteBinary} is missing: run \`make site\` first`);
  browser = await launchBrowser();
  work = await mkdtemp(path.join(os.tmpdir(), 'site-photos-test-'));
  const root = path.join(work, 'site');
  out = path.join(root, 'dist');
  for (const part of ['content', 'locales', 'static', 'site-config.yaml']) {
    await cp(path.join(repoDir, part), path.join(root, part), { recursive: true });
  }
  await symlink(path.join(repoDir, 'ui'), path.join(root, 'ui'));
  await mkdir(out, { recursive: true });
  await cp(path.join(distDir, 'assets'), path.join(out, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'static/images/harbour.jpg'), await gradientJpeg(2000, 1000));
  await writeFile(path.join(root, 'static/images/market.jpg'), await gradientJpeg(1200, 900));
  const note = await readFile(path.join(root, NOTE), 'utf8');
  const [, front, body] = note.split(/^---\n/m);
  const [first, ...rest] = body.trim().split('\n\n');
  await writeFile(
    path.join(root, NOTE),
    `---\n${front}cover: { src: /images/harbour.jpg, alt: A harbour at dawn }\n---\n\n${first}\n\n![A market stall](/images/market.jpg)\n\n${rest.join('\n\n')}\n`,
  );
  await writeFile(path.join(root, 'static/images/portrait.jpg'), await gradientJpeg(800, 800));
  const config = await readFile(path.join(root, 'site-config.yaml'), 'utf8');
  await writeFile(path.join(root, 'site-config.yaml'), config.replace(/^  image: .*$/m, '  image: /images/portrait.jpg'));
  await promisify(execFile)(siteBinary, ['--templates', path.join(repoDir, 'generator/templates'), 'build'], {
    cwd: root,
    env: { ...process.env, TMPDIR: work },
  });
  server = await startServer({ env: { DIST_DIR: out } });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

for (const width of [1280, 375]) {
  test(`photos keep their boxes while they load, at ${width}px`, async () => {
    const page = await openPage(browser, null, { width });
    try {
      await page.addInitScript(() => {
        window.__layoutShift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) window.__layoutShift += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // The photos are held back until their boxes have been measured.
      const held = [];
      let release;
      const released = new Promise((resolve) => (release = resolve));
      await page.route('**/assets/photos/**', async (route) => {
        held.push(route.request().url());
        await released;
        await route.continue();
      });
      await page.goto(`${server.url}/notes/liquidity-risk`, { waitUntil: 'domcontentloaded' });
      const photos = page.locator('.article picture img');
      assert.equal(await photos.count(), 2);
      const boxes = await photos.evaluateAll((imgs) =>
        imgs.map((img) => {
          const box = img.getBoundingClientRect();
          return { loaded: img.naturalWidth, width: box.width, height: box.height, ratio: img.width / img.height };
        }),
      );
      for (const box of boxes) {
        assert.equal(box.loaded, 0, 'the photo has not arrived yet');
        assert.ok(box.width > 100, `a box of ${box.width}px`);
        assert.ok(Math.abs(box.width / box.height - box.ratio) < 0.02, `the photo's shape before it loads: ${JSON.stringify(box)}`);
      }
      assert.deepEqual(await photos.evaluateAll((imgs) => imgs.map((img) => img.getAttribute('loading'))), ['eager', 'lazy']);
      // The cover is asked for at once (it may be only now that the request reaches the route).
      while (!held.some((url) => url.endsWith('.webp'))) await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      await photos.first().evaluate((img) => (img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve))));
      await photos.nth(1).scrollIntoViewIfNeeded();
      await photos.nth(1).evaluate((img) => (img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve))));
      assert.ok(
        (await photos.evaluateAll((imgs) => imgs.map((img) => img.naturalWidth))).every((w) => w > 0),
        'both photos loaded',
      );
      await waitForIslands(page);
      await waitForStillness(page);
      await nextFrames(page);
      assert.equal(await page.evaluate(() => window.__layoutShift), 0);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });
}

test('the portrait photo hydrates as the picture the server rendered', async () => {
  const page = await openPage(browser, `${server.url}/`);
  try {
    await waitForIslands(page);
    const portrait = page.locator('.profile-image picture img');
    await portrait.evaluate((img) => (img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve))));
    const shown = await portrait.evaluate((img) => ({
      src: img.currentSrc,
      width: img.naturalWidth,
      priority: img.getAttribute('fetchpriority'),
    }));
    assert.match(shown.src, /\/assets\/photos\/portrait-\d+-[0-9a-f]{10}\.webp$/);
    assert.ok(shown.width >= 224, `a ${shown.width}px wide file for a 224px box`);
    assert.equal(shown.priority, 'high');
    assert.deepEqual(page.problems(), []);
  } finally {
    await page.closeContext();
  }
});
