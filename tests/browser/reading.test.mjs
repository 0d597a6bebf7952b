// Reading the articles on a phone and a desktop: no page scrolls sideways, formulas are typeset
// in the math font and scroll in their own box, tables of figures line their numbers up, Japanese
// and Chinese pages use their own fonts and break lines properly, and form fields are visible.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { distDir, openPage, useServerAndBrowser, waitForIslands } from './harness.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const LANGS = ['', '/zh', '/ja'];
const LONG_ARTICLES = [
  '/valuation-models/dcf',
  '/valuation-models/ddm',
  '/valuation-models/pe',
  '/valuation-models/ps',
  '/valuation-models/pb',
  '/investment-basics/risk-and-reward',
  '/investment-basics/types-of-investments',
  '/investment-basics/what-is-investing',
  '/notes/liquidity-risk',
];

/** Every page the sitemap lists (all three languages), as paths. */
async function sitemapPaths() {
  const xml = await readFile(path.join(distDir, 'sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
}

/** Loads `route` in `page` and waits until its islands and fonts are in place. */
async function visit(page, route) {
  await page.goto(server.url + route, { waitUntil: 'load' });
  await waitForIslands(page);
  await page.evaluate(() => document.fonts.ready);
}

const pageWidth = (page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));

describe('no page scrolls sideways', () => {
  it('at 375 px: every page of the sitemap, in every language', async () => {
    const paths = await sitemapPaths();
    assert.ok(paths.length >= 90, `the sitemap lists ${paths.length} pages`);
    for (const lang of LANGS) assert.ok(paths.includes(`${lang}/valuation-models/dcf`), `sitemap has ${lang} pages`);
    const page = await openPage(browser, null, { width: 375 });
    const wide = [];
    try {
      for (const route of paths) {
        await visit(page, route);
        const { scroll, viewport } = await pageWidth(page);
        if (scroll > viewport) wide.push(`${route}: ${scroll} px`);
      }
    } finally {
      await page.closeContext();
    }
    assert.deepEqual(wide, [], 'pages wider than the 375 px viewport');
  });

  for (const width of [320, 414]) {
    it(`at ${width} px: the long articles`, async () => {
      const page = await openPage(browser, null, { width });
      const wide = [];
      try {
        for (const lang of LANGS)
          for (const route of LONG_ARTICLES) {
            await visit(page, lang + route);
            const { scroll, viewport } = await pageWidth(page);
            if (scroll > viewport) wide.push(`${lang}${route}: ${scroll} px`);
          }
      } finally {
        await page.closeContext();
      }
      assert.deepEqual(wide, [], `pages wider than the ${width} px viewport`);
    });
  }
});

/**
 * Scrolls the first box matching `selector` that is wider than its content by keyboard, as a
 * reader without a mouse would: from the last control before it, Tab, then the right arrow.
 * Returns how far the box scrolled and how far the page did.
 */
async function scrollBoxByKeyboard(page, selector) {
  const box = await page.evaluateHandle(
    (s) => Array.from(document.querySelectorAll(s)).find((el) => el.scrollWidth > el.clientWidth + 1) ?? null,
    selector,
  );
  assert.ok(await box.evaluate((el) => el !== null), `no ${selector} overflows`);
  assert.equal(await box.evaluate((el) => el.getAttribute('tabindex')), '0', `a ${selector} that scrolls takes focus`);
  await box.evaluate((el) => {
    const controls = Array.from(document.querySelectorAll('a[href], button, input, summary, [tabindex]')).filter(
      (e) => e.tabIndex >= 0 && e.getClientRects().length > 0 && !e.contains(el) && !el.contains(e),
    );
    const before = controls.filter((e) => e.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
    before.focus();
  });
  await page.keyboard.press('Tab');
  assert.ok(await box.evaluate((el) => el === document.activeElement), `Tab reaches the ${selector}`);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((el) => el.scrollLeft > 0, box);
  return box.evaluate((el) => ({ box: el.scrollLeft, page: window.scrollX }));
}

describe('formulas', () => {
  it('are set in the math font, with a display-size sum and upright names', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/dcf', { width: 1280 });
    try {
      await page.evaluate(() => document.fonts.ready);
      const facts = await page.evaluate(() => {
        const sum = Array.from(document.querySelectorAll('math[display="block"] mo')).find((mo) => mo.textContent === '∑');
        const name = Array.from(document.querySelectorAll('mi')).find((mi) => mi.textContent === 'CF');
        return {
          loaded: document.fonts.check('16px "Article Math"'),
          family: getComputedStyle(document.querySelector('math')).fontFamily,
          sumHeight: sum.getBoundingClientRect().height,
          textSize: parseFloat(getComputedStyle(document.querySelector('.article p')).fontSize),
          nameStyle: getComputedStyle(name).fontStyle,
          nameTransform: getComputedStyle(name).textTransform,
          split: document.querySelector('.article').innerHTML.includes('<mi>C</mi><mi>F</mi>'),
        };
      });
      assert.ok(facts.loaded, 'the math font loaded');
      assert.match(facts.family, /^"?Article Math"?,/);
      assert.ok(facts.sumHeight >= 1.5 * facts.textSize, `∑ is ${facts.sumHeight} px tall beside ${facts.textSize} px text`);
      assert.equal(facts.nameStyle, 'normal', 'CF is upright');
      assert.equal(facts.nameTransform, 'none', 'CF is not turned into math italic letters');
      assert.equal(facts.split, false, 'CF is one identifier');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('wider than a phone scroll inside their own box, by keyboard too', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/ddm', { width: 320 });
    try {
      await page.evaluate(() => document.fonts.ready);
      const scrolled = await scrollBoxByKeyboard(page, '.math-scroll');
      assert.ok(scrolled.box > 0, 'the formula scrolled');
      assert.equal(scrolled.page, 0, 'the page did not');
      assert.ok((await pageWidth(page)).scroll <= 320);
    } finally {
      await page.closeContext();
    }
  });
});

describe('inline formulas', () => {
  it('one wider than a phone scrolls in place instead of widening the page', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/dcf', { width: 375 });
    try {
      const facts = await page.evaluate(async () => {
        const p = document.createElement('p');
        const terms = Array.from({ length: 12 }, (_, i) => `<mi mathvariant="normal">Term${i}</mi>`).join('<mo>+</mo>');
        p.innerHTML = `A long one: <span class="math-tie"><math display="inline">${terms}</math>.</span>`;
        document.querySelector('.article').append(p);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const math = p.querySelector('math');
        return { page: document.documentElement.scrollWidth, scrolls: math.scrollWidth > math.clientWidth };
      });
      assert.ok(facts.page <= 375, `the page is ${facts.page} px wide`);
      assert.ok(facts.scrolls, 'the formula scrolls within the column');
    } finally {
      await page.closeContext();
    }
  });
});

/** The right edge of the text of each numeric cell, by column, and the totals row's style. */
function tableFacts(page) {
  return page.evaluate(() => {
    // The worked example: the table with a totals row.
    const table = Array.from(document.querySelectorAll('.article .table-scroll table')).find((t) => t.querySelector('tr.total'));
    const columns = {};
    for (const row of table.querySelectorAll('tbody tr'))
      Array.from(row.cells).forEach((cell, i) => {
        if (!cell.classList.contains('num') || !cell.textContent.trim()) return;
        const range = document.createRange();
        range.selectNodeContents(cell);
        (columns[i] ??= []).push(Math.round(range.getBoundingClientRect().right));
      });
    const total = table.querySelector('tbody tr:last-child');
    const smallest = Array.from(table.querySelectorAll('th, td')).map((c) => parseFloat(getComputedStyle(c).fontSize));
    return {
      columns,
      tabular: getComputedStyle(table.querySelector('td.num')).fontVariantNumeric,
      totalFirstCell: total.cells[0].textContent,
      totalWeight: Number(getComputedStyle(total.cells[total.cells.length - 1]).fontWeight),
      totalRule: parseFloat(getComputedStyle(total.cells[0]).borderTopWidth),
      bodyWeight: Number(getComputedStyle(table.querySelector('tbody tr td.num')).fontWeight),
      smallestText: Math.min(...smallest),
    };
  });
}

describe('tables of figures', () => {
  for (const lang of LANGS) {
    it(`line their numbers up and set the total apart (${lang || '/en'} DCF, 375 px)`, async () => {
      const page = await openPage(browser, server.url + lang + '/valuation-models/dcf', { width: 375 });
      try {
        const facts = await tableFacts(page);
        assert.equal(Object.keys(facts.columns).length, 3, 'three columns of figures');
        for (const [column, rights] of Object.entries(facts.columns))
          assert.ok(Math.max(...rights) - Math.min(...rights) <= 1, `column ${column} right edges ${rights}`);
        assert.match(facts.tabular, /tabular-nums/);
        assert.match(facts.totalFirstCell, /^(Total|合計)$/);
        assert.ok(facts.totalWeight >= 600 && facts.bodyWeight < 600, `total ${facts.totalWeight}, body ${facts.bodyWeight}`);
        assert.ok(facts.totalRule >= 2, 'a rule above the totals row');
        assert.ok(facts.smallestText >= 14, `table text at ${facts.smallestText} px`);
      } finally {
        await page.closeContext();
      }
    });
  }

  it('no article text under 14 px at 375 px', async () => {
    const page = await openPage(browser, null, { width: 375 });
    const small = [];
    try {
      for (const lang of LANGS)
        for (const route of LONG_ARTICLES) {
          await visit(page, lang + route);
          const found = await page.evaluate(() =>
            Array.from(document.querySelectorAll('.article *'))
              .filter((el) => !el.closest('math') && Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.data.trim()))
              .map((el) => [el.tagName, parseFloat(getComputedStyle(el).fontSize)])
              .filter(([, size]) => size < 14),
          );
          if (found.length) small.push(`${lang}${route}: ${JSON.stringify(found.slice(0, 3))}`);
        }
    } finally {
      await page.closeContext();
    }
    assert.deepEqual(small, []);
  });

  it('too wide for a phone scroll inside their own box, by keyboard too', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/residual-income', { width: 375 });
    try {
      const scrolled = await scrollBoxByKeyboard(page, '.table-scroll');
      assert.ok(scrolled.box > 0, 'the table scrolled');
      assert.equal(scrolled.page, 0, 'the page did not');
    } finally {
      await page.closeContext();
    }
  });
});

describe('line length', () => {
  it('English running text keeps to about 65 to 70 characters a line on a wide screen', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/dcf', { width: 1600 });
    try {
      const lines = await page.evaluate(() => {
        const lines = [];
        for (const p of document.querySelectorAll('.article > p')) {
          const text = p.firstChild;
          if (!text || text.nodeType !== 3 || text.length < 20) continue;
          const top = (i) => {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            return range.getClientRects()[0]?.top;
          };
          // The characters on the paragraph's first line, if it has a second.
          const first = top(0);
          let i = 1;
          while (i < text.length && Math.abs(top(i) - first) < 4) i++;
          if (i < text.length) lines.push(i);
        }
        return lines.sort((a, b) => a - b);
      });
      assert.ok(lines.length >= 10, `${lines.length} paragraphs run over more than one line`);
      // Where a line breaks depends on the words, so the typical line is the measure.
      const median = lines[lines.length >> 1];
      assert.ok(median >= 60 && median <= 72, `a median of ${median} characters on a line`);
      assert.ok(lines.at(-1) <= 78, `${lines.at(-1)} characters on a line`);
    } finally {
      await page.closeContext();
    }
  });

  for (const lang of ['/ja', '/zh'])
    it(`${lang}: running text keeps to 36 full-width characters a line on a wide screen`, async () => {
      const page = await openPage(browser, server.url + lang + '/valuation-models/dcf', { width: 1600 });
      try {
        // Measured in em, the width of one CJK character, so it holds whatever CJK font is installed.
        const widest = await page.evaluate(() =>
          Math.max(
            ...Array.from(document.querySelectorAll('.article > p:not(:has(.math-scroll))')).map((p) => {
              const range = document.createRange();
              range.selectNodeContents(p);
              const lines = Array.from(range.getClientRects()).map((r) => r.width);
              return Math.max(...lines) / parseFloat(getComputedStyle(p).fontSize);
            }),
          ),
        );
        const column = await page.evaluate(
          () =>
            document.querySelector('.article').getBoundingClientRect().width /
            parseFloat(getComputedStyle(document.querySelector('.article p')).fontSize),
        );
        assert.ok(column > 40, `the column (${column.toFixed(1)}em) is wider than the measure`);
        assert.ok(widest <= 36.5, `lines ${widest.toFixed(1)}em wide`);
      } finally {
        await page.closeContext();
      }
    });
});

describe('Japanese and Chinese pages', () => {
  const FONTS = {
    ja: ['Hiragino Sans', 'Yu Gothic', 'Meiryo', 'Noto Sans JP', 'Noto Sans CJK JP'],
    zh: ['PingFang TC', 'Microsoft JhengHei', 'Noto Sans TC', 'Noto Sans CJK TC'],
  };

  for (const [lang, other] of [
    ['ja', 'zh'],
    ['zh', 'ja'],
  ]) {
    it(`${lang}: its own CJK fonts come first, with strict line breaks`, async () => {
      const page = await openPage(browser, server.url + `/${lang}/valuation-models/dcf`, { width: 1280 });
      try {
        const { family, lineBreak } = await page.evaluate(() => {
          const p = document.querySelector('.article p');
          return { family: getComputedStyle(p).fontFamily, lineBreak: getComputedStyle(p).lineBreak };
        });
        const at = (name) => family.indexOf(name);
        for (const font of FONTS[lang]) assert.ok(at(font) > 0, `${font} is in ${family}`);
        const firstOwn = Math.min(...FONTS[lang].map(at));
        for (const font of FONTS[other]) assert.ok(at(font) === -1 || at(font) > firstOwn, `${font} after ${lang}'s fonts`);
        assert.ok(at('system-ui') > firstOwn, 'system-ui (a CJK font of the system locale on Linux) comes after');
        assert.equal(lineBreak, 'strict');
      } finally {
        await page.closeContext();
      }
    });
  }

  it('English pages name no CJK font before the system font', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/dcf', { width: 1280 });
    try {
      const family = await page.evaluate(() => getComputedStyle(document.querySelector('.article p')).fontFamily);
      assert.doesNotMatch(family, /Hiragino|PingFang|JhengHei|CJK|Yu Gothic/);
    } finally {
      await page.closeContext();
    }
  });

  for (const width of [375, 320]) {
    it(`no paragraph ends on a line of one character (${width} px)`, async () => {
      const page = await openPage(browser, null, { width });
      const stranded = [];
      try {
        for (const lang of ['/zh', '/ja'])
          for (const route of ['/', ...LONG_ARTICLES, '/my-web-project/my-first-web-app']) {
            await visit(page, lang + route);
            const found = await page.evaluate(() => {
              const punctuation = /[\s。、，．,.：:；;！!？?」』）)\]】〉》”’…]/u;
              const result = [];
              for (const block of document.querySelectorAll('.article p, .article li')) {
                // The block's own characters (not a nested list's), a formula's too, with their height.
                const items = [];
                const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                  if (node.parentElement.closest('p, li') !== block || node.parentElement.closest('math')) continue;
                  for (let i = 0; i < node.length; i++) {
                    const range = document.createRange();
                    range.setStart(node, i);
                    range.setEnd(node, i + 1);
                    const rect = range.getClientRects()[0];
                    if (rect) items.push({ middle: (rect.top + rect.bottom) / 2, char: node.data[i] });
                  }
                }
                for (const math of block.querySelectorAll('math')) {
                  if (math.parentElement.closest('p, li') !== block) continue;
                  const rect = math.getBoundingClientRect();
                  for (const char of math.textContent) items.push({ middle: (rect.top + rect.bottom) / 2, char });
                }
                if (items.length === 0) continue;
                const half = parseFloat(getComputedStyle(block).lineHeight) / 2;
                const last = Math.max(...items.map((c) => c.middle));
                if (last - Math.min(...items.map((c) => c.middle)) < half) continue; // one line
                const lastLine = items.filter((c) => c.middle > last - half).map((c) => c.char);
                if (lastLine.filter((c) => !punctuation.test(c)).length <= 1) result.push(lastLine.join(''));
              }
              return result;
            });
            if (found.length) stranded.push(`${lang}${route}: ${JSON.stringify(found)}`);
          }
      } finally {
        await page.closeContext();
      }
      assert.deepEqual(stranded, []);
    });
  }
});

/** WCAG contrast of two computed colours (rgb()/rgba(), opaque ones). */
function contrast(a, b) {
  const luminance = (css) => {
    const [r, g, bl] = css
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map((v) => Number(v) / 255);
    const linear = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(bl);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('form fields', () => {
  for (const dark of [false, true]) {
    it(`have edges at 3:1 or more against their fill and what is around them (${dark ? 'dark' : 'light'})`, async () => {
      for (const route of ['/login', '/register', '/search']) {
        const page = await openPage(browser, server.url + route, { width: 1280, dark });
        try {
          const fields = await page.evaluate(() => {
            const opaque = (el) => {
              for (let e = el; e; e = e.parentElement) {
                const bg = getComputedStyle(e).backgroundColor;
                if (!/rgba\(.*,\s*0\)$/.test(bg) && bg !== 'transparent') return bg;
              }
              return 'rgb(255, 255, 255)';
            };
            return Array.from(document.querySelectorAll('input:not([type=hidden])')).map((input) => ({
              name: input.name || input.id,
              border: getComputedStyle(input).borderTopColor,
              fill: opaque(input),
              around: opaque(input.parentElement),
            }));
          });
          assert.ok(fields.length > 0, `${route} has fields`);
          for (const field of fields) {
            const inside = contrast(field.border, field.fill);
            const outside = contrast(field.border, field.around);
            assert.ok(inside >= 3 && outside >= 3, `${route} ${field.name}: ${inside.toFixed(2)}:1 and ${outside.toFixed(2)}:1`);
          }
        } finally {
          await page.closeContext();
        }
      }
    });
  }
});

describe('password fields', () => {
  for (const [route, field, show, hide] of [
    ['/login', 'Password', 'Show password', 'Hide password'],
    ['/register', 'Password', 'Show password', 'Hide password'],
    ['/zh/login', '密碼', '顯示密碼', '隱藏密碼'],
    ['/ja/register', 'パスワード', 'パスワードを表示', 'パスワードを隠す'],
  ]) {
    it(`show what was typed on request and hide it again (${route}, 375 px)`, async () => {
      const page = await openPage(browser, server.url + route, { width: 375 });
      try {
        const input = page.getByLabel(field, { exact: true });
        await input.fill('typed Secret 9');
        assert.equal(await input.getAttribute('type'), 'password');
        await page.getByRole('button', { name: show, exact: true }).click();
        assert.equal(await input.getAttribute('type'), 'text', 'the password is shown');
        assert.equal(await input.inputValue(), 'typed Secret 9', 'and kept');
        await page.getByRole('button', { name: hide, exact: true }).click();
        assert.equal(await input.getAttribute('type'), 'password', 'hidden again');
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    });
  }

  it('offer no show button that could not work without JavaScript', async () => {
    const page = await openPage(browser, server.url + '/login', { width: 375, javaScript: false });
    try {
      assert.equal(await page.getByRole('button', { name: 'Show password' }).count(), 0);
    } finally {
      await page.closeContext();
    }
  });
});

describe('reading aids', () => {
  it('1280 px: "On this page" sits beside the text and stays in view while reading; its links lead to the sections', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/dcf', { width: 1280 });
    try {
      const aside = page.getByRole('navigation', { name: 'On this page' });
      assert.equal(await aside.count(), 1, 'one contents list is shown');
      assert.equal(await page.locator('.contents-compact').isVisible(), false, 'the collapsed one is not');
      const [list, article] = await Promise.all([aside.boundingBox(), page.locator('article.article').boundingBox()]);
      assert.ok(list.x >= article.x + article.width, `beside the text: list at ${list.x}, text ends at ${article.x + article.width}`);
      const link = aside.getByRole('link').nth(4);
      const target = (await link.getAttribute('href')).slice(1);
      await link.click();
      await page.waitForFunction((id) => location.hash === `#${id}`, target);
      await page.waitForFunction((id) => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 200, target);
      const box = await aside.boundingBox();
      assert.ok(box.y >= 0 && box.y < 900, `the list is still in view after the jump (top ${box.y})`);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('1280 px: "On this page" marks the section being read as the reader scrolls, without moving the list', async () => {
    const page = await openPage(browser, server.url + '/valuation-models/dcf', { width: 1280 });
    try {
      await waitForIslands(page);
      const aside = page.getByRole('navigation', { name: 'On this page' });
      const links = aside.getByRole('link');
      // Each entry's box within the list: the column itself may still move while the page's
      // fonts and images arrive, which is not the mark's doing.
      const boxes = () =>
        links.evaluateAll((all) => {
          const list = all[0].closest('nav').getBoundingClientRect();
          return all.map((a) => {
            const { x, y, width, height } = a.getBoundingClientRect();
            return [x - list.x, y - list.y, width, height];
          });
        });
      await page.evaluate(() => document.fonts.ready);
      const before = await boxes();
      const current = () => aside.locator('a[aria-current="location"]').evaluateAll((all) => all.map((a) => a.hash));
      for (const n of [5, 2, 7]) {
        const hash = await links.nth(n).evaluate((a) => a.hash);
        // Scrolled by the page, not by the link, so the mark follows reading, not a click.
        await page.evaluate(
          (id) => {
            const top = document.getElementById(id).getBoundingClientRect().top + scrollY;
            scrollTo(0, top - 150);
          },
          decodeURIComponent(hash.slice(1)),
        );
        await page.waitForFunction((h) => document.querySelector(`.contents-aside a[aria-current="location"]`)?.hash === h, hash);
        assert.deepEqual(await current(), [hash], 'one entry is marked');
        const mark = await aside.locator('a[aria-current]').evaluate((a) => getComputedStyle(a).color);
        const plain = await links.nth(n === 2 ? 3 : 2).evaluate((a) => getComputedStyle(a).color);
        assert.notEqual(mark, plain, 'the marked entry looks different');
      }
      await page.evaluate(() => scrollTo(0, 0));
      // Within a pixel: a mark that pushed the entries would move them by its border or padding.
      const after = await boxes();
      const moved = after.filter((box, i) => box.some((v, k) => Math.abs(v - before[i][k]) >= 1));
      assert.deepEqual(moved, [], 'marking moved no entry of the list');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  for (const javaScript of [true, false]) {
    it(`375 px: "On this page" is a collapsed list above the text that opens on a tap (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const page = await openPage(browser, server.url + '/ja/valuation-models/dcf', { width: 375, javaScript });
      try {
        assert.equal(await page.locator('.contents-aside').isVisible(), false, 'no column beside the text');
        const summary = page.locator('.contents-compact summary');
        assert.equal(await summary.textContent(), 'このページの内容');
        const [box, article] = await Promise.all([summary.boundingBox(), page.locator('article.article').boundingBox()]);
        assert.ok(box.y + box.height <= article.y, 'above the text');
        const first = page.locator('.contents-compact a').first();
        assert.equal(await first.isVisible(), false, 'collapsed at first');
        await summary.click();
        assert.equal(await first.isVisible(), true, 'open after a tap');
        const width = await pageWidth(page);
        assert.ok(width.scroll <= width.viewport, `no sideways scroll: ${width.scroll} > ${width.viewport}`);
      } finally {
        await page.closeContext();
      }
    });
  }

  it('articles give their date, reading time and their neighbours in the section', async () => {
    const page = await openPage(browser, server.url + '/zh/notes/liquidity-risk', { width: 375 });
    try {
      assert.match(await page.locator('.page-header .page-meta').innerText(), /^2025年10月1日\s*·?\s*閱讀時間約 \d+ 分鐘$/);
      await page.goto(server.url + '/investment-basics/risk-and-reward');
      const pager = page.getByRole('navigation', { name: 'More in this section' });
      const links = pager.getByRole('link');
      assert.equal(await links.count(), 2);
      await pager.getByRole('link', { name: /Next/ }).click();
      await page.waitForURL(/\/investment-basics\/(types-of-investments|what-is-investing)$/);
      await pager.getByRole('link', { name: /Previous/ }).click();
      await page.waitForURL(/\/investment-basics\/risk-and-reward$/);
    } finally {
      await page.closeContext();
    }
  });
});

describe('list cards', () => {
  for (const width of [375, 1280]) {
    it(`are one link each: a tap anywhere on the card opens it, and the focus ring circles the card (${width} px)`, async () => {
      const page = await openPage(browser, server.url + '/valuation-models', { width });
      try {
        const card = page.locator('.section-children li.card').first();
        const link = card.getByRole('link');
        assert.equal(await link.count(), 1);
        const href = await link.getAttribute('href');
        const name = await link.innerText();
        assert.equal((await link.getAttribute('aria-label')) ?? name, name, 'the title names the link');
        await link.focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        const ring = await card.evaluate((el) => getComputedStyle(el).outlineStyle);
        assert.equal(ring, 'solid', 'the card shows keyboard focus');
        const box = await card.boundingBox();
        // The card's lower right corner, away from the title.
        await page.mouse.click(box.x + box.width - 8, box.y + box.height - 8);
        await page.waitForURL((url) => url.pathname === href);
      } finally {
        await page.closeContext();
      }
    });
  }
});

describe('the register form', () => {
  it('shows the password rule before anything is submitted (375 px)', async () => {
    const page = await openPage(browser, server.url + '/ja/register', { width: 375 });
    try {
      const input = page.getByLabel('パスワード', { exact: true });
      const described = await input.evaluate((el) =>
        el
          .getAttribute('aria-describedby')
          .split(' ')
          .map((id) => document.getElementById(id).textContent),
      );
      assert.deepEqual(described, ['パスワードは 12〜128 文字にしてください。']);
      assert.equal(await page.getByText('パスワードは 12〜128 文字にしてください。').isVisible(), true);
    } finally {
      await page.closeContext();
    }
  });
});

describe('headings of an article', () => {
  for (const width of [1280, 375]) {
    it(`sets h3 at 20 px or more, between the text and h2 (${width}px)`, async () => {
      const page = await openPage(browser, `${server.url}/valuation-models/dcf`, { width });
      try {
        const size = (selector) =>
          page
            .locator(selector)
            .first()
            .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
        const [h2, h3, text] = [await size('.article > h2'), await size('.article > h3'), await size('.article > p')];
        assert.ok(h3 >= 20, `h3 is ${h3}px`);
        assert.ok(h3 > text && h3 < h2, `h3 ${h3}px, h2 ${h2}px, text ${text}px`);
      } finally {
        await page.closeContext();
      }
    });
  }
});
