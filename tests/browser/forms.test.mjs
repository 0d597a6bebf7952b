// The member forms against the real server and a real (SQLite) database: sign-up with an emailed
// code and an invitation, login, logout, forgot password → verify → reset, every validation
// message (with no request sent), the server's failure messages, and the busy state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { axeViolations, launchBrowser, openPage, repoDir, startServer, waitForIslands } from './harness.mjs';

/** A fresh member identity per test: the server keeps one account per name and address. */
function identity(tag) {
  const id = randomBytes(4).toString('hex');
  return { username: `${tag}_${id}`, email: `${tag}.${id}@example.test`, password: `pw-${id}-Secret!` };
}

/** Every POST the page sends to /api/ (the top bar's status GETs are not form traffic). */
function watchPosts(page) {
  const posts = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (r.method() === 'POST' && pathname.startsWith('/api/')) posts.push(pathname);
  });
  return posts;
}

/** A full page load, ready once the islands have hydrated (typing earlier is its own test). */
async function visit(page, url) {
  await page.goto(url);
  await waitForIslands(page);
}

const errorBox = (page) => page.locator('.member-form .form-error');

/** Registers a member through the API itself (send code → read the outbox → register); returns the code. */
async function registerByApi(server, who) {
  const post = (path, body) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const sent = await post('/api/send-email', { email: who.email, username: who.username, preferredLanguage: 'en' });
  assert.equal(sent.status, 200, await sent.text());
  const code = await server.latestCode(who.email);
  const invitationCode = await server.createInvite();
  const reg = await post('/api/register', { ...who, invitationCode, emailVerificationCode: code });
  assert.equal(reg.status, 200, await reg.text());
  return code;
}

describe('member forms', () => {
  let server;
  let browser;

  before(async () => {
    // Several codes go to one address within a minute here; the limits themselves are the API's tests.
    [server, browser] = await Promise.all([startServer({ env: { RATE_LIMIT_SCALE: '50' } }), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('register → login → logout, end to end', async () => {
    const who = identity('amy');
    const page = await openPage(browser, `${server.url}/register`);
    try {
      await page.getByLabel('Username').fill(who.username);
      await page.getByLabel('Password').fill(who.password);
      await page.getByLabel('Email', { exact: true }).fill(who.email);
      const sendButton = page.getByRole('button', { name: 'Send code' });
      await sendButton.click();
      const sent = page.getByRole('dialog', { name: 'Code sent' });
      await sent.waitFor();
      await sent.getByRole('button', { name: 'OK' }).click();
      await sent.waitFor({ state: 'hidden' });
      assert.equal(await sendButton.evaluate((el) => el === document.activeElement), true, 'focus returns to the button');

      await page.getByLabel('Email verification code').fill(await server.latestCode(who.email));
      await page.getByLabel('Invitation code').fill(await server.createInvite());
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const success = page.getByRole('dialog', { name: 'Registration successful' });
      await success.waitFor();
      await success.getByRole('button', { name: 'Close' }).click();
      await page.waitForURL(`${server.url}/login`);
      await waitForIslands(page);
      assert.deepEqual(page.problems(), []);

      await page.getByLabel('Username').fill(who.username);
      await page.getByLabel('Password').fill(who.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL(`${server.url}/MemberPage`);
      assert.match(await page.locator('main').textContent(), /Membership is temporarily unavailable\./);

      const logoutButton = page.getByRole('button', { name: 'Logout' });
      await logoutButton.waitFor();
      await logoutButton.click();
      const hint = page.getByRole('dialog', { name: 'hint' });
      await hint.waitFor();
      await hint.getByRole('button', { name: 'Close' }).click();
      await page.waitForURL(`${server.url}/`);
      await page
        .getByRole('link', { name: 'Member Login' })
        .or(page.getByRole('button', { name: 'Member Login' }))
        .first()
        .waitFor();
      const status = await page.evaluate(async () => (await fetch('/api/denglu', { credentials: 'include' })).json());
      assert.equal(status.loggedIn, false);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('forgot password → verify → reset → login with the new password (Chinese pages, 375 px, dark)', async () => {
    const who = identity('ben');
    const signUpCode = await registerByApi(server, who);
    const newPassword = `${who.password}-new`;
    const page = await openPage(browser, `${server.url}/zh/verifycode`, { width: 375, dark: true });
    try {
      await page.getByLabel('使用者名稱').fill(who.username);
      await page.getByLabel('電子郵件').fill(who.email);
      await page.getByRole('button', { name: '發送驗證碼' }).click();
      await page.locator('.form-status').filter({ hasText: /\S/ }).waitFor();
      // The reset mail, not the sign-up mail before it (the API mails after answering).
      const code = await server.latestCode(who.email, { except: signUpCode });
      await page.getByLabel('驗證碼', { exact: true }).fill(code);
      await page.getByRole('button', { name: '確認', exact: true }).click();
      await page.waitForURL(`${server.url}/zh/reset-password`);
      await waitForIslands(page);
      // The token rode in sessionStorage, never in the address.
      assert.equal(new URL(page.url()).search, '');

      await page.getByLabel('新密碼').fill(newPassword);
      await page.getByLabel('確認密碼').fill(newPassword);
      const started = Date.now();
      await page.getByRole('button', { name: '確認重設' }).click();
      await page.locator('.form-status').filter({ hasText: /\S/ }).waitFor();
      await page.waitForURL(`${server.url}/zh/login`);
      await waitForIslands(page);
      const waited = Date.now() - started;
      assert.ok(waited >= 2000, `went to /login after ${waited} ms`);
      assert.equal(
        await page.evaluate(() => Object.keys(sessionStorage).some((k) => k.startsWith('navState:'))),
        false,
        'state cleared after use',
      );

      await page.getByLabel('使用者名稱').fill(who.username);
      await page.getByLabel('密碼').fill(newPassword);
      await page.getByRole('button', { name: '登入', exact: true }).click();
      await page.waitForURL(`${server.url}/zh/MemberPage`);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
    const old = await fetch(`${server.url}/api/denglu`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: who.username, password: who.password }),
    });
    assert.equal(old.status, 401, 'the old password no longer works');
  });

  test('every validation message shows, and nothing is sent', async () => {
    for (const width of [1280, 375]) {
      const page = await openPage(browser, `${server.url}/login`, { width });
      const posts = watchPosts(page);
      try {
        await page.getByRole('button', { name: 'Login', exact: true }).click();
        assert.equal((await errorBox(page).textContent()).trim(), 'Please fill in username and password');
        await page.getByLabel('Username').fill('someone');
        await page.getByRole('button', { name: 'Login', exact: true }).click();
        assert.equal((await errorBox(page).textContent()).trim(), 'Please fill in username and password');

        await visit(page, `${server.url}/register`);
        await page.getByRole('button', { name: 'Register', exact: true }).click();
        assert.equal((await errorBox(page).textContent()).trim(), 'Please fill in all fields');
        const sendButton = page.getByRole('button', { name: 'Send code' });
        await sendButton.click();
        const modal = page.getByRole('dialog', { name: 'error' });
        await modal.waitFor();
        assert.match(await modal.textContent(), /Please enter email/);
        await page.keyboard.press('Escape');
        await modal.waitFor({ state: 'hidden' });
        assert.equal(await sendButton.evaluate((el) => el === document.activeElement), true, 'Escape returns focus');
        for (const bad of ['no-at-sign', 'two words@example.test', 'a@b']) {
          await page.getByLabel('Email', { exact: true }).fill(bad);
          await sendButton.click();
          await modal.waitFor();
          assert.match(await modal.textContent(), /please enter correct format/);
          await modal.getByRole('button', { name: 'OK' }).click();
          await modal.waitFor({ state: 'hidden' });
        }

        await visit(page, `${server.url}/verifycode`);
        await page.getByRole('button', { name: 'Confirm', exact: true }).click();
        assert.equal((await errorBox(page).textContent()).trim(), 'Please fill in all fields');

        await visit(page, `${server.url}/reset-password`);
        await page.getByRole('heading', { name: 'Illegal entry' }).waitFor();
        assert.match(await page.locator('.member-form').textContent(), /Please complete the verification step first/);
        // With the verification step's state, mismatched passwords are caught before sending.
        await page.evaluate(() =>
          sessionStorage.setItem('navState:/reset-password', JSON.stringify({ username: 'someone', token: 'not-a-token' })),
        );
        await page.reload();
        await waitForIslands(page);
        await page.getByLabel('New password').fill('one-password');
        await page.getByLabel('Confirm password').fill('another-password');
        await page.getByRole('button', { name: 'Confirm reset' }).click();
        assert.equal((await errorBox(page).textContent()).trim(), 'The two passwords entered do not match');

        await visit(page, `${server.url}/invite?token=abc`);
        await page.getByRole('button', { name: 'Submit' }).click();
        assert.equal((await errorBox(page).textContent()).trim(), 'Please enter invitation code');

        assert.deepEqual(posts, [], 'no request for an invalid form');
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    }
  });

  test("the server's failure messages", async () => {
    const page = await openPage(browser, `${server.url}/login`, {
      expectHttpErrors: /^\/api\/(denglu|register|verify-code|auth\/verify-invite)$/,
    });
    try {
      await page.getByLabel('Username').fill('nobody_here');
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await errorBox(page).filter({ hasText: /\S/ }).waitFor();
      assert.equal((await errorBox(page).textContent()).trim(), 'Login failed, please check username and password');

      const who = identity('cid');
      await visit(page, `${server.url}/register`);
      await page.getByLabel('Username').fill(who.username);
      await page.getByLabel('Password').fill(who.password);
      await page.getByLabel('Email', { exact: true }).fill(who.email);
      await page.getByLabel('Email verification code').fill('000000');
      await page.getByLabel('Invitation code').fill('NOT-A-CODE');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const failure = page.getByRole('dialog', { name: 'Error' });
      await failure.waitFor();
      const inline = (await errorBox(page).textContent()).trim();
      assert.ok(inline.length > 0 && inline !== 'Registration failed', `the server's error is shown: ${inline}`);
      assert.match(await failure.textContent(), new RegExp(inline.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      await failure.getByRole('button', { name: 'Close' }).click();
      await failure.waitFor({ state: 'hidden' });
      assert.equal(new URL(page.url()).pathname, '/register', 'a failure does not redirect');

      await visit(page, `${server.url}/verifycode`);
      await page.getByLabel('Username').fill(who.username);
      await page.getByLabel('Email', { exact: true }).fill(who.email);
      await page.getByLabel('Verification code').fill('123456');
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      await errorBox(page).filter({ hasText: /\S/ }).waitFor();
      assert.notEqual((await errorBox(page).textContent()).trim(), '');
      assert.equal(new URL(page.url()).pathname, '/verifycode');

      await visit(page, `${server.url}/invite?token=not-a-real-token`);
      // (the form's section is labelled by its heading, also 'Invitation code')
      await page.getByRole('textbox', { name: 'Invitation code' }).fill('NOT-A-CODE');
      await page.getByRole('button', { name: 'Submit' }).click();
      await errorBox(page).filter({ hasText: /\S/ }).waitFor();
      assert.notEqual((await errorBox(page).textContent()).trim(), 'Please enter invitation code');
      assert.equal(new URL(page.url()).pathname, '/invite');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a busy button shows it and cannot send twice', async () => {
    const page = await openPage(browser, `${server.url}/login`, { expectHttpErrors: /^\/api\/denglu$/ });
    const posts = watchPosts(page);
    try {
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route('**/api/denglu', async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.continue();
      });
      await page.getByLabel('Username').fill('nobody_here');
      await page.getByLabel('Password').fill('wrong password');
      const button = page.locator('.member-form button[type="submit"]');
      // Three submissions in one tick: a click, another click, and Enter in the form.
      await button.evaluate((el) => {
        el.click();
        el.click();
        el.form.requestSubmit();
      });
      await page.waitForFunction(() => document.querySelector('.member-form button[type="submit"]').getAttribute('aria-busy') === 'true');
      assert.equal((await button.textContent()).trim(), 'Logging in…');
      // aria-disabled keeps the button focusable, so a click still arrives; it must do nothing.
      await button.dispatchEvent('click');
      release();
      await errorBox(page).filter({ hasText: /\S/ }).waitFor();
      assert.equal(await button.getAttribute('aria-busy'), null);
      assert.deepEqual(posts, ['/api/denglu'], 'one request');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  // One verb for signing in along the whole flow, the one of the top bar's "Member Login": en
  // "Log in" (and "Login" as a noun or label), zh 登入, ja ログイン; never "Sign in" or a synonym.
  for (const [prefix, word, other] of [
    ['', /\bLog ?in\b/i, /sign[ -]?in/i],
    ['/zh', /登入/, /登錄|登录|登陸|簽入/],
    ['/ja', /ログイン/, /サインイン/],
  ])
    test(`${prefix || '/'}: the login flow calls signing in by one word`, async () => {
      const page = await openPage(browser, null);
      try {
        const texts = [];
        for (const route of ['/login', '/login?error=google_unavailable', '/login?error=google_failed', '/register', '/verifycode']) {
          await page.goto(`${server.url}${prefix}${route}`);
          await waitForIslands(page);
          if (route.includes('error=')) await errorBox(page).filter({ hasText: /\S/ }).waitFor();
          texts.push(`${route}: ${await page.locator('main').innerText()}`);
        }
        const all = texts.join('\n');
        assert.match(texts[0], word, 'the login page uses the word');
        assert.doesNotMatch(all, other);
        assert.deepEqual(page.problems(), []);
      } finally {
        await page.closeContext();
      }
    });

  // The API's messages and emails (locales/*/api.json) say it as the forms do.
  for (const [lang, word, other] of [
    ['en', /\blog ?in\b/i, /\bsign[ -]?in\b/i],
    ['zh', /登入/, /登錄|登录|登陸|簽入/],
    ['ja', /ログイン/, /サインイン/],
  ])
    test(`${lang}: the API's messages and emails call signing in by the same word`, async () => {
      const text = await readFile(path.join(repoDir, 'locales', lang, 'api.json'), 'utf8');
      assert.match(text, word);
      assert.doesNotMatch(text, other);
    });

  test('Google sign-in, when the server has no Google set-up, comes back with a message', async () => {
    const page = await openPage(browser, `${server.url}/login`);
    try {
      const google = page.getByRole('link', { name: 'Log in with Google' });
      assert.equal(await google.getAttribute('href'), '/api/auth/google');
      await google.click();
      await page.waitForURL(/\/login\?error=google_unavailable$/);
      await waitForIslands(page);
      await errorBox(page).filter({ hasText: /\S/ }).waitFor();
      assert.equal((await errorBox(page).textContent()).trim(), 'Google login is not available right now');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('a Google sign-in that did not complete comes back with a translated message', async () => {
    const page = await openPage(browser, `${server.url}/ja/login?error=google_failed`);
    try {
      await waitForIslands(page);
      await errorBox(page).filter({ hasText: /\S/ }).waitFor();
      assert.equal((await errorBox(page).textContent()).trim(), 'Google ログインに失敗しました。もう一度お試しください');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('an accepted invitation goes to the member page with the token from the address', async () => {
    // A real invite token comes only from a Google sign-in, which cannot happen here: the API's
    // answer is stood in for, and what the form sends and does with the answer is checked.
    const page = await openPage(browser, `${server.url}/zh/invite?token=tok-123`);
    try {
      let sent = null;
      await page.route('**/api/auth/verify-invite', async (route) => {
        sent = { body: route.request().postDataJSON(), headers: route.request().headers() };
        await route.fulfill({ status: 200, contentType: 'application/json', body: '{"loggedIn":true}' });
      });
      await page.getByRole('textbox', { name: '邀請碼' }).fill(' INV-CODE ');
      await page.getByRole('button', { name: '送出' }).click();
      await page.waitForURL(`${server.url}/zh/MemberPage`);
      assert.deepEqual(sent.body, { token: 'tok-123', inviteCode: 'INV-CODE' });
      assert.match(sent.headers['content-type'], /application\/json/);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('what is typed before the form hydrates is kept', async () => {
    const page = await openPage(browser, null, { expectHttpErrors: /^\/api\/denglu$/ });
    const posts = watchPosts(page);
    try {
      let release;
      const held = new Promise((resolve) => (release = resolve));
      // Hold the form's own chunk: the prerendered form is on screen but not yet interactive.
      await page.route(/\/assets\/LoginForm-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/login`);
      await page.getByLabel('Username').fill('early_bird');
      await page.getByLabel('Password').fill('typed before hydration');
      release();
      await waitForIslands(page);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await errorBox(page).filter({ hasText: /\S/ }).waitFor();
      assert.equal((await errorBox(page).textContent()).trim(), 'Login failed, please check username and password');
      assert.deepEqual(posts, ['/api/denglu']);
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('links stay in the page language', async () => {
    const page = await openPage(browser, `${server.url}/ja/login`);
    try {
      assert.equal(await page.getByRole('link', { name: 'パスワードをお忘れですか？' }).getAttribute('href'), '/ja/verifycode');
      assert.equal(await page.getByRole('link', { name: 'アカウントをお持ちでない方は新規登録' }).getAttribute('href'), '/ja/register');
      await page.getByRole('button', { name: 'ログイン', exact: true }).click();
      assert.equal((await errorBox(page).textContent()).trim(), 'ユーザー名とパスワードを入力してください');
      assert.deepEqual(page.problems(), []);
    } finally {
      await page.closeContext();
    }
  });

  test('no serious accessibility violations on the form, search and blog pages', async () => {
    for (const [path, dark] of [
      ['/login', false],
      ['/register', true],
      ['/verifycode', false],
      ['/reset-password', false],
      ['/invite?token=x', true],
      ['/zh/search?q=%E6%8A%98%E7%8F%BE', false],
      ['/search?q=qqqqxxxzzz', true],
      ['/about', false],
    ]) {
      const page = await openPage(browser, `${server.url}${path}`, { dark });
      try {
        await page.waitForLoadState('networkidle');
        assert.deepEqual(await axeViolations(page), [], `${path}${dark ? ' (dark)' : ''}`);
      } finally {
        await page.closeContext();
      }
    }
  });
});
