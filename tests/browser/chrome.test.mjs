// The site chrome in a real browser against the real server: top bar, sidebar, dark mode,
// language, welcome dialog, profile image, logout, chunk failures, and pages without JavaScript.
// Every behaviour at 1280px and 375px, in light and dark mode.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  createMember,
  darkAtFirstPaint,
  distDir,
  launchBrowser,
  logIn,
  nextFrames,
  openPage,
  useServerAndBrowser,
  waitForIslands,
  waitForStillness,
  watchFirstPaint,
} from './harness.mjs';

let server;
let browser;
useServerAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const isMobile = (width) => width <= 768;
const storage = (page, key) => page.evaluate((k) => localStorage.getItem(k), key);
const hasDarkClass = (page) =>
  page.evaluate(() => document.documentElement.classList.contains('dark-mode') && document.body.classList.contains('dark-mode'));

const focusInDrawer = (page) => page.evaluate(() => document.querySelector('.sidebar').contains(document.activeElement));

/**
 * On a phone the sidebar is a labelled drawer behind the menu button: hidden until opened, the
 * current page marked and focused, Tab kept inside, everything else inert, Escape and the scrim
 * close it, and focus goes back to the menu button.
 */
async function checkDrawer(page) {
  const sidebar = page.locator('.sidebar');
  const button = page.locator('.menu-button');
  assert.equal(await sidebar.isVisible(), false, 'closed at first');
  assert.equal(await button.isVisible(), true);
  assert.equal(await button.getAttribute('aria-label'), 'Menu');
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  assert.equal(await button.getAttribute('aria-controls'), await sidebar.getAttribute('id'));
  await button.click();
  await sidebar.waitFor({ state: 'visible' });
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  assert.equal(await sidebar.getAttribute('aria-label'), 'Site menu');
  assert.deepEqual(
    await page.evaluate(() => [document.activeElement.getAttribute('href'), document.activeElement.getAttribute('aria-current')]),
    ['/notes', 'page'],
    'the current page is marked and has the focus',
  );
  assert.ok((await sidebar.boundingBox()).width > 200, 'the full menu, labels and all');
  assert.equal(await page.locator('.sidebar-label').first().isVisible(), true);
  assert.equal(await page.locator('main').evaluate((el) => el.closest('[inert]') !== null), true, 'the page behind is inert');
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    assert.equal(await focusInDrawer(page), true, `focus left the drawer after ${key}`);
  }
  await page.keyboard.press('Escape');
  await sidebar.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('menu-button')), true, 'focus back on the button');
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('main').evaluate((el) => el.closest('[inert]') === null), true);
  // The scrim beside the drawer closes it too.
  await button.click();
  await sidebar.waitFor({ state: 'visible' });
  // At the viewport's right edge: beside the drawer, wherever its slide has got to.
  await page.mouse.click(page.viewportSize().width - 8, 400);
  await sidebar.waitFor({ state: 'hidden' });
}

/** Opens the top bar's tools dropdown (the "more" menu). */
async function openTools(page) {
  await page.locator('.tools-dropdown > summary').click();
  await page.locator('.tools-dropdown .dropdown-panel').waitFor({ state: 'visible' });
}

for (const width of [1280, 375]) {
  for (const dark of [false, true]) {
    const theme = dark ? 'dark' : 'light';
    describe(`chrome at ${width}px, ${theme}`, () => {
      it('opens pages with no console error and no hydration warning', async () => {
        for (const route of ['/', '/valuation-models/dcf', '/notes', '/zh/notes/liquidity-risk', '/ja/about']) {
          const page = await openPage(browser, null, { width, dark });
          try {
            const localeRequests = [];
            page.on('request', (request) => {
              if (new URL(request.url()).pathname.startsWith('/locales/')) localeRequests.push(request.url());
            });
            await page.goto(server.url + route);
            await waitForIslands(page);
            assert.equal(await hasDarkClass(page), dark, `${route}: dark-mode class`);
            assert.equal(await page.locator('.topbar').count(), 1, `${route}: top bar`);
            // Let the login check finish before judging the console.
            await page.waitForLoadState('networkidle');
            assert.deepEqual(page.problems(), [], `${route}: console`);
            // The page carries its own language's text: no request for it.
            assert.deepEqual(localeRequests, [], `${route}: locale requests`);
          } finally {
            await page.closeContext();
          }
        }
      });

      it('hydrates without layout shift', async () => {
        const page = await openPage(browser, null, { width, dark });
        try {
          // Islands hydrate after the document is parsed (module scripts are deferred), so count the
          // shifts from DOMContentLoaded on; a paint of a half-received document is not hydration.
          await page.addInitScript(() => {
            window.__layoutShift = 0;
            new PerformanceObserver((list) => {
              const parsed = performance.getEntriesByType('navigation')[0]?.domContentLoadedEventStart || Infinity;
              for (const entry of list.getEntries()) if (entry.startTime >= parsed) window.__layoutShift += entry.value;
            }).observe({ type: 'layout-shift', buffered: true });
          });
          await page.goto(`${server.url}/valuation-models/dcf`);
          await waitForIslands(page);
          await page.waitForLoadState('networkidle');
          // Shifts are reported with the frame that paints them: wait for the frames after the last
          // answer (the login check) and the fade-ins.
          await waitForStillness(page);
          await nextFrames(page);
          assert.equal(await page.evaluate(() => window.__layoutShift), 0);
        } finally {
          await page.closeContext();
        }
      });

      it('toggles dark mode, stores it, and applies it before first paint on the next page', async () => {
        const page = await openPage(browser, `${server.url}/valuation-models/dcf`, { width, dark });
        try {
          const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          const before = await background();
          await openTools(page);
          await page.locator('.tools-dropdown button[aria-pressed]').click();
          assert.equal(await hasDarkClass(page), !dark);
          assert.equal(await storage(page, 'darkMode'), String(!dark));
          assert.notEqual(await background(), before);
          assert.equal(await page.locator('.tools-dropdown button[aria-pressed]').getAttribute('aria-pressed'), String(!dark));
          // The class must already be on <html> when <body> is created: no flash of the other theme.
          await watchFirstPaint(page);
          await page.goto(`${server.url}/notes`);
          await waitForIslands(page);
          assert.equal(await darkAtFirstPaint(page), !dark);
          assert.equal(await hasDarkClass(page), !dark);
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });

      it('switches language to the prefixed page and remembers it', async () => {
        const page = await openPage(browser, `${server.url}/valuation-models/dcf`, { width, dark });
        try {
          if (isMobile(width)) {
            assert.equal(await page.locator('.lang-buttons').isVisible(), false, 'buttons collapse into a dropdown');
            await page.locator('.lang-dropdown > summary').click();
            await page.locator('.lang-dropdown a[hreflang="zh-Hant"]').click();
          } else {
            assert.equal(await page.locator('.lang-dropdown').isVisible(), false);
            await page.locator('.lang-buttons a[hreflang="zh-Hant"]').click();
          }
          await page.waitForURL(`${server.url}/zh/valuation-models/dcf`);
          await waitForIslands(page);
          assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hant');
          assert.equal(await storage(page, 'selectedLanguage'), 'zh');
          const cookies = await page.context().cookies(server.url);
          assert.equal(cookies.find((c) => c.name === 'selectedLanguage')?.value, 'zh');
          // An unprefixed address now opens in Chinese.
          await page.goto(`${server.url}/notes`);
          await waitForIslands(page);
          assert.equal(await page.getAttribute('html', 'data-lang'), 'zh');
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });

      it('keeps the language and tools dropdowns mutually exclusive', async () => {
        const page = await openPage(browser, `${server.url}/notes`, { width: 375, dark });
        try {
          await page.locator('.lang-dropdown > summary').click();
          assert.equal(await page.locator('.lang-dropdown').getAttribute('open'), '');
          await page.locator('.tools-dropdown > summary').click();
          await page.waitForFunction(() => !document.querySelector('.lang-dropdown').open);
          assert.equal(await page.locator('.tools-dropdown').getAttribute('open'), '');
          await page.keyboard.press('Escape');
          await page.waitForFunction(() => !document.querySelector('.tools-dropdown').open);
          // The browser runs input before the task that fires a click's `toggle` event: a key or a
          // press outside that comes in between still closes the menu just opened.
          for (const closer of ['keydown', 'pointerdown']) {
            await page.evaluate((type) => {
              document.querySelector('.tools-dropdown > summary').click();
              const event =
                type === 'keydown' ? new KeyboardEvent(type, { key: 'Escape', bubbles: true }) : new PointerEvent(type, { bubbles: true });
              (type === 'keydown' ? document.activeElement : document.querySelector('main')).dispatchEvent(event);
            }, closer);
            await page.waitForFunction(() => !document.querySelector('.tools-dropdown').open);
          }
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });

      it('collapses and expands the sidebar', async () => {
        const page = await openPage(browser, `${server.url}/notes`, { width, dark, storage: { expandedMenus: '["notes"]' } });
        try {
          const sidebar = page.locator('.sidebar');
          const sidebarWidth = async () => (await sidebar.boundingBox()).width;
          if (isMobile(width)) {
            await checkDrawer(page);
            // A tap on an item closes it again after about 500 ms: still open a task after the tap
            // (before any 500 ms timer set by it), closed no sooner than 500 ms after it.
            await page.locator('.menu-button').click();
            await sidebar.waitFor({ state: 'visible' });
            await page.evaluate(() => {
              const aside = document.querySelector('.sidebar');
              document.addEventListener(
                'click',
                (event) => {
                  event.preventDefault();
                  window.__tap = { at: performance.now() };
                  setTimeout(() => (window.__tap.openAfter = aside.classList.contains('is-open')), 0);
                },
                { once: true, capture: true },
              );
              new MutationObserver((_, observer) => {
                if (aside.classList.contains('is-open')) return;
                window.__tap.closedAfter = performance.now() - window.__tap.at;
                observer.disconnect();
              }).observe(aside, { attributes: true, attributeFilter: ['class'] });
            });
            await page.locator('.sidebar-link[href="/notes"]').click();
            await sidebar.waitFor({ state: 'hidden' });
            const tap = await page.evaluate(() => window.__tap);
            assert.equal(tap.openAfter, true, 'still open right after the tap');
            assert.ok(tap.closedAfter >= 495, `closed ${tap.closedAfter} ms after the tap, not ~500 ms`);
            await page.locator('.menu-button').click();
            await sidebar.waitFor({ state: 'visible' });
          } else {
            assert.ok((await sidebarWidth()) > 200, 'expanded on desktop');
            assert.equal(await page.locator('.menu-button').isVisible(), false, 'no menu button on desktop');
          }
          // The collapse-sidebar event clears expanded submenus.
          assert.equal(await storage(page, 'expandedMenus'), '["notes"]');
          await page.evaluate(() => window.dispatchEvent(new Event('collapse-sidebar')));
          assert.equal(await storage(page, 'expandedMenus'), '[]');
          if (isMobile(width)) {
            // It closes the drawer too; the footer's buttons are in it.
            await sidebar.waitFor({ state: 'hidden' });
            await page.locator('.menu-button').click();
            await sidebar.waitFor({ state: 'visible' });
          }
          // Sidebar footer buttons: tooltips, and the two placeholders alert.
          // Tooltips in Traditional Chinese on every page; accessible names in the page language.
          const tips = await page
            .locator('.sidebar-footer [title]')
            .evaluateAll((els) => els.map((e) => [e.getAttribute('title'), e.getAttribute('aria-label')]));
          assert.deepEqual(tips, [
            ['切換深色模式', 'Toggle dark mode'],
            ['搜尋', 'Search'],
            ['文件', 'Documentation'],
            ['設定', 'Settings'],
          ]);
          assert.equal(await page.locator('.sidebar-footer a').getAttribute('href'), '/search');
          const alerts = [];
          const alerted = new Promise((resolve) =>
            page.on('dialog', async (dialog) => {
              alerts.push(dialog.message());
              await dialog.dismiss();
              resolve();
            }),
          );
          await page.locator('.sidebar-footer button').nth(1).click();
          await alerted;
          assert.equal(alerts.length, 1);
          assert.match(alerts[0], /under development/i);
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });

      it('home button collapses the sidebar and clears expanded submenus', async () => {
        const page = await openPage(browser, `${server.url}/notes`, { width, dark, storage: { expandedMenus: '["notes"]' } });
        try {
          await page.evaluate(() => {
            window.addEventListener('collapse-sidebar', () => {
              sessionStorage.setItem('collapses', String(Number(sessionStorage.getItem('collapses') || 0) + 1));
            });
          });
          await page.locator('.topbar-home').click();
          await page.waitForURL(`${server.url}/`);
          await waitForIslands(page);
          assert.ok(Number(await page.evaluate(() => sessionStorage.getItem('collapses'))) >= 1);
          assert.equal(await storage(page, 'expandedMenus'), '[]');
          assert.equal(await storage(page, 'activeTopBarButton'), 'home');
          assert.equal(await page.locator('.topbar-home').getAttribute('aria-current'), 'page');
        } finally {
          await page.closeContext();
        }
      });

      it('shows the welcome dialog on a first visit: focus inside, Escape dismisses, remembered', async () => {
        const page = await openPage(browser, `${server.url}/`, { width, dark, welcome: true });
        try {
          const dialog = page.locator('dialog.welcome');
          await dialog.waitFor({ state: 'visible' });
          assert.equal(await page.evaluate(() => document.querySelector('dialog.welcome').contains(document.activeElement)), true);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });
          // The dialog's close event comes a task after it hides.
          await page.waitForFunction(() => localStorage.getItem('hasSeenWelcome') === 'true');
          await page.waitForFunction(() => !document.querySelector('dialog.welcome').contains(document.activeElement));
          // The page is usable again: the top bar takes focus.
          await page.locator('.topbar-home').focus();
          assert.equal(await page.evaluate(() => document.activeElement.classList.contains('topbar-home')), true);
          await page.reload();
          await waitForIslands(page);
          assert.equal(await dialog.isVisible(), false);
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });

      it('reveals the profile image on click', async () => {
        const page = await openPage(browser, `${server.url}/`, { width, dark });
        try {
          const filter = () => page.locator('.profile-image img').evaluate((img) => getComputedStyle(img).filter);
          assert.match(await filter(), /blur/);
          await page.locator('.profile-reveal').click();
          // The blur fades out over 300 ms.
          await page.waitForFunction(() => getComputedStyle(document.querySelector('.profile-image img')).filter === 'none');
          assert.equal(await page.locator('.profile-reveal').count(), 0);
        } finally {
          await page.closeContext();
        }
      });

      it(`the blurred portrait is drawn in the page's tone (${dark ? 'dark' : 'light'})`, async () => {
        const page = await openPage(browser, `${server.url}/`, { width, dark });
        try {
          await waitForIslands(page);
          const shot = (await page.locator('.profile-image').screenshot()).toString('base64');
          // The mean lightness (0 to 1) of the disc's upper part, decoded from the screenshot in the page.
          const lightness = await page.evaluate(async (png) => {
            const img = new Image();
            img.src = `data:image/png;base64,${png}`;
            await img.decode();
            const canvas = Object.assign(document.createElement('canvas'), { width: img.width, height: img.height });
            const ctx = canvas.getContext('2d');
            ctx.drawImage(img, 0, 0);
            // Above the show button that sits in the middle.
            const { data } = ctx.getImageData(
              Math.round(img.width * 0.3),
              Math.round(img.height * 0.1),
              Math.round(img.width * 0.4),
              Math.round(img.height * 0.18),
            );
            let sum = 0;
            for (let i = 0; i < data.length; i += 4) sum += (0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]) / 255;
            return sum / (data.length / 4);
          }, shot);
          if (dark) assert.ok(lightness < 0.3, `a dark page's blurred portrait has lightness ${lightness.toFixed(2)}`);
          else assert.ok(lightness > 0.5, `a light page's blurred portrait has lightness ${lightness.toFixed(2)}`);
        } finally {
          await page.closeContext();
        }
      });

      it('shows breadcrumb, the active section and working navigation', async () => {
        const page = await openPage(browser, `${server.url}/valuation-models/dcf`, { width, dark });
        try {
          const crumbs = await page.locator('nav.breadcrumb li').allTextContents();
          assert.deepEqual(
            crumbs.map((c) => c.trim()),
            ['Home', 'Valuation Models', 'DCF'],
          );
          assert.equal(await page.locator('nav.breadcrumb li:last-child a').count(), 0);
          assert.equal(await page.locator('.topbar-link[aria-current="page"]').getAttribute('href'), '/valuation-models');
          await page.locator('nav.breadcrumb a', { hasText: 'Valuation Models' }).click();
          await page.waitForURL(`${server.url}/valuation-models`);
          await waitForIslands(page);
          if (isMobile(width)) await page.locator('.menu-button').click();
          await page.locator('.sidebar-link[href="/notes"]').click();
          await page.waitForURL(`${server.url}/notes`);
          await waitForIslands(page);
          assert.equal(await page.locator('.sidebar-item.is-active .sidebar-link').getAttribute('href'), '/notes');
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });
    });
  }
}

describe('phone chrome', () => {
  const languages = [
    { prefix: '', login: 'Member Login', short: 'Login', menu: 'Menu' },
    { prefix: '/zh', login: '會員登入', short: '登入', menu: '選單' },
    { prefix: '/ja', login: '会員ログイン', short: 'ログイン', menu: 'メニュー' },
  ];
  for (const { prefix, login, short, menu } of languages) {
    for (const width of [375, 320]) {
      it(`one top-bar row, a labelled menu and member button, the text column wide (${prefix || '/en'}, ${width}px)`, async () => {
        const page = await openPage(browser, `${server.url}${prefix}/valuation-models/dcf`, { width });
        try {
          const bar = await page.locator('.topbar').boundingBox();
          assert.ok(bar.height <= 60, `the top bar is ${bar.height}px tall`);
          const rows = await page
            .locator('.topbar .menu-button, .topbar-home, .topbar-sections, .topbar-actions > *')
            .evaluateAll((els) => els.filter((e) => e.offsetParent !== null).map((e) => Math.round(e.getBoundingClientRect().top / 20)));
          assert.equal(new Set(rows).size, 1, `the controls sit in one row: ${rows}`);
          const column = await page.locator('.article').evaluate((el) => el.getBoundingClientRect().width);
          assert.ok(column >= width - 35, `the text column is ${column}px at ${width}px`);
          assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, 'no sideways scrolling');
          assert.equal(await page.getByRole('button', { name: menu }).isVisible(), true);
          const member = page.getByRole('link', { name: login });
          assert.equal(await member.isVisible(), true, 'the member button is named for what it does');
          const shown = await member.evaluate((el) =>
            [...el.querySelectorAll('span')]
              .filter((span) => span.getBoundingClientRect().width > 2)
              .map((span) => span.textContent)
              .join(' '),
          );
          assert.equal(shown, short, 'and says it');
          assert.deepEqual(page.problems(), []);
        } finally {
          await page.closeContext();
        }
      });
    }
  }
});

describe('member login state in the top bar', () => {
  let member;
  before(async () => {
    member = await createMember(server);
  });

  for (const width of [1280, 375]) {
    it(`logs out with the 'hint' modal and goes home (${width}px)`, async () => {
      const page = await openPage(browser, null, { width });
      try {
        await logIn(page, server, member);
        await page.goto(`${server.url}/zh/notes`);
        await waitForIslands(page);
        const logout = page.locator('.topbar .member-button', { hasText: '登出' });
        await logout.waitFor({ state: 'visible' });
        await logout.click();
        const modal = page.locator('dialog.modal[open]');
        await modal.waitFor({ state: 'visible' });
        assert.equal((await modal.locator('.modal-title').textContent()).trim(), '提示');
        await modal.locator('button').click();
        await page.waitForURL(`${server.url}/zh/`);
        await waitForIslands(page);
        await page.locator('.topbar a.member-button[href="/zh/login"]').waitFor({ state: 'visible' });
        const status = await page.evaluate(() => fetch('/api/denglu', { credentials: 'include' }).then((r) => r.json()));
        assert.equal(status.loggedIn, false);
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    });
  }

  it('shows neither Member Login nor Logout on the login page', async () => {
    const page = await openPage(browser, `${server.url}/login`, { width: 1280 });
    try {
      assert.equal(await page.locator('.topbar .member-button').count(), 0);
    } finally {
      await page.closeContext();
    }
  });
});

describe('fades', () => {
  it('content is there at the first paint and fades to full strength within about 100 ms, lists in steps; not with reduced motion', async () => {
    const page = await openPage(browser, `${server.url}/valuation-models`, { width: 1280 });
    try {
      const animation = (selector) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => {
            const style = getComputedStyle(el);
            return [style.animationName, style.animationDelay, style.animationDuration];
          });
      assert.deepEqual(await animation('main .article'), ['fade-in', '0s', '0.1s']);
      assert.deepEqual(await animation('.section-children li'), ['fade-in', '0s', '0.1s']);
      assert.deepEqual(await animation('.section-children li:nth-child(2)'), ['fade-in', '0.025s', '0.1s']);
      assert.deepEqual(await animation('.section-children li:nth-child(9)'), ['fade-in', '0.1s', '0.1s']);
      // At the start of each fade, before any delay has passed, the content is already half there
      // (each fade is started again and held at its first frame).
      const atStart = await page.evaluate(() => {
        const seen = [];
        for (const el of [document.querySelector('main .article'), ...document.querySelectorAll('.section-children li')]) {
          el.style.animation = 'none';
          void el.offsetWidth;
          el.style.animation = '';
          const running = el.getAnimations();
          if (running.length === 0) seen.push(-1);
          for (const a of running) {
            a.pause();
            a.currentTime = 0;
          }
          seen.push(Number(getComputedStyle(el).opacity));
        }
        return seen;
      });
      for (const opacity of atStart) assert.ok(opacity >= 0.5, `opacity ${opacity} at the start of a fade`);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      assert.equal((await animation('main .article'))[0], 'none');
      assert.equal((await animation('.section-children li'))[0], 'none');
    } finally {
      await page.closeContext();
    }
  });
});

describe('failures', () => {
  // Chromium 15x asks the server again for a module whose fetch failed; older ones (and the HTML
  // standard's earlier rule) keep the failure, so the retry must not depend on either.
  for (const keepsFailures of [false, true]) {
    const which = keepsFailures ? 'a browser that keeps failed module fetches' : 'this browser';
    it(`shows a ChunkLoadError with type and URL, and retries until it loads (${which})`, async () => {
      const chromium = keepsFailures ? await launchBrowser({ args: ['--disable-blink-features=ModuleMapDoNotCacheFailedFetch'] }) : browser;
      const page = await openPage(chromium, null, { width: 1280 });
      try {
        let block = true;
        const served = [];
        await page.route(/\/assets\/TopBar-[A-Z0-9]+\.js(\?.*)?$/, (route) => {
          if (block) return route.fulfill({ status: 404, body: 'missing' });
          served.push(route.request().url());
          return route.continue();
        });
        await page.goto(`${server.url}/notes`);
        const error = page.locator('.island[data-island="TopBar"] .chunk-error');
        await error.waitFor({ state: 'visible' });
        const text = await error.textContent();
        assert.match(text, /ChunkLoadError/);
        assert.match(text, /missing/);
        assert.match(text, /\/assets\/TopBar-[A-Z0-9]+\.js/);
        // The prerendered top bar stays readable behind the message.
        assert.equal(await page.locator('.topbar-home').isVisible(), true);
        // Still missing: the retry fails again and offers another retry.
        await error.locator('button').click();
        await error.waitFor({ state: 'visible' });
        block = false;
        await error.locator('button').click();
        await waitForIslands(page);
        assert.equal(await error.count(), 0);
        assert.equal(served.length, 1, `the chunk was fetched again: ${served}`);
        // The top bar works: its tools menu opens.
        await openTools(page);
      } finally {
        await page.closeContext();
        if (keepsFailures) await chromium.close();
      }
    });
  }
});

describe('without JavaScript', () => {
  for (const width of [1280, 375]) {
    it(`renders content, breadcrumb and real links (${width}px)`, async () => {
      const page = await openPage(browser, `${server.url}/valuation-models/dcf`, { width, javaScript: false });
      try {
        await waitForStillness(page);
        assert.match(await page.locator('main h1').textContent(), /Discounted Cash Flow/);
        assert.equal(await page.locator('.article').isVisible(), true);
        assert.equal(await page.locator('.article').evaluate((el) => getComputedStyle(el).opacity), '1');
        assert.equal(await page.locator('nav.breadcrumb li').count(), 3);
        assert.equal(await page.locator('.sidebar-link[href="/notes"]').count(), 1);
        assert.equal(await page.locator('.topbar a.member-button[href="/login"]').count(), 1);
        // Controls that need JavaScript are not offered.
        assert.equal(await page.locator('.sidebar-footer button').first().isVisible(), false);
        await page.locator('.sidebar-link[href="/notes"]').click();
        await page.waitForURL(`${server.url}/notes`);
        assert.ok((await page.locator('li.entry').count()) >= 1);
      } finally {
        await page.closeContext();
      }
    });
  }
});

describe('first paint on a phone', () => {
  it('draws the welcome dialog with the first paint, where its island opens it, and it is no later paint', async () => {
    const page = await openPage(browser, null, { width: 375, welcome: true });
    try {
      // The Welcome island's chunk is held back: what shows meanwhile is the stylesheet's drawing.
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route(/\/assets\/Welcome-[A-Z0-9]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.addInitScript(() => {
        window.__paints = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) window.__paints.push(entry.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        // When the island opens the dialog: before the frame that paints it.
        new MutationObserver(() => {
          if (document.querySelector('dialog.welcome[open]') && !window.__openedAt) window.__openedAt = performance.now();
        }).observe(document, { subtree: true, attributes: true, attributeFilter: ['open'] });
      });
      await page.goto(`${server.url}/`, { waitUntil: 'domcontentloaded' });
      const dialog = page.locator('dialog.welcome');
      await dialog.waitFor({ state: 'visible' });
      assert.equal(await dialog.evaluate((el) => el.open), false, 'drawn before its island opened it');
      const drawn = await dialog.boundingBox();
      // The inline stylesheet applied under the CSP: the page is laid out, not unstyled.
      assert.equal(await page.locator('.skip-link').evaluate((el) => getComputedStyle(el).position), 'absolute');
      release();
      await page.waitForFunction(() => document.querySelector('dialog.welcome').matches(':modal'));
      await nextFrames(page);
      assert.deepEqual(await dialog.boundingBox(), drawn, 'the modal opens where the dialog was drawn');
      assert.equal(await page.evaluate(() => document.querySelector('dialog.welcome').contains(document.activeElement)), true);
      // Opening it as a modal paints nothing new: the largest paint stays one of the first paint.
      const { paints, openedAt } = await page.evaluate(() => ({ paints: window.__paints, openedAt: window.__openedAt }));
      assert.ok(paints.length > 0 && openedAt > 0);
      assert.deepEqual(
        paints.filter((at) => at >= openedAt),
        [],
      );
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await page.waitForFunction(() => localStorage.getItem('hasSeenWelcome') === 'true');
      assert.equal(await page.evaluate(() => document.documentElement.classList.contains('welcome-due')), false);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it("fetches the formulas' font at low priority on a page with formulas only, and sets them in it", async () => {
    const page = await openPage(browser, null, { width: 375 });
    try {
      // Chromium's own priority for each request: a high one before the first paint would, for
      // Lighthouse, block that paint.
      const cdp = await page.context().newCDPSession(page);
      const priorities = new Map();
      cdp.on('Network.requestWillBeSent', ({ request }) => priorities.set(new URL(request.url).pathname, request.initialPriority));
      await cdp.send('Network.enable');
      const fonts = () => [...priorities.keys()].filter((p) => /^\/assets\/article-math-[A-Z0-9]+\.woff2$/.test(p));
      await page.goto(`${server.url}/notes`, { waitUntil: 'load' });
      assert.equal(await page.locator('link[rel="preload"][as="font"]').count(), 0);
      await page.goto(`${server.url}/valuation-models/dcf`, { waitUntil: 'load' });
      await page.waitForFunction(() => document.fonts.check('16px "Article Math"'));
      assert.equal(fonts().length, 1, 'only the page with formulas asks for the font');
      assert.equal(priorities.get(fonts()[0]), 'Low');
      assert.match(
        await page
          .locator('math')
          .first()
          .evaluate((el) => getComputedStyle(el).fontFamily),
        /^"Article Math"/,
      );
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  it('names every script a page loads up front, so none waits for another to arrive', async () => {
    for (const route of ['/about', '/login', '/valuation-models/dcf']) {
      const page = await openPage(browser, null, { width: 375 });
      try {
        const scripts = [];
        page.on('request', (request) => {
          const { pathname } = new URL(request.url());
          if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.push(pathname);
        });
        await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
        await waitForIslands(page);
        const named = (await page.locator('meta[name="island-scripts"]').getAttribute('content')).split(' ');
        assert.deepEqual(
          scripts.filter((s) => !named.includes(s)),
          [],
          route,
        );
      } finally {
        await page.closeContext();
      }
    }
  });

  // Each page inlines only the rules that can match it as written; its islands' stylesheet holds
  // the others and arrives with the island scripts. Whatever the page shows, as written or once
  // its islands have drawn dialogs, menus and results, must look as the whole stylesheet draws it.
  const snapshot = (page) =>
    page.evaluate(async () => {
      await document.fonts.ready;
      document.getAnimations().forEach((a) => a.finish());
      const props = [
        'display',
        'position',
        'visibility',
        'color',
        'backgroundColor',
        'fontSize',
        'fontWeight',
        'fontFamily',
        'lineHeight',
        'borderTopWidth',
        'borderTopColor',
        'borderTopLeftRadius',
        'paddingLeft',
        'marginTop',
        'gap',
        'opacity',
        'boxShadow',
      ];
      return [...document.querySelectorAll('body *')].map((el) => {
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        const path = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
        // What a closed <details> holds is not laid out: its box is whatever the last layout left.
        const where = el.checkVisibility() ? [box.x, box.y, box.width, box.height].map(Math.round).join(',') : 'not rendered';
        return [path, where, ...props.map((p) => style[p])].join(' | ');
      });
    });
  const wholeStylesheet = `/assets/${readdirSync(path.join(distDir, 'assets')).find((name) => /^entry-[A-Z0-9]+\.css$/.test(name))}`;
  /** Adds the stylesheet at `href` (after all others) and resolves once it has loaded. */
  const addStylesheet = (page, href) =>
    page.evaluate(
      (href) =>
        new Promise((resolve, reject) => {
          const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
          link.onload = resolve;
          link.onerror = reject;
          document.head.append(link);
        }),
      href,
    );
  /** Leaves the page the whole stylesheet alone: its inline rules and its islands' stylesheet go. */
  const onlyTheWholeStylesheet = async (page) => {
    await addStylesheet(page, wholeStylesheet);
    await page.evaluate((whole) => {
      document.querySelectorAll('head style, link[rel="stylesheet"]').forEach((sheet) => {
        if (!sheet.href?.endsWith(whole)) sheet.remove();
      });
    }, wholeStylesheet);
  };
  const compare = (before, after, what) => {
    assert.equal(after.length, before.length, what);
    const changed = before.map((line, i) => [line, after[i]]).filter(([a, b]) => a !== b);
    assert.deepEqual(changed, [], `${what}: elements that differ`);
  };

  it("styles every element of a page as written the same with its own rules, with its islands' stylesheet, and with the whole stylesheet", async () => {
    assert.ok(existsSync(path.join(distDir, wholeStylesheet)), `the UI's stylesheet ${wholeStylesheet}`);
    let checked = 0;
    let islandSheets = 0;
    for (const [width, dark] of [
      [375, false],
      [1280, true],
    ]) {
      for (const route of [
        '/',
        '/about',
        '/valuation-models/dcf',
        '/notes',
        '/search',
        '/login',
        '/ja/notes/liquidity-risk',
        '/climbers-deal-privacy',
        '/my-web-project',
      ]) {
        const page = await openPage(browser, null, { width, dark });
        try {
          // The islands are held back, so the page stays as written.
          let stylesheetsLoad = false;
          await page.route(/\/assets\/[^/]+\.(js|css)$/, (r) =>
            stylesheetsLoad && r.request().url().endsWith('.css') ? r.continue() : r.abort(),
          );
          await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
          const own = await snapshot(page);
          const what = `${route} at ${width}px${dark ? ', dark' : ''}`;
          stylesheetsLoad = true;
          // A page without islands (the app's legal pages) has none.
          const forIslands = await page.evaluate(() => document.querySelector('meta[name="island-styles"]')?.content);
          if (forIslands) {
            assert.match(forIslands, /^\/assets\/island-styles-[0-9a-f]+\.css$/, what);
            await addStylesheet(page, forIslands);
            compare(own, await snapshot(page), `${what}, its islands' stylesheet added`);
            islandSheets += 1;
          }
          await onlyTheWholeStylesheet(page);
          compare(own, await snapshot(page), `${what}, with the whole stylesheet instead`);
          checked += own.length;
        } finally {
          await page.closeContext();
        }
      }
    }
    assert.ok(checked > 1000, `${checked} elements compared`);
    assert.ok(islandSheets >= 12, `${islandSheets} pages with islands`);
  });

  it("styles what the islands draw the same with the page's stylesheets as with the whole stylesheet", async () => {
    // Each step leaves on screen what only an island draws.
    const steps = {
      '/': async (page) => page.locator('dialog.welcome').waitFor({ state: 'visible' }),
      '/notes': async (page, width) => {
        const menu = isMobile(width) ? '.lang-dropdown' : '.tools-dropdown';
        await page.locator(`${menu} > summary`).click();
        await page.locator(`${menu} .dropdown-panel`).waitFor({ state: 'visible' });
      },
      '/search': async (page) => {
        await page.getByRole('searchbox', { name: 'Search the site' }).fill('valuation');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.locator('.search-results .search-result').first().waitFor();
      },
      '/login': async (page) => {
        await page.getByRole('button', { name: 'Login', exact: true }).click();
        await page.locator('.member-form .form-error').first().waitFor();
      },
      // No feed is set up here: the list says so once it has tried.
      '/about': async (page) => page.locator('.blog-empty, .blog-error').first().waitFor(),
      '/valuation-models/dcf': async (page) => {
        const field = page.locator('.calc input').first();
        await field.fill('');
        await field.press('Tab');
        await page.locator('.calc-error, .calc-headline-error').first().waitFor();
      },
    };
    let checked = 0;
    for (const [width, dark] of [
      [375, false],
      [1280, true],
    ]) {
      for (const [route, step] of Object.entries(steps)) {
        const page = await openPage(browser, `${server.url}${route}`, { width, dark, welcome: route === '/' });
        try {
          await step(page, width);
          await waitForStillness(page);
          const what = `${route} at ${width}px${dark ? ', dark' : ''}`;
          assert.equal(await page.locator('link[data-island-styles]').count(), 1, `${what}: the islands' stylesheet`);
          const drawn = await snapshot(page);
          await onlyTheWholeStylesheet(page);
          compare(drawn, await snapshot(page), `${what}, with the whole stylesheet instead`);
          checked += drawn.length;
        } finally {
          await page.closeContext();
        }
      }
    }
    assert.ok(checked > 1000, `${checked} elements compared`);
  });

  it('shows no welcome dialog at all when its island cannot load', async () => {
    const page = await openPage(browser, null, { width: 375, welcome: true });
    try {
      await page.route(/\/assets\/Welcome-[A-Z0-9]+\.js(\?.*)?$/, (route) => route.fulfill({ status: 503, body: 'down' }));
      await page.goto(`${server.url}/`, { waitUntil: 'load' });
      await page.waitForFunction(() => !document.documentElement.classList.contains('welcome-due'));
      assert.equal(await page.locator('dialog.welcome').isVisible(), false);
      // The rest of the chrome works: the top bar hydrated.
      await page.waitForFunction(() =>
        Object.keys(document.querySelector('.island[data-island="TopBar"]')).some((k) => k.startsWith('__reactContainer')),
      );
    } finally {
      await page.closeContext();
    }
  });
});
