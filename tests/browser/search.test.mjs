// The search page against the real server and the generator's real index: English, Chinese and
// Japanese queries, clicking a result, no-match suggestions, escaping, and its failure paths.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrames, openPage, useServerAndBrowser, waitForIslands } from './harness.mjs';

/** openPage, with routes set and the index requests counted from the very first request on. */
async function open(browser, url, { routes = async () => {}, clock = false, ...options } = {}) {
  const page = await openPage(browser, null, options);
  page.indexRequests = [];
  page.on('request', (r) => {
    if (/\/assets\/search-index-[^/]+\.json$/.test(new URL(r.url()).pathname)) page.indexRequests.push(r.url());
  });
  if (clock) await page.clock.install();
  await routes(page);
  await page.goto(url, { waitUntil: 'load' });
  await (clock ? pastRetries(page, waitForIslands(page)) : waitForIslands(page));
  return page;
}

const results = (page) => page.locator('.search-results .search-result');

/** Waits for `done` on a page whose locale reads fail and are tried again, 350 ms after the first
 * try and doubling (10.85 s in all). The page runs on Playwright's clock (`clock: true` to `open`),
 * moved on past each wait as soon as it starts: the same tries, without the wait. */
async function pastRetries(page, done) {
  let finished = false;
  const waited = done.finally(() => {
    finished = true;
  });
  while (!finished) {
    await page.clock.fastForward(6000);
    await Promise.race([waited, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return waited;
}

const firstResultAfterRetries = (page) => pastRetries(page, results(page).first().waitFor({ timeout: 30000 }));
const status = (page) => page.locator('.search-status');

async function resultPaths(page) {
  return page.locator('.search-results .search-result-path').allTextContents();
}

describe('search page', () => {
  let server;
  let browser;
  useServerAndBrowser((s, b) => {
    [server, browser] = [s, b];
  });

  test('an English term: count, highlighted snippet, ?q= in the address, click through', async () => {
    const page = await open(browser, `${server.url}/search`);
    try {
      const box = page.getByRole('searchbox', { name: 'Search the site' });
      await box.fill('  Discounted  ');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await results(page).first().waitFor();
      const count = await results(page).count();
      // The first ten results, read from the chunks they need; more are read on request.
      assert.equal((await status(page).textContent()).trim(), `Showing the first ${count} results`);
      assert.equal((await resultPaths(page))[0], '/valuation-models/dcf');
      const mark = await results(page).first().locator('mark').first().textContent();
      assert.equal(mark.toLowerCase(), 'discounted');
      assert.equal(await box.inputValue(), 'Discounted', 'the query is trimmed');
      assert.equal(new URL(page.url()).searchParams.get('q'), 'Discounted');
      // English results before the other languages' pages.
      const langs = await results(page).evaluateAll((lis) => lis.map((li) => li.getAttribute('lang') ?? 'en'));
      const firstOther = langs.findIndex((l) => l !== 'en');
      assert.ok(firstOther === -1 || langs.slice(firstOther).every((l) => l !== 'en'), langs.join(','));
      assert.deepEqual(page.indexRequests.length, 1, 'the index is fetched once');
      const firstTitles = await results(page).locator('.search-result-title').allTextContents();
      // "Show more results" stands apart from the last card.
      const gap = await page.evaluate(() => {
        const cards = document.querySelectorAll('.search-results .search-result');
        const more = document.querySelector('.search-more');
        return more.getBoundingClientRect().top - cards[cards.length - 1].getBoundingClientRect().bottom;
      });
      assert.ok(gap >= 12, `${gap} px between the last result and "Show more results"`);
      while (await page.getByRole('button', { name: 'Show more results' }).count()) {
        const before = await results(page).count();
        await page.getByRole('button', { name: 'Show more results' }).click();
        await page.waitForFunction((n) => document.querySelectorAll('.search-results .search-result').length > n, before);
      }
      const all = await results(page).count();
      assert.ok(all > count, `${all} after "show more", ${count} before`);
      assert.equal((await status(page).textContent()).trim(), `${all} results`);
      // Reading on keeps the first results where they were.
      assert.deepEqual((await results(page).locator('.search-result-title').allTextContents()).slice(0, count), firstTitles);

      await results(page).first().locator('a').click();
      await page.waitForURL(`${server.url}/valuation-models/dcf`);
      assert.match(await page.locator('h1').first().textContent(), /Discounted Cash Flow/);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a Chinese term from ?q= on the Chinese page', async () => {
    const page = await open(browser, `${server.url}/zh/search?q=${encodeURIComponent('折現')}`);
    try {
      await results(page).first().waitFor();
      assert.equal(await page.getByRole('searchbox').inputValue(), '折現');
      const paths = await resultPaths(page);
      assert.equal(paths[0], '/zh/valuation-models/dcf');
      assert.equal(await results(page).first().locator('mark').first().textContent(), '折現');
      assert.match((await status(page).textContent()).trim(), /^先列出前 \d+ 筆結果$/);
      assert.equal(await page.getByRole('button', { name: '顯示更多結果' }).count(), 1);
      await results(page).first().locator('a').click();
      await page.waitForURL(`${server.url}/zh/valuation-models/dcf`);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a Japanese term at 375 px in dark mode', async () => {
    const page = await open(browser, `${server.url}/ja/search`, { width: 375, dark: true });
    try {
      const box = page.getByRole('searchbox');
      await box.fill('割引');
      await box.press('Enter');
      await results(page).first().waitFor();
      assert.equal((await resultPaths(page))[0], '/ja/valuation-models/dcf');
      assert.equal(new URL(page.url()).searchParams.get('q'), '割引');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
      await results(page).first().locator('a').click();
      await page.waitForURL(`${server.url}/ja/valuation-models/dcf`);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('no match: the no-results message, the hint and the recommended pages', async () => {
    const page = await open(browser, `${server.url}/search?q=qqqqxxxzzz`);
    try {
      await page.locator('.search-empty').waitFor();
      assert.equal((await page.locator('.search-no-results').textContent()).trim(), 'No results for “qqqqxxxzzz”');
      assert.equal((await page.locator('.search-hint').textContent()).trim(), 'Try to press Search Button');
      assert.equal((await page.locator('.search-suggest').textContent()).trim(), 'Recommended pages:');
      assert.deepEqual(await resultPaths(page), ['/', '/valuation-models', '/investment-basics']);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a misspelling is offered the page it misspells, titles before keywords', async () => {
    const page = await open(browser, `${server.url}/search`);
    try {
      const box = page.getByRole('searchbox');
      for (const [query, path] of [
        ['valuaton', '/valuation-models'],
        ['privcy policy', '/climbers-deal-privacy'],
        ['dividnd discont modle', '/valuation-models/ddm'],
      ]) {
        await box.fill(query);
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.waitForFunction((q) => document.querySelector('.search-no-results')?.textContent.includes(`“${q}”`), query);
        assert.equal((await page.locator('.search-suggest').textContent()).trim(), 'Did you mean:', query);
        assert.deepEqual(await resultPaths(page), [path], query);
      }
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a blank query is ignored: the results and ?q= stay', async () => {
    const page = await open(browser, `${server.url}/search?q=dividend`);
    try {
      await results(page).first().waitFor();
      const shown = await resultPaths(page);
      const statusText = await status(page).textContent();
      const box = page.getByRole('searchbox');
      await box.fill('   ');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await box.press('Enter');
      // React renders a click's update before the next frame; let two pass.
      await nextFrames(page);
      assert.deepEqual(await resultPaths(page), shown);
      assert.equal(await status(page).textContent(), statusText);
      assert.equal(await page.locator('.search-empty').count(), 0);
      assert.equal(new URL(page.url()).searchParams.get('q'), 'dividend');
      // The next real query is searched as usual.
      await box.fill('liquidity');
      await box.press('Enter');
      await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'liquidity');
      // Its results come once the chunks it needs are fetched.
      await page.waitForFunction(() => document.querySelector('.search-result-path')?.textContent === '/notes/liquidity-risk');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a query fetches only the index files it needs', async () => {
    const page = await open(browser, `${server.url}/zh/search`);
    try {
      const files = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith('/assets/search/')) files.push({ path: url.pathname, v: url.searchParams.get('v') });
      });
      await page.getByRole('searchbox').fill('折現');
      await page.getByRole('searchbox').press('Enter');
      await results(page).first().waitFor();
      await page.waitForLoadState('networkidle');
      const of = (re) => files.filter((f) => re.test(f.path)).map((f) => f.path);
      const buckets = (lang) => [
        of(new RegExp(`^/assets/search/${lang}/g\\d+\\.json$`)).length,
        of(new RegExp(`^/assets/search/${lang}/i\\d+\\.json$`)).length,
      ];
      // Chinese: the one gram bucket and the one item bucket of a two-character query. The first
      // ten results are all Chinese pages, so the other languages are not read yet.
      assert.deepEqual(buckets('zh'), [1, 1], files.map((f) => f.path).join());
      assert.deepEqual(
        [buckets('en'), buckets('ja')],
        [
          [0, 0],
          [0, 0],
        ],
      );
      // pages: only Chinese ones (no other language's text holds 折現), as many as the results
      // shown, plus at most one batch read past the last; no vocabulary
      const chunks = of(/\/p\d+\.json$/);
      const shown = await results(page).count();
      assert.ok(
        chunks.every((p) => p.startsWith('/assets/search/zh/')),
        chunks.join(),
      );
      assert.ok(chunks.length >= shown && chunks.length <= shown + 8, `${chunks.length} chunks, ${shown} results`);
      assert.equal(of(/\/v\.json$/).length, 0);
      assert.ok(
        files.every((f) => /^[\w-]{8}$/.test(f.v)),
        'every file URL carries its language version',
      );
      // the same query again fetches nothing
      files.length = 0;
      await page.getByRole('searchbox').fill('折現率');
      await page.getByRole('searchbox').fill('折現');
      await page.getByRole('searchbox').press('Enter');
      await page.waitForLoadState('networkidle');
      assert.equal(of(/\/p\d+\.json$/).filter((p) => chunks.includes(p)).length, 0, 'chunks are fetched once');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('snippets start and end at word boundaries and mark whole words', async () => {
    const page = await open(browser, `${server.url}/search?q=discount`);
    try {
      await results(page).first().waitFor();
      // A tag page matches by its name and has no text to quote: only results with a snippet.
      const snippets = await results(page).evaluateAll((lis) =>
        lis
          .filter((li) => li.querySelector('.search-result-snippet'))
          .map((li) => {
            const el = li.querySelector('.search-result-snippet');
            return {
              href: li.querySelector('a').href,
              html: el.innerHTML,
              text: el.textContent,
              marks: [...el.querySelectorAll('mark')].map((m) => m.textContent),
            };
          }),
      );
      assert.ok(snippets.length > 3, `${snippets.length} snippets`);
      const letter = /[\p{L}\p{N}]/u;
      const wholeWordIn = (word, text) => new RegExp(`(^|[^\\p{L}\\p{N}])${word}($|[^\\p{L}\\p{N}])`, 'u').test(text);
      for (const { href, html, text, marks } of snippets.slice(0, 4)) {
        const [before, rest] = html.split('<mark>');
        const after = rest.split('</mark>')[1];
        // the mark is the whole word (discount, discounted, discounting…), nothing of it outside
        assert.match(marks[0], /^discount\p{L}*$/iu, html);
        assert.ok(!letter.test(before.at(-1) ?? ' ') && !letter.test(after[0] ?? ' '), html);
        assert.ok(Array.from(before.replace('…', '')).length <= 50 && Array.from(after.replace('…', '')).length <= 50, html);
        // the words at a cut are whole words of the page, not the tail or head of one
        const pageText = (await (await page.request.get(href)).text()).replace(/<[^>]*>/g, ' ');
        const words = text.replace(/…/g, ' ').match(/[\p{L}\p{N}]+/gu);
        if (text.startsWith('…')) assert.ok(wholeWordIn(words[0], pageText), `${words[0]} in ${html}`);
        if (text.endsWith('…')) assert.ok(wholeWordIn(words.at(-1), pageText), `${words.at(-1)} in ${html}`);
      }
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('markup in the query stays text', async () => {
    const evil = `"><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    const page = await open(browser, `${server.url}/search?q=${encodeURIComponent(evil)}`);
    try {
      await page.locator('.search-empty, .search-results').first().waitFor();
      assert.equal(await page.locator('.search img, .search script').count(), 0);
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      assert.equal((await page.locator('.search-no-results').textContent()).trim(), `No results for “${evil}”`);
      // a query that does match, with quotes and angle brackets around it
      await page.getByRole('searchbox').fill('<b>dividend</b>"');
      await page.getByRole('searchbox').press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('.search-result-snippet b').length === 0);
      assert.equal(await page.locator('.search-result-snippet :not(mark)').count(), 0);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('the index is fetched only by the search page', async () => {
    for (const path of ['/', '/about', '/valuation-models/dcf', '/zh/notes', '/login']) {
      const page = await open(browser, `${server.url}${path}`);
      try {
        await page.waitForLoadState('networkidle');
        assert.deepEqual(page.indexRequests, [], path);
      } finally {
        await page.closeContext();
      }
    }
  });

  test('an index that cannot be loaded gives a single result to home', async () => {
    const page = await open(browser, `${server.url}/zh/search?q=dcf`, {
      expectHttpErrors: /^\/assets\/search-index-/,
      routes: (p) => p.route('**/assets/search-index-*.json', (route) => route.fulfill({ status: 503, body: 'down' })),
    });
    try {
      await page.locator('.search-empty').waitFor();
      assert.deepEqual(await resultPaths(page), ['/zh/']);
      assert.equal((await page.locator('.search-suggest').textContent()).trim(), '目前無法搜尋，前往首頁：');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('searches with no locale file reachable: the page carries its own text, other labels are built in', async () => {
    for (const [path, query, first] of [
      ['/search', 'liquidity', '/notes/liquidity-risk'],
      ['/ja/search', '割引', '/ja/valuation-models/dcf'],
    ]) {
      const localeRequests = [];
      const page = await open(browser, `${server.url}${path}`, {
        clock: true,
        routes: (p) =>
          p.route('**/locales/**', (route) => {
            localeRequests.push(route.request().url());
            return route.abort();
          }),
      });
      try {
        // Hydrated with the page's own wording, which came with the page.
        assert.equal(localeRequests.filter((url) => !url.endsWith('/translation.json')).length, 0, path);
        const box = page.getByRole('searchbox');
        await box.fill(query);
        await page.locator('.search-button').click();
        // The search still asks for all three languages (with its retries) before searching.
        await firstResultAfterRetries(page);
        assert.equal((await resultPaths(page))[0], first, path);
        assert.deepEqual([...new Set(localeRequests.map((url) => new URL(url).pathname))].sort(), [
          '/locales/en/translation.json',
          '/locales/ja/translation.json',
          '/locales/zh/translation.json',
        ]);
        assert.deepEqual(page.problems(), [], path);
      } finally {
        await page.closeContext();
      }
    }
  });

  test('without the text in the page and no locale file, the search works in its built-in wording', async () => {
    const page = await open(browser, `${server.url}/zh/search`, {
      clock: true,
      routes: async (p) => {
        await p.route('**/locales/**', (route) => route.abort());
        await p.route('**/zh/search', async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace(/<script type="application\/json" id="island-text"[^]*?<\/script>/, '');
          await route.fulfill({ response, body: html });
        });
      },
    });
    try {
      assert.equal(await page.locator('#island-text').count(), 0);
      const box = page.locator('.search-input');
      await box.fill('dcf');
      await page.locator('.search-button').click();
      await firstResultAfterRetries(page);
      assert.equal((await resultPaths(page))[0], '/zh/valuation-models/dcf');
      assert.equal((await page.locator('.search-button').textContent()).trim(), 'Search');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('loading translations, then results with built-in labels when the other languages fail', async () => {
    const page = await open(browser, `${server.url}/search?q=liquidity`, {
      clock: true,
      expectHttpErrors: /^\/locales\/(zh|ja)\/translation\.json$/,
      routes: (p) => p.route(/\/locales\/(zh|ja)\/translation\.json$/, (route) => route.fulfill({ status: 500, body: 'no' })),
    });
    try {
      // The page's own (English) text loaded; the search's reads of zh and ja are retrying.
      assert.equal((await status(page).textContent()).trim(), 'Loading translations…');
      assert.equal(await results(page).count(), 0);
      await firstResultAfterRetries(page);
      assert.equal((await resultPaths(page))[0], '/notes/liquidity-risk');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });
});
