// The reading layer on a phone and a desktop: the dock's "On this page" sheet and its way back to
// the top, tables of words that stack into cards on a phone, a guide's key takeaways and the date
// it was updated, breadcrumb links a thumb can hit, diagrams that open full size, and Japanese
// lines that break between phrases.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useServerAndBrowser, waitForIslands } from './harness.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const DCF = '/valuation-models/dcf';

const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName, className: el?.className ?? '', text: el?.textContent?.trim() ?? '', inSheet: !!el?.closest('dialog') };
  });

const sheetOpen = (page) => page.locator('dialog.contents-sheet').evaluate((d) => d.open);

describe('the contents-and-top dock on a phone', () => {
  it('375 px: the contents button opens "On this page" as a modal sheet by keyboard; Escape closes it and focus returns', async () => {
    const page = await openPage(browser, server.url + DCF, { width: 375 });
    try {
      await waitForIslands(page);
      const button = page.getByRole('button', { name: 'On this page' });
      await button.waitFor();
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      await button.focus();
      await page.keyboard.press('Enter');
      assert.equal(await sheetOpen(page), true);
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      // The sheet is modal: focus is inside it, and Tab goes round inside it, never to the page behind.
      assert.equal((await focused(page)).inSheet, true);
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        const now = await focused(page);
        assert.ok(
          now.inSheet || now.tag === 'BODY' || now.tag === undefined,
          `Tab ${i + 1} left the sheet for ${now.tag}.${now.className}`,
        );
      }
      assert.equal(await page.locator('main h1').evaluate((h) => h.matches(':modal') || !!h.closest(':modal')), false);
      await page.keyboard.press('Escape');
      assert.equal(await sheetOpen(page), false);
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.deepEqual(await focused(page), { tag: 'BUTTON', className: 'dock-contents', text: 'On this page', inSheet: false });
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('375 px: an entry of the sheet closes it and goes to its section; "Back to top" returns', async () => {
    const page = await openPage(browser, server.url + DCF, { width: 375 });
    try {
      await waitForIslands(page);
      await page.getByRole('button', { name: 'On this page' }).click();
      await page.locator('dialog.contents-sheet').getByRole('link', { name: 'Formula' }).click();
      assert.equal(await sheetOpen(page), false);
      await page.waitForURL(/#formula$/);
      const top = await page.locator('#formula').evaluate((h) => h.getBoundingClientRect().top);
      assert.ok(top >= 0 && top < 300, `the Formula heading is in view (${top} px from the top)`);
      const back = page.getByRole('link', { name: 'Back to top' });
      assert.equal(await back.isVisible(), true);
      await back.click();
      await page.waitForFunction(() => window.scrollY === 0);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('375 px without JavaScript: the dock is a link to the top alone', async () => {
    const page = await openPage(browser, server.url + DCF, { width: 375, javaScript: false });
    try {
      assert.equal(await page.locator('.dock-contents').isVisible(), false);
      const back = page.getByRole('link', { name: 'Back to top' });
      assert.equal(await back.isVisible(), true);
      assert.equal(await back.getAttribute('href'), '#top');
      // The list still opens above the text.
      assert.equal(await page.locator('.contents-compact summary').isVisible(), true);
    } finally {
      await page.closeContext();
    }
  });

  it('1280 px: no dock; "On this page" is the column beside the text', async () => {
    const page = await openPage(browser, server.url + DCF, { width: 1280 });
    try {
      await waitForIslands(page);
      assert.equal(await page.locator('.reading-dock').isVisible(), false);
      assert.equal(await page.locator('.contents-aside').isVisible(), true);
    } finally {
      await page.closeContext();
    }
  });

  it('in Chinese and Japanese, the dock speaks the page language', async () => {
    for (const [prefix, contents, top] of [
      ['/zh', '本頁目錄', '回到頂端'],
      ['/ja', 'このページの内容', 'ページの先頭へ'],
    ]) {
      const page = await openPage(browser, server.url + prefix + DCF, { width: 375, dark: true });
      try {
        await waitForIslands(page);
        await page.getByRole('button', { name: contents }).waitFor();
        assert.equal(await page.getByRole('link', { name: top }).isVisible(), true, prefix);
      } finally {
        await page.closeContext();
      }
    }
  });
});

/** The FCFF/FCFE table of the DCF article: its layout at the page's width. */
function stackedTable(page) {
  return page
    .locator('#fcff-fcfe ~ .table-stack')
    .first()
    .evaluate((box) => {
      const table = box.querySelector('table');
      const cells = Array.from(table.querySelectorAll('tbody td'));
      return {
        scrolls: box.scrollWidth > box.clientWidth,
        pageScrolls: document.documentElement.scrollWidth > window.innerWidth,
        rowDisplay: getComputedStyle(table.querySelector('tbody tr')).display,
        headVisible: table.querySelector('thead').getBoundingClientRect().height > 1,
        labels: cells.map((td) => getComputedStyle(td, '::before').content),
        widest: Math.max(...cells.map((td) => td.getBoundingClientRect().width)),
        narrowest: Math.min(...cells.map((td) => td.getBoundingClientRect().width)),
        boxWidth: box.getBoundingClientRect().width,
      };
    });
}

describe('tables of words', () => {
  it('375 px: each row of the FCFF/FCFE table is a card, each cell under its column heading, and nothing scrolls sideways', async () => {
    for (const dark of [false, true]) {
      const page = await openPage(browser, server.url + DCF, { width: 375, dark });
      try {
        const t = await stackedTable(page);
        assert.equal(t.scrolls, false);
        assert.equal(t.pageScrolls, false);
        assert.equal(t.rowDisplay, 'block');
        assert.equal(t.headVisible, false);
        // A row's first cell is its title; the others carry their heading.
        assert.equal(t.labels[0], 'none');
        assert.equal(t.labels[1], '"Free cash flow to the firm (FCFF)"');
        assert.equal(t.labels[2], '"Free cash flow to equity (FCFE)"');
        // Every cell takes the card's width rather than a third of it.
        assert.ok(t.narrowest > t.boxWidth * 0.8, `cells ${t.narrowest}–${t.widest} px in a ${t.boxWidth} px box`);
      } finally {
        await page.closeContext();
      }
    }
  });

  it('1280 px: the same table keeps its columns; a table of figures never stacks', async () => {
    const page = await openPage(browser, server.url + DCF, { width: 1280 });
    try {
      const t = await stackedTable(page);
      assert.equal(t.rowDisplay, 'table-row');
      assert.equal(t.headVisible, true);
      const figures = await page.locator('.table-scroll:not(.table-stack)').count();
      assert.ok(figures >= 2, `${figures} tables of figures`);
    } finally {
      await page.closeContext();
    }
  });
});

describe('a guide\'s takeaways and its "updated" date', () => {
  for (const [prefix, heading, updated] of [
    ['', 'Key takeaways', 'Updated 27 November 2026'],
    ['/zh', '重點摘要', '更新於 2026年11月27日'],
    ['/ja', '要点', '2026年11月27日更新'],
  ]) {
    it(`${prefix || '/en'}: above the text, in the page's language`, async () => {
      const page = await openPage(browser, server.url + prefix + DCF, { width: 375 });
      try {
        const block = page.getByRole('region', { name: heading });
        assert.equal(await block.locator('li').count(), 4);
        const date = page.locator('.page-meta time.updated');
        assert.equal((await date.textContent()).trim(), updated);
        assert.equal(await date.getAttribute('datetime'), '2026-11-27');
        // Before the article's first section.
        const [takeaways, definition] = await Promise.all([
          block.evaluate((b) => b.getBoundingClientRect().top),
          page.locator('#definition').evaluate((h) => h.getBoundingClientRect().top),
        ]);
        assert.ok(takeaways < definition);
      } finally {
        await page.closeContext();
      }
    });
  }

  it('a page without them shows neither', async () => {
    const page = await openPage(browser, `${server.url}/valuation-models/ddm`, { width: 375 });
    try {
      assert.equal(await page.locator('.takeaways').count(), 0);
      assert.equal(await page.locator('time.updated').count(), 0);
    } finally {
      await page.closeContext();
    }
  });
});

describe('small targets and diagrams', () => {
  it('breadcrumb links are at least 24 px tall, at 375 and 1280 px', async () => {
    for (const width of [375, 1280]) {
      const page = await openPage(browser, `${server.url}/zh${DCF}`, { width });
      try {
        const heights = await page.locator('.breadcrumb a').evaluateAll((links) => links.map((a) => a.getBoundingClientRect().height));
        assert.equal(heights.length, 2);
        for (const h of heights) assert.ok(h >= 24, `${width} px: a breadcrumb link ${h} px tall`);
      } finally {
        await page.closeContext();
      }
    }
  });

  it('a project diagram is a link to itself full size, where a phone can zoom it', async () => {
    const page = await openPage(browser, `${server.url}/my-web-project/my-first-web-app`, { width: 375 });
    try {
      const links = page.locator('.article a.diagram');
      assert.equal(await links.count(), 2);
      const href = await links.first().getAttribute('href');
      assert.equal(href, '/images/web-app-architecture.svg');
      const response = await fetch(server.url + href);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type'), /^image\/svg\+xml/);
      // Named by the diagram's own description.
      assert.equal(await page.getByRole('link', { name: /^Architecture: Markdown/ }).count(), 1);
      // On a phone a corner mark says so (decorative: no text for assistive technology).
      const mark = await links.first().evaluate((a) => getComputedStyle(a, '::after').content);
      assert.match(mark, /⤢/);
    } finally {
      await page.closeContext();
    }
  });

  it('Japanese text breaks between phrases', async () => {
    const page = await openPage(browser, `${server.url}/ja${DCF}`, { width: 375 });
    try {
      assert.equal(
        await page
          .locator('.article p')
          .first()
          .evaluate((p) => getComputedStyle(p).wordBreak),
        'auto-phrase',
      );
      const en = await openPage(browser, server.url + DCF, { width: 375 });
      try {
        assert.equal(
          await en
            .locator('.article p')
            .first()
            .evaluate((p) => getComputedStyle(p).wordBreak),
          'normal',
        );
      } finally {
        await en.closeContext();
      }
    } finally {
      await page.closeContext();
    }
  });
});
