// The visitor's context: the system's colour scheme until the visitor uses the toggle, the language
// a shared address names, and the word on the home page after the redirect from an unknown path.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { darkAtFirstPaint, openPage, useServerAndBrowser, waitForIslands, watchFirstPaint } from './harness.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const darkOnBoth = (page) =>
  page.evaluate(() => document.documentElement.classList.contains('dark-mode') && document.body.classList.contains('dark-mode'));

describe('colour scheme', () => {
  for (const width of [1280, 375]) {
    it(`follows a dark system on a first visit, painted dark from the start, until the toggle is used (${width}px)`, async () => {
      const page = await openPage(browser, null, { width, dark: null, colorScheme: 'dark' });
      try {
        await watchFirstPaint(page);
        await page.goto(`${server.url}/valuation-models/dcf`);
        await waitForIslands(page);
        assert.equal(await darkAtFirstPaint(page), true, 'dark before the body is drawn');
        assert.equal(await darkOnBoth(page), true);
        assert.equal(await page.evaluate(() => localStorage.getItem('darkMode')), null, 'following is not a choice');
        const toggle = page.locator('.tools-dropdown button[aria-pressed]');
        await page.locator('.tools-dropdown > summary').click();
        assert.equal(await toggle.getAttribute('aria-pressed'), 'true', 'the toggle shows what the page shows');
        await toggle.click();
        assert.equal(await darkOnBoth(page), false);
        assert.equal(await page.evaluate(() => localStorage.getItem('darkMode')), 'false');
        // The stored choice now wins over the dark system, from the first paint of the next page.
        await page.goto(`${server.url}/notes`);
        await waitForIslands(page);
        assert.equal(await darkAtFirstPaint(page), false);
        assert.equal(await darkOnBoth(page), false);
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    });
  }

  it('stays light on a light system, and follows the system changing while no choice is stored', async () => {
    const page = await openPage(browser, `${server.url}/notes`, { dark: null, colorScheme: 'light' });
    try {
      assert.equal(await darkOnBoth(page), false);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(() => document.documentElement.classList.contains('dark-mode'));
      assert.equal(await darkOnBoth(page), true);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });
});

describe('language of a shared link', () => {
  for (const width of [1280, 375]) {
    it(`opens a /ja/ link in Japanese after the visitor chose Chinese, and unprefixed ones in Chinese (${width}px)`, async () => {
      const page = await openPage(browser, `${server.url}/ja/valuation-models/dcf`, { width, storage: { selectedLanguage: 'zh' } });
      try {
        assert.equal(new URL(page.url()).pathname, '/ja/valuation-models/dcf');
        assert.equal(await page.getAttribute('html', 'data-lang'), 'ja');
        assert.equal(await page.evaluate(() => localStorage.getItem('selectedLanguage')), 'zh', 'opening a link is not a choice');
        // Where the address names no language, the stored choice still decides (the server
        // answers in it, or the head script goes to the Chinese page).
        await page.goto(`${server.url}/notes`);
        await waitForIslands(page);
        assert.match(new URL(page.url()).pathname, /^(\/zh)?\/notes$/);
        assert.equal(await page.getAttribute('html', 'data-lang'), 'zh');
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    });
  }
});

describe('an unknown path', () => {
  const cases = [
    { path: '/no-such-page', home: '/', lang: 'en', words: 'The page you asked for was not found.', search: 'Search' },
    { path: '/zh/no-such-page', home: '/zh/', lang: 'zh', words: '找不到您要的頁面。', search: '搜尋' },
    { path: '/ja/no-such-page', home: '/ja/', lang: 'ja', words: 'お探しのページは見つかりませんでした。', search: '検索' },
  ];
  for (const width of [1280, 375]) {
    for (const { path, home, lang, words, search } of cases) {
      it(`goes home saying once, in ${lang}, that the page was not found, with search (${width}px)`, async () => {
        const page = await openPage(browser, `${server.url}${path}`, { width });
        try {
          assert.equal(new URL(page.url()).pathname, home, 'still the redirect home');
          assert.equal(new URL(page.url()).search, '', 'the flag leaves the address');
          const notice = page.locator('.missing-notice');
          assert.equal(await notice.isVisible(), true);
          assert.equal(await notice.locator('.missing-title').textContent(), words);
          await notice.getByRole('searchbox').fill('dcf');
          await notice.getByRole('button', { name: search }).click();
          await page.waitForURL((url) => url.pathname.endsWith('/search') && url.searchParams.get('q') === 'dcf');
          await waitForIslands(page);
          assert.equal(await page.getAttribute('html', 'data-lang'), lang);
          // Once: the home page itself, reloaded or opened again, says nothing of it.
          await page.goto(`${server.url}${home}`);
          await waitForIslands(page);
          assert.equal(await page.locator('.missing-notice').isVisible(), false);
          await page.goBack();
          await page.goBack();
          await waitForIslands(page);
          assert.equal(new URL(page.url()).pathname, home);
          assert.equal(await page.locator('.missing-notice').isVisible(), false, 'not again on the way back');
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });
    }
  }
});
