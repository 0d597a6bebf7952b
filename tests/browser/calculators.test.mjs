// The valuation calculators in a real browser against the real server: they open at their
// article's example, follow typing and the keyboard, keep their inputs in the address (a shared
// link restores them), explain bad input next to the field in the page's language, read without
// JavaScript, and stay within their weight budget on their own pages only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { distDir, openPage, useServerAndBrowser, waitForIslands } from './harness.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

// The calculator's own headline, the first of its live regions (the DCF's cases and price have theirs).
const headline = (page) => page.locator('.calc [aria-live="polite"]').first().textContent();
const money = (x) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(x);
const query = (page) => Object.fromEntries(new URL(page.url()).searchParams);

/** The DCF article's arithmetic, written out again so the calculator is checked against it. */
function valuePerShare(cashFlows, r, g, netDebt, shares) {
  const n = cashFlows.length;
  const explicit = cashFlows.reduce((sum, cf, t) => sum + cf / (1 + r) ** (t + 1), 0);
  const terminal = (cashFlows[n - 1] * (1 + g)) / (r - g) / (1 + r) ** n;
  return (explicit + terminal - netDebt) / shares;
}

/** The message a field points at with aria-describedby, after checking it is marked invalid. */
async function fieldError(field) {
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  const id = await field.getAttribute('aria-describedby');
  return field.page().locator(`[id="${id}"]`).textContent();
}

async function assertNoBadNumbers(page) {
  const text = await page.locator('.calc').textContent();
  assert.doesNotMatch(text, /NaN|Infinity|undefined/);
}

describe('calculators', () => {
  it('DCF: starts at the example, follows typing, adds a year, and a reload restores it all', async () => {
    const page = await openPage(browser, `${server.url}/valuation-models/dcf`);
    try {
      assert.equal(await headline(page), 'Value per share: $25.12');
      const rate = page.getByLabel('Discount rate, WACC (%)', { exact: true });
      assert.equal(await rate.inputValue(), '10');
      await rate.fill('12');
      const twelve = money(valuePerShare([100, 110, 120, 130, 140], 0.12, 0.02, 300, 50));
      assert.equal(await headline(page), `Value per share: ${twelve}`);
      await page.waitForFunction(() => new URLSearchParams(location.search).get('r') === '12');

      await page.getByRole('button', { name: 'Add a year' }).click();
      const year6 = page.getByLabel('Year 6', { exact: true });
      assert.equal(await year6.inputValue(), '140', 'a new year starts at the last one');
      const sixYears = money(valuePerShare([100, 110, 120, 130, 140, 140], 0.12, 0.02, 300, 50));
      assert.equal(await headline(page), `Value per share: ${sixYears}`);
      await page.waitForFunction(() => new URLSearchParams(location.search).get('cf6') === '140');
      assert.deepEqual(query(page), {
        cf1: '100',
        cf2: '110',
        cf3: '120',
        cf4: '130',
        cf5: '140',
        cf6: '140',
        r: '12',
        g: '2',
        debt: '300',
        shares: '50',
      });

      await page.reload({ waitUntil: 'load' });
      await waitForIslands(page);
      assert.equal(await page.getByLabel('Discount rate, WACC (%)', { exact: true }).inputValue(), '12');
      assert.equal(await page.getByLabel('Year 6', { exact: true }).inputValue(), '140');
      assert.equal(await headline(page), `Value per share: ${sixYears}`);
      const middle = page.locator('.calc-grid td.calc-base');
      assert.equal(await middle.textContent(), sixYears, 'the sensitivity grid is centred on the inputs');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('DCF in Chinese: a shared link restores its inputs; growth at the discount rate and negative shares are explained', async () => {
    const link = '/zh/valuation-models/dcf?cf1=50&cf2=60&r=8&g=3&debt=-20&shares=10&utm_source=mail';
    const page = await openPage(browser, server.url + link);
    try {
      assert.equal(await page.getByLabel('第 1 年', { exact: true }).inputValue(), '50');
      assert.equal(await page.getByLabel('第 2 年', { exact: true }).inputValue(), '60');
      assert.equal(await page.getByLabel('第 3 年', { exact: true }).count(), 0, "the link's two years replace the example's five");
      assert.equal(await page.getByLabel('淨負債（百萬）', { exact: true }).inputValue(), '-20');
      assert.equal(await headline(page), `每股價值：${money(valuePerShare([50, 60], 0.08, 0.03, -20, 10))}`);

      const growth = page.getByLabel('永續成長率（%）', { exact: true });
      await growth.fill('8');
      assert.equal(await fieldError(growth), '成長率必須低於折現率（8%），否則價值會變成無限大。');
      assert.equal(await headline(page), '請修正標示的欄位，才能看到結果。');
      assert.equal(await page.locator('.calc math').count(), 0, 'no formula without a result');
      await assertNoBadNumbers(page);

      const shares = page.getByLabel('稀釋後股數（百萬股）', { exact: true });
      await shares.fill('-5');
      assert.equal(await fieldError(shares), '請輸入大於零的數字。');
      await page.waitForFunction(() => new URLSearchParams(location.search).get('shares') === '-5');
      assert.equal(new URL(page.url()).searchParams.get('utm_source'), 'mail', 'other parameters stay');

      await growth.fill('3');
      await shares.fill('10');
      assert.equal(await growth.getAttribute('aria-invalid'), null);
      assert.match(await headline(page), /^每股價值：\$/);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('DCF against a market price: typed by keyboard, the implied growth and return and the margin of safety, kept in the address', async () => {
    const page = await openPage(browser, `${server.url}/valuation-models/dcf`);
    try {
      const lines = () => page.locator('.calc-price p').allTextContents();
      assert.deepEqual(await lines(), [
        'Enter the market price per share to see the terminal growth and the return it implies, and your margin of safety.',
      ]);
      await page.getByLabel('Bull case: terminal growth against yours (points)', { exact: true }).focus();
      await page.keyboard.press('Tab');
      const price = page.getByLabel('Market price per share ($)', { exact: true });
      assert.equal(await price.evaluate((el) => el === document.activeElement), true, 'the price follows the cases in tab order');
      await page.keyboard.type('24');
      const [growth, rate, margin, weighted] = await lines();
      assert.equal(growth, 'At your discount rate of 10%, the price implies terminal growth of 1.61% a year (yours: 2%).');
      assert.equal(rate, 'At your terminal growth of 2%, the price implies a return of 10.29% a year (your discount rate: 10%).');
      assert.equal(margin, 'The price is 4.5% below the value of $25.12: a margin of safety of 4.5%.');
      // The default cases: −10% of cash and −1 point of growth, +10% and +0.5 point, 25/50/25.
      const cases = [
        valuePerShare([90, 99, 108, 117, 126], 0.1, 0.01, 300, 50),
        valuePerShare([100, 110, 120, 130, 140], 0.1, 0.02, 300, 50),
        valuePerShare([110, 121, 132, 143, 154], 0.1, 0.025, 300, 50),
      ];
      const value = 0.25 * cases[0] + 0.5 * cases[1] + 0.25 * cases[2];
      const percent = ((value - 24) / value) * 100;
      assert.equal(
        weighted,
        `The price is ${percent.toFixed(1)}% below the probability-weighted value of ${money(value)}: a margin of safety of ${percent.toFixed(1)}%.`,
      );
      await page.waitForFunction(() => new URLSearchParams(location.search).get('price') === '24');

      await page.reload({ waitUntil: 'load' });
      await waitForIslands(page);
      assert.equal(await page.getByLabel('Market price per share ($)', { exact: true }).inputValue(), '24');
      assert.equal((await lines())[2], 'The price is 4.5% below the value of $25.12: a margin of safety of 4.5%.');
      await assertNoBadNumbers(page);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('DCF against a market price in Chinese: a shared price, cases whose probabilities do not add up, a price above the value', async () => {
    const page = await openPage(browser, `${server.url}/zh/valuation-models/dcf?price=24`);
    try {
      const lines = () => page.locator('.calc-price p').allTextContents();
      const [growth, rate, margin] = await lines();
      assert.equal(growth, '在你的折現率 10% 下，這個股價隱含每年 1.61% 的永續成長率（你的預測：2%）。');
      assert.equal(rate, '在你的永續成長率 2% 下，這個股價隱含每年 10.29% 的報酬率（你的折現率：10%）。');
      assert.equal(margin, '股價比價值 $25.12 低 4.5%：安全邊際為 4.5%。');

      await page.getByLabel('基本情境（你的預測）：機率（%）', { exact: true }).fill('40');
      const bull = page.getByLabel('樂觀情境：機率（%）', { exact: true });
      assert.equal(await fieldError(bull), '三個情境的機率加起來必須是 100%。');
      assert.equal((await lines()).length, 3, 'no margin against a weighted value that cannot be computed');
      await page.waitForFunction(() => new URLSearchParams(location.search).get('pbase') === '40');
      await page.getByLabel('悲觀情境：機率（%）', { exact: true }).fill('35');
      assert.equal(await bull.getAttribute('aria-invalid'), null);

      await page.getByLabel('每股市價（美元）', { exact: true }).fill('30');
      assert.equal((await lines())[2], '股價比價值 $25.12 高 19.4%：沒有安全邊際。');
      await assertNoBadNumbers(page);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('DDM in Japanese: the keyboard picks a model, r ≤ g and text are explained, and the link restores the model', async () => {
    const page = await openPage(browser, `${server.url}/ja/valuation-models/ddm`);
    try {
      assert.equal(await headline(page), '1株当たり価値：$41.60');
      await page.getByRole('radio', { name: '定率成長（ゴードン）' }).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.getByRole('radio', { name: '多段階' }).isChecked(), true);
      assert.equal(await headline(page), '1株当たり価値：$43.81');

      const rate = page.getByLabel('要求収益率 r（%）', { exact: true });
      await rate.focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('3');
      const growth = page.getByLabel('その後の安定成長率 g（%）', { exact: true });
      assert.equal(await fieldError(growth), '成長率は割引率（3%）より低くしてください。そうでないと価値が無限大になります。');
      const dividend = page.getByLabel('直近の1株当たり配当 D₀（ドル）', { exact: true });
      await dividend.fill('abc');
      assert.equal(await fieldError(dividend), '12.5 のように数字で入力してください。');
      await dividend.fill('');
      assert.equal(await fieldError(dividend), '数字を入力してください。');
      await assertNoBadNumbers(page);
      await page.waitForFunction(() => location.search === '?model=multi&d0=&gh=20&n=3&g=3&r=3');

      const shared = await openPage(browser, page.url());
      try {
        assert.equal(await shared.getByRole('radio', { name: '多段階' }).isChecked(), true);
        assert.equal(await shared.getByLabel('要求収益率 r（%）', { exact: true }).inputValue(), '3');
        assert.equal(
          await fieldError(shared.getByLabel('その後の安定成長率 g（%）', { exact: true })),
          '成長率は割引率（3%）より低くしてください。そうでないと価値が無限大になります。',
        );
        assert.deepEqual(shared.problems(), []);
      } finally {
        await shared.closeContext();
      }
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('multiples: each article opens at its own example, and the peers’ multiple moves the implied price', async () => {
    const expected = {
      '/valuation-models/pe': "P/E: 15.0. At the peers' multiple the share would be worth $72.00.",
      '/valuation-models/ps': "P/S: 3.0. At the peers' multiple the share would be worth $37.50.",
      '/zh/valuation-models/pb': '股價淨值比：1.20；買回後：1.26。',
      '/ja/valuation-models/ev-ebitda': 'EV/EBITDA 倍率：8.0。同業の倍率なら株価は $34.90 です。',
    };
    for (const [route, text] of Object.entries(expected)) {
      const page = await openPage(browser, server.url + route);
      try {
        assert.equal(await headline(page), text, route);
        assert.deepEqual(page.problems(), [], route);
      } finally {
        await page.closeContext();
      }
    }
    const page = await openPage(browser, `${server.url}/valuation-models/pe`);
    try {
      await page.getByLabel("Peers' P/E", { exact: true }).fill('20');
      assert.equal(await headline(page), "P/E: 15.0. At the peers' multiple the share would be worth $80.00.");
      await page.getByLabel('Net income (millions)', { exact: true }).fill('0');
      assert.equal(await fieldError(page.getByLabel('Net income (millions)', { exact: true })), 'Enter a number greater than zero.');
      await assertNoBadNumbers(page);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('EV/EBITDA: the bridge from the share price follows the options, and a multiple that leaves shareholders nothing is refused', async () => {
    const page = await openPage(browser, `${server.url}/valuation-models/ev-ebitda`);
    try {
      assert.equal(await headline(page), "EV/EBITDA: 8.0. At the peers' multiple the share would be worth $34.90.");
      // Struck above the share price the options are not exercised: 100 shares, EV 3,000 + 940.
      await page.getByLabel('Their exercise price ($)', { exact: true }).fill('40');
      assert.equal(await headline(page), "EV/EBITDA: 7.9. At the peers' multiple the share would be worth $35.60.");
      await page.waitForURL(/strike=40/);
      const peers = page.getByLabel("Peers' EV/EBITDA", { exact: true });
      await peers.fill('1');
      assert.equal(
        await fieldError(peers),
        'At this multiple the debt, preferred shares and minority interests less cash take the whole enterprise value: nothing is left for the shareholders.',
      );
      await assertNoBadNumbers(page);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
    // The address restores the reader's numbers.
    const again = await openPage(browser, `${server.url}/valuation-models/ev-ebitda?strike=40`);
    try {
      assert.equal(await headline(again), "EV/EBITDA: 7.9. At the peers' multiple the share would be worth $35.60.");
    } finally {
      await again.closeContext();
    }
  });

  it('reads without JavaScript: the prerendered calculator shows the example and says why it is fixed', async () => {
    const page = await openPage(browser, `${server.url}/valuation-models/dcf`, { javaScript: false });
    try {
      assert.equal(await headline(page), 'Value per share: $25.12');
      assert.equal(await page.locator('.calc-nojs').isVisible(), true);
      assert.equal(await page.getByRole('button', { name: 'Add a year' }).isVisible(), false);
      assert.equal(await page.locator('.calc-math > math').count(), 4);
    } finally {
      await page.closeContext();
    }
  });

  for (const dark of [false, true]) {
    it(`fits a 375px phone (${dark ? 'dark' : 'light'}): the calculator is no wider than the screen, its wide parts scroll by keyboard`, async () => {
      const page = await openPage(browser, `${server.url}/valuation-models/ddm?model=multi`, { width: 375, dark });
      try {
        assert.equal(await headline(page), 'Value per share: $43.81');
        const fits = await page
          .locator('.calc')
          .evaluate((calc) => calc.getBoundingClientRect().right <= window.innerWidth && calc.scrollWidth <= calc.clientWidth);
        assert.equal(fits, true);
        for (const region of await page.locator('.calc-scroll').all()) {
          assert.equal(await region.getAttribute('tabindex'), '0');
          assert.ok(await region.getAttribute('aria-labelledby'));
        }
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    });
  }

  it('each calculator adds at most 8 KB of gzipped JavaScript, and only on its own pages', async () => {
    const manifest = JSON.parse(await readFile(path.join(distDir, 'assets/manifest.json'), 'utf8'));
    const chrome = new Set([manifest.entry, ...['TopBar', 'Sidebar', 'Welcome'].flatMap((name) => manifest.islands[name])]);
    const gzipped = async (url) => gzipSync(await readFile(path.join(distDir, url)), { level: 9 }).length;
    const own = {};
    for (const name of ['DcfCalculator', 'DdmCalculator', 'MultiplesCalculator', 'WaccCalculator']) {
      const added = manifest.islands[name].filter((url) => !chrome.has(url));
      const bytes = (await Promise.all(added.map(gzipped))).reduce((a, b) => a + b, 0);
      assert.ok(bytes <= 8 * 1024, `${name} adds ${bytes} bytes gzipped`);
      own[name] = manifest.islands[name][0];
    }
    const preloads = async (route) => {
      const html = await (await fetch(server.url + route)).text();
      // The entry, then the chunks the page's islands need (loaded after its first paint).
      const named = /<meta name="island-scripts" content="([^"]*)">/.exec(html);
      return named ? named[1].split(' ').slice(1) : [];
    };
    const pages = {
      '/valuation-models/dcf': 'DcfCalculator',
      '/ja/valuation-models/ddm': 'DdmCalculator',
      '/zh/valuation-models/pb': 'MultiplesCalculator',
      '/': null,
      '/valuation-models': null,
      '/notes': null,
    };
    for (const [route, name] of Object.entries(pages)) {
      const list = await preloads(route);
      const present = Object.entries(own)
        .filter(([, url]) => list.includes(url))
        .map(([calculator]) => calculator);
      assert.deepEqual(present, name ? [name] : [], route);
    }
  });
});
