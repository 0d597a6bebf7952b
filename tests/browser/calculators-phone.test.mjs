// The calculators on a phone: reached from the top of their article and from "On this page", the
// answer of every formula readable (never cut off), the sensitivity grid whole at 320 px, the
// headline result in view while a field has the focus, the words of formulas in the text face, and
// a translated word when the calculator's script cannot load.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useServerAndBrowser, waitForIslands } from './harness.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const LANGUAGES = [
  { prefix: '', answer: '$25.12', jump: 'Try the numbers in the calculator', entry: 'Calculator' },
  { prefix: '/zh', answer: '25.12', jump: '用計算機試算自己的數字', entry: '計算機' },
  { prefix: '/ja', answer: '25.12', jump: '計算機で自分の数字を試す', entry: '計算機' },
];

/** Each formula answer's text, and whether any of it lies outside its box or the viewport. */
const answers = (page) =>
  page.locator('.calc-math .calc-answer').evaluateAll((els) =>
    els.map((el) => {
      const box = el.getBoundingClientRect();
      const scroller = el.closest('.calc-scroll').getBoundingClientRect();
      return {
        text: el.textContent,
        clipped: el.scrollWidth > el.clientWidth + 1 || box.right > scroller.right + 1 || box.right > window.innerWidth,
      };
    }),
  );

for (const { prefix, answer, jump, entry } of LANGUAGES) {
  describe(`the DCF calculator on a phone (${prefix || '/en'})`, () => {
    for (const width of [375, 320]) {
      it(`shows every formula's answer and the whole grid (${width}px)`, async () => {
        const page = await openPage(browser, `${server.url}${prefix}/valuation-models/dcf`, { width });
        try {
          const found = await answers(page);
          assert.equal(found.length, 4, 'one answer per formula');
          for (const { text, clipped } of found) assert.equal(clipped, false, `cut off: ${text}`);
          assert.ok(found.at(-1).text.includes(answer), `the last formula ends in the value per share: ${found.at(-1).text}`);
          const grid = await page
            .locator('.calc-grid-wrap')
            .evaluate((el) => ({ scroll: el.scrollWidth, width: el.clientWidth, right: el.getBoundingClientRect().right }));
          assert.ok(grid.scroll <= grid.width, `the grid is ${grid.scroll}px in ${grid.width}px`);
          assert.ok(grid.right <= width);
          assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, 'no sideways scrolling');
          // Words in a formula are in the text's face.
          const faces = await page.locator('.calc-math mtext').evaluateAll((els) => els.map((el) => getComputedStyle(el).fontFamily));
          assert.ok(faces.length > 0);
          for (const face of faces) assert.doesNotMatch(face, /^"?Article Math/, face);
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });
    }

    it('links to the calculator from under the title and from "On this page"', async () => {
      const page = await openPage(browser, `${server.url}${prefix}/valuation-models/dcf`, { width: 375 });
      try {
        const link = page.locator('.page-header .calc-jump a');
        assert.equal((await link.textContent()).trim(), jump);
        const top = await link.boundingBox();
        assert.ok(top.y < 900, `the link is in the first screen (y ${top.y})`);
        await page.locator('.contents-compact summary').click();
        const item = page.locator('.contents-compact a[href="#calculator"]');
        assert.equal((await item.textContent()).trim(), entry);
        await item.click();
        await page.waitForFunction(() => {
          const heading = document.querySelector('#calculator h2').getBoundingClientRect();
          return heading.top >= 0 && heading.bottom <= window.innerHeight;
        });
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    });
  });
}

describe('the DCF calculator while typing on a phone', () => {
  it('keeps the headline result in view while a field has the focus, and follows the typing', async () => {
    const page = await openPage(browser, `${server.url}/valuation-models/dcf`, { width: 375, height: 667 });
    try {
      assert.equal(await page.locator('.calc input[name="shares"]').getAttribute('inputmode'), 'decimal');
      // The first year's cash flow, in the middle of the screen as a phone scrolls a focused field.
      const field = page.locator('.calc input[name="cf1"]');
      await field.focus();
      await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const inView = async () =>
        page
          .locator('.calc [aria-live="polite"]')
          .first()
          .evaluate((el) => {
            const box = el.getBoundingClientRect();
            const bar = document.querySelector('.topbar-slot').getBoundingClientRect();
            return box.top >= bar.bottom - 1 && box.bottom <= window.innerHeight;
          });
      assert.equal(await inView(), true, 'the result is on screen beside the focused field');
      await field.fill('200');
      await page.waitForFunction((before) => !document.querySelector('.calc [aria-live="polite"]').textContent.includes(before), '$25.12');
      assert.equal(await inView(), true);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });
});

describe('a calculator whose script cannot load', () => {
  for (const { prefix, words } of [
    { prefix: '', words: /could not load; the worked example above still holds/ },
    { prefix: '/ja', words: /計算機を読み込めませんでした。上の計算例はそのまま有効/ },
  ]) {
    it(`says so in the page's language, and that the example stands (${prefix || '/en'})`, async () => {
      const page = await openPage(browser, null, { width: 375, expectHttpErrors: /\/assets\/DcfCalculator-/ });
      try {
        await page.route(/\/assets\/DcfCalculator-[A-Z0-9]+\.js(\?.*)?$/, (route) => route.fulfill({ status: 404, body: 'missing' }));
        await page.goto(`${server.url}${prefix}/valuation-models/dcf`);
        const notice = page.locator('.calc-unloaded');
        await notice.waitFor({ state: 'visible' });
        assert.match(await notice.textContent(), words);
        // The prerendered example stays on screen.
        assert.match(await page.locator('.calc [aria-live="polite"]').first().textContent(), /25\.12/);
      } finally {
        await page.closeContext();
      }
    });
  }
});
