// The member page's sessions against the real server: two browsers signed in as one member see
// both sessions (each its own marked), one logs the other out, and "log out everywhere" (behind
// a confirmation that Escape cancels) signs out every browser at its next page load.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, createMember, logIn, openPage, useServerAndBrowser, waitForIslands } from './harness.mjs';

/** After its session ends, a browser's page asks for the list once more and is told 401. */
const SIGNED_OUT_CALLS = /^\/api\/denglu\/sessions/;

/** A browser of its own (a context: its own cookies) signed in as `member`, on the member page. */
async function signedInBrowser(server, browser, member, path = '/MemberPage') {
  const page = await openPage(browser, null, { expectHttpErrors: SIGNED_OUT_CALLS });
  await logIn(page, server, member);
  await page.goto(`${server.url}${path}`);
  await waitForIslands(page);
  return page;
}

const sessionItems = (page) => page.locator('.member-sessions .session-item');

async function loggedIn(page) {
  return page.evaluate(async () => (await (await fetch('/api/denglu', { credentials: 'include' })).json()).loggedIn);
}

describe('the member page lists the member’s sessions', () => {
  let server;
  let browser;
  useServerAndBrowser((s, b) => {
    server = s;
    browser = b;
  });

  test('two browsers see two sessions, each its own marked; one logs the other out', async () => {
    const member = await createMember(server, { username: `sess${Date.now() % 1e7}` });
    const laptop = await signedInBrowser(server, browser, member);
    const phone = await signedInBrowser(server, browser, member);
    try {
      for (const page of [laptop, phone]) {
        await page.reload();
        await waitForIslands(page);
        // The page's own heading and the specification's text stay; the list comes below them.
        assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Member page');
        assert.match(await page.locator('main article').textContent(), /Membership is temporarily unavailable\./);
        await page.getByRole('heading', { name: 'Your sessions' }).waitFor();
        await sessionItems(page).nth(1).waitFor();
        assert.equal(await sessionItems(page).count(), 2);
        assert.equal(await page.locator('.session-current').count(), 1);
        assert.match(await page.locator('.session-current').textContent(), /This device/);
        assert.match(await page.locator('.session-current').textContent(), /Chrome on Linux/);
      }
      assert.deepEqual(await axeViolations(laptop), []);

      // The laptop ends the phone's session: its one "Log out" button.
      const endButtons = laptop.getByRole('button', { name: /^Log out Chrome on Linux, logged in / });
      assert.equal(await endButtons.count(), 1);
      await endButtons.click();
      await laptop.getByRole('status').filter({ hasText: 'That session has been logged out.' }).waitFor();
      await laptop.locator('.session-item').nth(1).waitFor({ state: 'detached' });
      assert.equal(await sessionItems(laptop).count(), 1);
      assert.match(await laptop.locator('.member-sessions').textContent(), /No other browser or device is logged in/);
      assert.equal(await laptop.evaluate(() => document.activeElement?.textContent), 'Your sessions');

      // The phone is signed out at its next page load, the laptop is not.
      await phone.reload();
      await waitForIslands(phone);
      await phone.getByRole('link', { name: 'Member Login' }).waitFor();
      assert.equal(await phone.locator('.member-sessions').count(), 0);
      assert.equal(await loggedIn(phone), false);
      assert.equal(await loggedIn(laptop), true);
      assert.deepEqual(laptop.problems(), []);
      assert.deepEqual(phone.problems(), []);
    } finally {
      await laptop.closeContext();
      await phone.closeContext();
    }
  });

  test('log out everywhere: a confirmation Escape cancels, then every browser is signed out', async () => {
    const member = await createMember(server, { username: `every${Date.now() % 1e7}` });
    const laptop = await signedInBrowser(server, browser, member, '/ja/MemberPage');
    const phone = await signedInBrowser(server, browser, member);
    try {
      await laptop.reload();
      await waitForIslands(laptop);
      await sessionItems(laptop).nth(1).waitFor();
      assert.match(await laptop.locator('.session-current').textContent(), /このデバイス/);

      const everywhere = laptop.getByRole('button', { name: 'すべてのデバイスからログアウト' });
      await everywhere.click();
      const dialog = laptop.getByRole('dialog', { name: 'すべてのデバイスからログアウトしますか？' });
      await dialog.waitFor();
      // It opens on the safe choice; Escape closes it, focus goes back, nothing has ended.
      assert.equal(await laptop.evaluate(() => document.activeElement?.textContent), 'キャンセル');
      await laptop.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await everywhere.evaluate((el) => el === document.activeElement), true);
      assert.equal(await loggedIn(phone), true);

      await everywhere.click();
      await dialog.getByRole('button', { name: 'すべてログアウト' }).click();
      await laptop.waitForURL(`${server.url}/ja/login`);
      await waitForIslands(laptop);
      assert.equal(await loggedIn(laptop), false);

      await phone.goto(`${server.url}/MemberPage`);
      await waitForIslands(phone);
      await phone.getByRole('link', { name: 'Member Login' }).waitFor();
      assert.equal(await phone.locator('.member-sessions').count(), 0);
      assert.equal(await loggedIn(phone), false);
      assert.deepEqual(laptop.problems(), []);
      assert.deepEqual(phone.problems(), []);
    } finally {
      await laptop.closeContext();
      await phone.closeContext();
    }
  });
});
