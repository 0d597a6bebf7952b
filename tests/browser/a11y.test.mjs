// axe-core on every page type, light and dark, desktop and mobile: no serious or critical
// violations.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { openPage, useServerAndBrowser, waitForStillness } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

const PAGES = {
  home: '/',
  article: '/valuation-models/dcf',
  list: '/notes',
  note: '/notes/liquidity-risk',
  section: '/investment-basics',
  search: '/search?q=dcf',
  login: '/login',
  register: '/register',
  legal: '/climbers-deal-terms',
  'home (zh)': '/zh/',
  'article (ja)': '/ja/valuation-models/ddm',
  tags: '/tags',
  'tag (zh)': '/zh/tags/risk',
};

const VARIANTS = [
  { width: 1280, dark: false },
  { width: 1280, dark: true },
  { width: 375, dark: false },
  { width: 375, dark: true },
];

let server;
let browser;
useServerAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

/** Runs axe in the page (through the DevTools protocol, so the page's CSP does not apply). */
async function seriousViolations(page) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    window.axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('\n    ')}`,
    );
}

for (const [name, route] of Object.entries(PAGES)) {
  describe(`a11y: ${name}`, () => {
    for (const { width, dark } of VARIANTS) {
      it(`${route} at ${width}px, ${dark ? 'dark' : 'light'}`, async () => {
        const page = await openPage(browser, server.url + route, { width, dark });
        try {
          // Let the fade-ins finish: half-faded text would be judged on its own contrast.
          await waitForStillness(page);
          assert.deepEqual(await seriousViolations(page), []);
        } finally {
          await page.closeContext();
        }
      });
    }
  });
}
