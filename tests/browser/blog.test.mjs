// The articles page's blog list against a real server whose BLOG_FEED_URL is an RSS file served
// here on 127.0.0.1: loading message, recent posts, cards with the thumbnail rule, paging, and a
// failing feed that only clears the loading state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { launchBrowser, openPage, startServer, waitForIslands } from './harness.mjs';

const POSTS = 10;
/** The upstream answers this late, so the loading message is on screen long enough to see. */
const FEED_DELAY_MS = 1500;

/** A loopback port nothing listens on: an image host that cannot be reached. */
async function closedPort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The site the feed's images live on. The API drops image URLs relative to itself from a feed (a
 * relative URL there could point a visitor's browser at the API), so the feed names them in full.
 */
let siteOrigin = '';

function rss(unreachable) {
  const items = Array.from({ length: POSTS }, (_, i) => {
    const n = i + 1;
    const day = String(28 - i).padStart(2, '0');
    // Post 1: its own thumbnail; post 2: an image in its content; post 3: a thumbnail whose host
    // cannot be reached; the rest: neither.
    const thumbnail = { 1: `${siteOrigin}/images/web-app-architecture.svg`, 3: `https://127.0.0.1:${unreachable}/broken.png` }[n];
    const media = thumbnail ? `<media:thumbnail url="${thumbnail}" />` : '';
    const body =
      n === 2 ? `<p>intro</p><img src="${siteOrigin}/images/web-app-signup-flow.svg" alt="flow"><p>more</p>` : `<p>Body of post ${n}</p>`;
    return `<item>
  <title>Post number ${n}</title>
  <link>https://blog.example.test/post-${n}</link>
  <guid>post-${n}</guid>
  <dc:creator>Author ${n}</dc:creator>
  <pubDate>Tue, ${day} Oct 2025 08:00:00 GMT</pubDate>
  ${media}
  <content:encoded><![CDATA[${body}]]></content:encoded>
</item>`;
  }).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>Test blog</title><link>https://blog.example.test/</link><description>posts</description>
${items}
</channel></rss>`;
}

/** An upstream feed on a free loopback port: /feed.xml (slow, good) and /broken.xml (500). */
async function startFeedServer() {
  const hits = { good: 0, broken: 0 };
  const unreachable = await closedPort();
  const server = http.createServer((req, res) => {
    if (req.url === '/feed.xml') {
      hits.good += 1;
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/rss+xml; charset=utf-8' });
        res.end(rss(unreachable));
      }, FEED_DELAY_MS);
    } else {
      hits.broken += 1;
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('upstream down');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { base, hits, close: () => new Promise((resolve) => server.close(resolve)) };
}

const cardTitles = (page) => page.locator('.blog-card-title a').allTextContents();

describe('blog list on /about', () => {
  let feed;
  let server;
  let broken;
  let browser;

  before(async () => {
    feed = await startFeedServer();
    [server, broken, browser] = await Promise.all([
      startServer({ env: { BLOG_FEED_URL: `${feed.base}/feed.xml` } }),
      startServer({ env: { BLOG_FEED_URL: `${feed.base}/broken.xml` } }),
      launchBrowser(),
    ]);
    siteOrigin = server.url;
  });

  after(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), broken?.stop()]);
    await feed?.close();
  });

  test('shows the loading message, then recent posts and 4 cards with thumbnails', async () => {
    const page = await openPage(browser, null);
    try {
      const unreachable = [];
      page.on('requestfailed', (request) => {
        if (request.url().endsWith('/broken.png')) unreachable.push(request.url());
      });
      await page.goto(`${server.url}/about`);
      await waitForIslands(page);
      // Hydrated while the upstream is still answering: the loading message stays up.
      const loading = page.locator('.blog-loading');
      await loading.waitFor({ state: 'visible' });
      assert.equal((await loading.textContent()).trim(), 'Loading posts…');
      assert.equal(await page.locator('.blog-card').count(), 0);
      const sectionTop = () => page.locator('section.blog').evaluate((el) => el.getBoundingClientRect().top + scrollY);
      const topWhileLoading = await sectionTop();

      await page.locator('.blog-card').first().waitFor();
      assert.equal(await loading.count(), 0, 'the loading flag clears');
      // The posts grow the section downwards; the section itself stays put (no layout shift).
      assert.equal(await sectionTop(), topWhileLoading);

      const recent = await page.locator('.blog-recent li a').allTextContents();
      assert.deepEqual(
        recent.map((t) => t.replace(' (opens in a new tab)', '').trim()),
        ['Post number 1', 'Post number 2', 'Post number 3', 'Post number 4'],
      );

      assert.equal(await page.locator('.blog-card').count(), 4);
      const first = page.locator('.blog-card').first();
      const link = first.locator('.blog-card-title a');
      assert.equal(await link.getAttribute('href'), 'https://blog.example.test/post-1');
      assert.equal(await link.getAttribute('target'), '_blank');
      assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
      assert.equal((await first.locator('.blog-card-author').textContent()).trim(), 'By Author 1');
      assert.equal((await first.locator('time').textContent()).trim(), '28 October 2025');

      const images = await page.locator('.blog-card-image').evaluateAll((imgs) => imgs.map((img) => new URL(img.src).pathname));
      assert.deepEqual(images, [
        '/images/web-app-architecture.svg', // the post's thumbnail
        '/images/web-app-signup-flow.svg', // the first image of its content
        '/images/default-thumbnail.svg', // a thumbnail that cannot load: the default
        '/images/default-thumbnail.svg', // neither: the default
      ]);
      assert.ok(unreachable.length >= 1, 'the browser tried the thumbnail that cannot load');
      // Preloaded before the posts showed: every card image is already decoded.
      const complete = await page
        .locator('.blog-card-image')
        .evaluateAll((imgs) => imgs.every((img) => img.complete && img.naturalWidth > 0));
      assert.equal(complete, true);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('pages through the posts 4 at a time with previous and next', async () => {
    const page = await openPage(browser, `${server.url}/about`);
    try {
      await page.locator('.blog-card').first().waitFor();
      const pager = page.locator('.blog-pager');
      const previous = pager.getByRole('button', { name: 'Previous' });
      const next = pager.getByRole('button', { name: 'Next' });
      assert.equal((await page.locator('.blog-page').textContent()).trim(), 'page 1 of 3');
      assert.equal(await previous.isDisabled(), true);

      await next.click();
      assert.equal((await page.locator('.blog-page').textContent()).trim(), 'page 2 of 3');
      assert.deepEqual(
        (await cardTitles(page)).map((t) => t.replace(' (opens in a new tab)', '').trim()),
        ['Post number 5', 'Post number 6', 'Post number 7', 'Post number 8'],
      );
      await next.press('Enter');
      assert.equal((await page.locator('.blog-page').textContent()).trim(), 'page 3 of 3');
      assert.equal(await page.locator('.blog-card').count(), 2);
      assert.equal(await next.isDisabled(), true);
      // The disabled button gave keyboard focus to the other one instead of dropping it.
      assert.equal(await previous.evaluate((el) => el === document.activeElement), true);

      await previous.click();
      assert.equal((await page.locator('.blog-page').textContent()).trim(), 'page 2 of 3');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('uses the Traditional Chinese page wording on /zh/about', async () => {
    const page = await openPage(browser, `${server.url}/zh/about`);
    try {
      await page.locator('.blog-card').first().waitFor();
      assert.equal((await page.locator('.blog-page').textContent()).trim(), '第 1 頁，共 3 頁');
      assert.equal((await page.locator('.blog-pager button').first().textContent()).trim(), '上一頁');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('fits a 375 px screen in dark mode', async () => {
    const page = await openPage(browser, `${server.url}/about`, { width: 375, dark: true });
    try {
      await page.locator('.blog-card').first().waitFor();
      assert.equal(await page.evaluate(() => document.body.classList.contains('dark-mode')), true);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
      const box = await page.locator('.blog-card').first().boundingBox();
      assert.ok(box.width <= 375, `card is ${box.width}px wide`);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a failing feed clears the loading message and shows the empty state', async () => {
    const page = await openPage(browser, `${broken.url}/about`);
    try {
      await page.locator('.blog-empty').waitFor();
      assert.equal(await page.locator('.blog-loading').count(), 0);
      assert.equal(await page.locator('.blog-card').count(), 0);
      assert.ok(feed.hits.broken >= 1, 'the server asked the upstream');
      // The failure is only logged, never an error on the console.
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });
});
