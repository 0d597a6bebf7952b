// @vitest-environment jsdom
// The islands of this part as the site runs them: rendered to a string as the build does, then
// hydrated over that HTML as the browser does (no mismatch), and driven through their forms.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { fireEvent, render, screen, waitFor, cleanup } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IslandRoot } from '../components/IslandRoot';
import { createI18n } from '../lib/i18n';
import LoginForm from '../islands/LoginForm';
import RegisterForm from '../islands/RegisterForm';
import ForgotPasswordForm from '../islands/ForgotPasswordForm';
import ResetPasswordForm from '../islands/ResetPasswordForm';
import InviteForm from '../islands/InviteForm';
import { encodeChunked } from '../search/testIndex';
import Search from '../islands/Search';
import BlogList from '../islands/BlogList';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const localesDir = path.resolve(__dirname, '../../../locales');
const bundle = (lng: string) => ({
  translation: JSON.parse(readFileSync(path.join(localesDir, lng, 'translation.json'), 'utf8')),
  sidebar: JSON.parse(readFileSync(path.join(localesDir, lng, 'sidebar.json'), 'utf8')),
});

const INDEX = encodeChunked([
  {
    route: '/valuation-models/dcf',
    url: '/valuation-models/dcf',
    lang: 'en',
    title: 'Discounted Cash Flow',
    text: 'DCF values <b>future</b> cash flows.',
    keywords: ['dcf'],
  },
  { route: '/', url: '/', lang: 'en', title: 'Home', text: 'Welcome.', keywords: [] },
  { route: '/valuation-models', url: '/valuation-models', lang: 'en', title: 'Valuation Models', text: 'Models.', keywords: [] },
  { route: '/investment-basics', url: '/investment-basics', lang: 'en', title: 'Investment Basics', text: 'Basics.', keywords: [] },
]);

const FEED = {
  items: Array.from({ length: 6 }, (_, i) => ({
    title: `Post ${i + 1}`,
    link: `https://blog.example/${i + 1}`,
    author: 'Alex',
    pubDate: `2025-10-0${i + 1}T08:00:00Z`,
    guid: `g${i + 1}`,
    thumbnail: null,
    content: '',
  })),
};

/** A fetch that answers like the site: locale files, the search index, the feed, the API. */
function fakeFetch(api: (path: string, init?: RequestInit) => Response = () => new Response('{}', { status: 200 })) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const locale = /^\/locales\/(en|zh|ja)\/translation\.json$/.exec(url);
    if (locale) return new Response(JSON.stringify(bundle(locale[1]).translation));
    if (url.startsWith('/assets/search-index')) return new Response(JSON.stringify(INDEX.manifest));
    const file = /^\/assets\/search\/(\w+)\/(\w+)\.json\?v=/.exec(url);
    if (file) return new Response(JSON.stringify(INDEX.files.get(`${file[1]}-${file[2]}`)));
    if (url === '/api/feed') return new Response(JSON.stringify(FEED));
    return api(url, init);
  });
}

function tree(Island: ComponentType<any>, props: Record<string, unknown>, lng = 'en', id = 'island') {
  return <IslandRoot name="Test" id={id} lng={lng} i18n={createI18n(lng, bundle(lng))} Island={Island} props={props} />;
}

beforeEach(() => {
  sessionStorage.clear();
  // jsdom lays nothing out, so it has no scrolling.
  Element.prototype.scrollIntoView = () => {};
  // jsdom has no Image loading: resolve preloads at once.
  vi.stubGlobal(
    'Image',
    class {
      onload: (() => void) | null = null;
      set src(_: string) {
        queueMicrotask(() => this.onload?.());
      }
    },
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('server render and hydration agree', () => {
  const cases: [string, ComponentType<any>, Record<string, unknown>, string][] = [
    ['LoginForm', LoginForm, { lang: 'zh' }, 'zh'],
    ['RegisterForm', RegisterForm, { lang: 'en' }, 'en'],
    ['ForgotPasswordForm', ForgotPasswordForm, { lang: 'ja' }, 'ja'],
    ['ResetPasswordForm', ResetPasswordForm, { lang: 'en' }, 'en'],
    ['InviteForm', InviteForm, { lang: 'en' }, 'en'],
    ['Search', Search, { indexUrl: '/assets/search-index-x.json', lang: 'en' }, 'en'],
    ['BlogList', BlogList, { feedUrl: '/api/feed' }, 'zh'],
  ];
  for (const [name, Island, props, lng] of cases) {
    it(name, async () => {
      vi.stubGlobal('fetch', fakeFetch());
      const html = renderToString(tree(Island, props, lng, name.toLowerCase()), { identifierPrefix: name.toLowerCase() });
      const el = document.createElement('div');
      el.innerHTML = html;
      document.body.append(el);
      const errors: unknown[] = [];
      await act(async () => {
        hydrateRoot(el, tree(Island, props, lng, name.toLowerCase()), {
          identifierPrefix: name.toLowerCase(),
          onRecoverableError: (e) => errors.push(e),
        });
      });
      expect(errors).toEqual([]);
      el.remove();
    });
  }
});

describe('LoginForm', () => {
  it('sends nothing for empty fields and says why', async () => {
    const fetchMock = fakeFetch();
    vi.stubGlobal('fetch', fetchMock);
    render(tree(LoginForm, { lang: 'en' }));
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Please fill in username and password')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends one request however often it is submitted, and reports a failure', async () => {
    let answer: (r: Response) => void = () => {};
    const fetchMock = fakeFetch(() => new Promise<Response>((r) => (answer = r)) as never);
    vi.stubGlobal('fetch', fetchMock);
    render(tree(LoginForm, { lang: 'en' }));
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'amy' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    const button = screen.getByRole('button', { name: 'Login' });
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    fireEvent.click(button);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/denglu');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(init.body as string)).toEqual({ username: 'amy', password: 'pw' });
    await act(async () => answer(new Response('{"message":"no"}', { status: 401 })));
    expect(await screen.findByText('Login failed, please check username and password')).toBeTruthy();
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it('shows the Google message from the address and localises its links', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    window.history.replaceState(null, '', '/zh/login?error=google_unavailable');
    render(tree(LoginForm, { lang: 'zh' }, 'zh'));
    expect(await screen.findByText('目前無法使用 Google 登入')).toBeTruthy();
    expect(screen.getByRole('link', { name: '忘記密碼？' }).getAttribute('href')).toBe('/zh/verifycode');
    expect(screen.getByRole('link', { name: '還沒有帳號？註冊' }).getAttribute('href')).toBe('/zh/register');
  });

  it('asks for the password once when a Google account waits to be linked', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    window.history.replaceState(null, '', '/ja/login?error=google_link_password');
    render(tree(LoginForm, { lang: 'ja' }, 'ja'));
    expect(
      await screen.findByText(
        'この Google アカウントのメールアドレスは会員アカウントのものです。一度パスワードでログインすると連携されます。',
      ),
    ).toBeTruthy();
  });
});

describe('RegisterForm', () => {
  it("shows the server's password rule under the password before submission, read with the field", () => {
    for (const lng of ['en', 'zh', 'ja']) {
      const api = JSON.parse(readFileSync(path.join(localesDir, lng, 'api.json'), 'utf8')) as { errors: { passwordRule: string } };
      const { container, unmount } = render(tree(RegisterForm, { lang: lng }, lng));
      const password = container.querySelector<HTMLInputElement>('input[name="password"]')!;
      const described = (password.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
      expect(described).toEqual([api.errors.passwordRule]);
      // Only the password has a rule; the other fields are described by nothing until an error.
      expect(container.querySelector('input[name="username"]')!.hasAttribute('aria-describedby')).toBe(false);
      unmount();
    }
  });

  it('keeps the rule and adds the error box to the description of an empty password on submit', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    const { container } = render(tree(RegisterForm, { lang: 'en' }, 'en'));
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    const password = container.querySelector<HTMLInputElement>('input[name="password"]')!;
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const described = password
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['The password must be between 12 and 128 characters long.', 'Please fill in all fields']);
  });
});

describe('ResetPasswordForm', () => {
  it("is an illegal entry without the verification step's state", async () => {
    vi.stubGlobal('fetch', fakeFetch());
    render(tree(ResetPasswordForm, { lang: 'en' }));
    expect(await screen.findByText('Illegal entry')).toBeTruthy();
    expect(screen.getByText('Please complete the verification step first')).toBeTruthy();
  });

  it('sends the token as a bearer header and catches a mismatch first', async () => {
    const fetchMock = fakeFetch(() => new Response('{"message":"bad token"}', { status: 401 }));
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.setItem('navState:/reset-password', JSON.stringify({ username: 'amy', token: 'tok' }));
    render(tree(ResetPasswordForm, { lang: 'en' }));
    await waitFor(() => expect(sessionStorage.getItem('navState:/reset-password')).toBeNull());
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a1' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'a2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm reset' }));
    expect(await screen.findByText('The two passwords entered do not match')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'a1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm reset' }));
    expect(await screen.findByText('bad token')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/reset-password');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(JSON.parse(init.body as string)).toEqual({ username: 'amy', newPassword: 'a1' });
  });
});

describe('ForgotPasswordForm and InviteForm', () => {
  it("show the server's message, else their own", async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch((url) =>
        url === '/api/send-verify-code'
          ? new Response('oops', { status: 500 })
          : new Response('{"message":"Code is wrong"}', { status: 400 }),
      ),
    );
    render(tree(ForgotPasswordForm, { lang: 'en' }));
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'amy' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'amy@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Send failed')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Code is wrong')).toBeTruthy();
  });

  it("invite: required code, then the server's error field", async () => {
    const fetchMock = fakeFetch((path) =>
      path.startsWith('/api/auth/google/pending') ? new Response('{}') : new Response('{"error":"Code used up"}', { status: 400 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const posts = () => fetchMock.mock.calls.filter((call) => (call[1] as RequestInit | undefined)?.method === 'POST');
    window.history.replaceState(null, '', '/invite?token=t1');
    render(tree(InviteForm, { lang: 'en' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please enter invitation code')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Invitation code' }), { target: { value: 'C0DE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Code used up')).toBeTruthy();
    expect(JSON.parse((posts()[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({
      token: 't1',
      inviteCode: 'C0DE',
    });
  });

  it('invite: shows which Google account is joining', async () => {
    const fetchMock = fakeFetch((path) =>
      path === '/api/auth/google/pending?token=t%202' ? new Response('{"email":"new.person@gmail.com"}') : new Response('{}'),
    );
    vi.stubGlobal('fetch', fetchMock);
    window.history.replaceState(null, '', '/invite?token=t%202');
    render(tree(InviteForm, { lang: 'en' }));
    expect(
      await screen.findByText('Joining with the Google account new.person@gmail.com. Enter your invitation code to finish.'),
    ).toBeTruthy();
  });
});

describe('Search island', () => {
  it('loads translations and the index, searches ?q= and escapes the snippet', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    window.history.replaceState(null, '', '/search?q=future');
    const { container } = render(tree(Search, { indexUrl: '/assets/search-index-x.json', lang: 'en' }));
    expect(await screen.findByText('1 result')).toBeTruthy();
    const snippet = container.querySelector('.search-result-snippet')!;
    expect(snippet.innerHTML).toBe('DCF values &lt;b&gt;<mark>future</mark>&lt;/b&gt; cash flows.');
    expect(container.querySelector('.search-result a')!.getAttribute('href')).toBe('/valuation-models/dcf');
  });

  it('recommends pages with the hint when nothing matches', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    window.history.replaceState(null, '', '/search?q=zzzzzzzzzzzzzz');
    render(tree(Search, { indexUrl: '/assets/search-index-x.json', lang: 'en' }));
    expect(await screen.findByText('Try to press Search Button')).toBeTruthy();
    expect(screen.getByText('Recommended pages:')).toBeTruthy();
  });
});

describe('BlogList island', () => {
  it('shows loading, then recent posts and 4 cards a page', async () => {
    vi.stubGlobal('fetch', fakeFetch());
    const { container } = render(tree(BlogList, { feedUrl: '/api/feed' }, 'zh'));
    expect(screen.getByText('文章載入中…')).toBeTruthy();
    expect(await screen.findByText('第 1 頁，共 2 頁')).toBeTruthy();
    expect(container.querySelectorAll('.blog-recent li')).toHaveLength(4);
    expect(container.querySelectorAll('.blog-card')).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: '下一頁' }));
    expect(screen.getByText('第 2 頁，共 2 頁')).toBeTruthy();
    expect(container.querySelectorAll('.blog-card')).toHaveLength(2);
    const img = container.querySelector('.blog-card img')!;
    expect(img.getAttribute('src')).toBe('/images/default-thumbnail.svg');
  });

  it('shows the default thumbnail for an image that fails, in the preload or later', async () => {
    const feed = {
      items: FEED.items.map((post, i) => ({ ...post, thumbnail: i < 2 ? `https://images.example/${i + 1}.png` : null })),
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(feed))),
    );
    // The host of post 1's image is unreachable; post 2's loads in the preload.
    vi.stubGlobal(
      'Image',
      class {
        onload: (() => void) | null = null;
        onerror: (() => void) | null = null;
        set src(url: string) {
          queueMicrotask(() => (url.endsWith('/1.png') ? this.onerror?.() : this.onload?.()));
        }
      },
    );
    const { container } = render(tree(BlogList, { feedUrl: '/api/feed' }));
    await screen.findByText('page 1 of 2');
    const sources = () => Array.from(container.querySelectorAll('.blog-card img'), (img) => img.getAttribute('src'));
    expect(sources()).toEqual([
      '/images/default-thumbnail.svg',
      'https://images.example/2.png',
      ...Array(2).fill('/images/default-thumbnail.svg'),
    ]);
    // Post 2's image fails when the card shows it.
    fireEvent.error(container.querySelectorAll('.blog-card img')[1]);
    expect(sources()[1]).toBe('/images/default-thumbnail.svg');
  });

  it('logs a failed feed with console.warn and shows the empty state', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 502 })),
    );
    render(tree(BlogList, { feedUrl: '/api/feed' }));
    expect(await screen.findByText('No posts to show right now. Please check back later.')).toBeTruthy();
    expect(screen.queryByText('Loading posts…')).toBeNull();
    expect(warn).toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });
});
