// The SSR protocol as the generator uses it: one `node ui/.ssr/render.mjs` over a batch.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const uiDir = path.resolve(__dirname, '..');
const localesDir = path.resolve(uiDir, '../locales');
const renderer = path.join(uiDir, '.ssr/render.mjs');
let distDir = '';

beforeAll(() => {
  // A real build, into a scratch dist/ so the site's own stays as it is.
  distDir = mkdtempSync(path.join(os.tmpdir(), 'ui-dist-'));
  // What the generator and an earlier UI build left there.
  mkdirSync(path.join(distDir, 'assets'));
  for (const file of [
    'index.html',
    'assets/search-index-OLD1.json',
    'assets/search-index-OLD1.json.gz',
    'assets/TopBar-STALE1.js',
    'assets/TopBar-STALE1.js.br',
  ]) {
    writeFileSync(path.join(distDir, file), 'x');
  }
  const build = spawnSync(process.execPath, ['build.mjs'], { cwd: uiDir, env: { ...process.env, DIST_DIR: distDir }, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
});

/** One run of the renderer as the generator makes it: the answer on file descriptor 3. */
function render(input: unknown, nodeOptions: string[] = []) {
  const run = spawnSync(process.execPath, [...nodeOptions, renderer], {
    input: JSON.stringify({ protocol: 2, ...(input as object) }),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, answer: String(run.output[3] ?? '') };
}

type Answer = { protocol: number; html: string[]; shared: number };

// The top bar's sections, as the generator passes site-config.yaml's `top_bar`.
const sections = [
  { key: 'home', route: '/' },
  { key: 'investment', route: '/investment-basics' },
  { key: 'about', route: '/about' },
];

const languages = [
  { code: 'en', href: '/notes' },
  { code: 'zh', href: '/zh/notes' },
  { code: 'ja', href: '/ja/notes' },
];

describe('render.mjs', () => {
  it('renders every item of a batch in its language', () => {
    const result = render({
      localesDir,
      items: [
        { id: 'topbar', island: 'TopBar', props: { route: '/notes', lang: 'zh', languages, sections }, lng: 'zh' },
        { id: 'topbar', island: 'TopBar', props: { route: '/login', lang: 'en', languages, sections }, lng: 'en' },
        {
          id: 'sidebar',
          island: 'Sidebar',
          props: { lang: 'ja', menu: [{ titleKey: 'notes', link: '/ja/notes', icon: 'note', current: 'page' }] },
          lng: 'ja',
        },
        { id: 'profile', island: 'ProfileImage', props: { src: '/images/p.svg', alt: 'Alex' }, lng: 'en' },
        { id: 'welcome', island: 'Welcome', props: {}, lng: 'en' },
      ],
    });
    expect(result.status, result.stderr).toBe(0);
    const { protocol, html } = JSON.parse(result.answer) as Answer;
    expect(protocol).toBe(2);
    expect(html).toHaveLength(5);
    const [k0, k1, k2, k3, k4] = html;
    const zh = JSON.parse(readFileSync(path.join(localesDir, 'zh/translation.json'), 'utf8'));
    expect(k0).toContain(zh.topbar.memberLogin);
    expect(k0).toContain('href="/zh/login"');
    expect(k0).toContain('aria-current="true"');
    // No Member Login on the login page.
    expect(k1).not.toContain('href="/login"');
    const jaSidebar = JSON.parse(readFileSync(path.join(localesDir, 'ja/sidebar.json'), 'utf8'));
    expect(k2).toContain(jaSidebar.notes);
    expect(k2).toContain('aria-current="page"');
    expect(k3).toContain('<img');
    expect(k3).not.toContain('rel="preload"');
    // Prerendered closed: the overlay is browser state.
    expect(k4).not.toMatch(/<dialog[^>]*\sopen/);
  });

  it("shares the top bar's render among a section's pages, each with its own language links, in request order", () => {
    // Links with every character React escapes; the notes section twice per language, and home.
    // The languages' groups interleave, so an answer out of order would give a page another's links.
    const links = (route: string) => [
      { code: 'en', href: `${route}?a=1&b="2"` },
      { code: 'zh', href: `/zh${route}?<x>` },
      { code: 'ja', href: `/ja${route}#it's` },
    ];
    const items = ['/notes/a', '/notes/b', '/notes/c', '/'].flatMap((route) =>
      ['en', 'zh'].map((lng) => ({
        id: 'topbar',
        island: 'TopBar',
        props: { route, lang: lng, languages: links(route), sections },
        lng,
      })),
    );
    const batch = render({ localesDir, items });
    expect(batch.status, batch.stderr).toBe(0);
    const answer = JSON.parse(batch.answer) as Answer;
    // Per language: notes/a is rendered in full (and checked), notes/b and notes/c are filled in.
    expect(answer.shared).toBe(4);
    expect(answer.html).toHaveLength(items.length);
    for (const [n, item] of items.entries()) {
      const alone = render({ localesDir, items: [item] });
      expect(alone.status, alone.stderr).toBe(0);
      expect(answer.html[n], `${item.lng} ${item.props.route}`).toBe((JSON.parse(alone.answer) as Answer).html[0]);
    }
    // notes/b in Chinese and notes/c in English.
    expect(answer.html[3]).toContain('href="/zh/notes/b?&lt;x&gt;"');
    expect(answer.html[4]).toContain('href="/notes/c?a=1&amp;b=&quot;2&quot;"');
  });

  it('fails clearly on an unknown island', () => {
    const result = render({ localesDir, items: [{ id: 'x', island: 'NoSuchIsland', props: {}, lng: 'en' }] });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('NoSuchIsland');
    expect(result.answer).toBe('');
  });

  it('refuses a request of another protocol version', () => {
    for (const protocol of [undefined, 1, 3]) {
      const result = render({ protocol, localesDir, items: [] });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(`the generator speaks island protocol ${protocol ?? '1 (no version)'}, this renderer 2`);
      expect(result.answer).toBe('');
    }
  });

  it('answers on its own channel, whatever is printed on stdout while it renders', () => {
    // A module loaded first that prints on stdout whenever the renderer serialises anything (during
    // the render too), as logging islands and libraries do; some of it looks like an answer.
    const noisy =
      'const stringify = JSON.stringify; JSON.stringify = (...args) => { console.log("noise"); process.stdout.write(\'{"html":[]}\'); return stringify(...args); };';
    const result = render(
      { localesDir, items: [{ id: 'topbar', island: 'TopBar', props: { route: '/notes', lang: 'en', languages, sections }, lng: 'en' }] },
      ['--import', `data:text/javascript,${encodeURIComponent(noisy)}`],
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('noise');
    const answer = JSON.parse(result.answer) as Answer;
    expect(answer.html).toHaveLength(1);
    expect(answer.html[0]).toContain('class="topbar"');
  });

  it('gives two islands of one kind on a page, with the ids the generator gives them, distinct element ids', () => {
    const calculator = (id: string) => ({ id, island: 'DcfCalculator', props: { lang: 'en', route: '/valuation-models/dcf' }, lng: 'en' });
    const result = render({ localesDir, items: [calculator('dcfcalculator'), calculator('dcfcalculator-2')] });
    expect(result.status, result.stderr).toBe(0);
    const ids = (JSON.parse(result.answer) as Answer).html.map((html) => [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    expect(ids[0].length).toBeGreaterThan(0);
    expect(ids[1]).toHaveLength(ids[0].length);
    expect(ids[0].filter((id) => ids[1].includes(id))).toEqual([]);
  });

  it('fails clearly on malformed input', () => {
    const result = render({ items: 'nope' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('localesDir');
  });

  it("removes only its own stale files, never the generator's", () => {
    expect(existsSync(path.join(distDir, 'index.html'))).toBe(true);
    expect(existsSync(path.join(distDir, 'assets/search-index-OLD1.json'))).toBe(true);
    expect(existsSync(path.join(distDir, 'assets/search-index-OLD1.json.gz'))).toBe(true);
    expect(existsSync(path.join(distDir, 'assets/TopBar-STALE1.js'))).toBe(false);
    expect(existsSync(path.join(distDir, 'assets/TopBar-STALE1.js.br'))).toBe(false);
  });

  it('wrote the manifest the generator reads', () => {
    const manifest = JSON.parse(readFileSync(path.join(distDir, 'assets/manifest.json'), 'utf8'));
    expect(manifest.entry).toMatch(/^\/assets\/entry-[A-Z0-9]+\.js$/);
    expect(manifest.css).toHaveLength(1);
    expect(manifest.css[0]).toMatch(/^\/assets\/entry-[A-Z0-9]+\.css$/);
    expect(typeof manifest.headScript).toBe('string');
    // Every stylesheet, in file-name order.
    const css = readFileSync(path.join(distDir, manifest.css[0]), 'utf8');
    const order = ['.island{display:contents}', '.skip-link{', '.topbar{', '.entry-tech', '.home-profile{'].map((s) => css.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The same stylesheet for the pages to inline, its files named from the site's root.
    expect(manifest.inlineCss).toBe(css.trim());
    expect(css).toMatch(/url\("?\/assets\/article-math-[A-Z0-9]+\.woff2/);
    for (const name of ['TopBar', 'Sidebar', 'Welcome', 'ProfileImage']) {
      expect(manifest.islands[name][0]).toMatch(new RegExp(`^/assets/${name}-[A-Z0-9]+\\.js$`));
      for (const url of manifest.islands[name]) expect(existsSync(path.join(distDir, url))).toBe(true);
    }
  });

  it('renders each island the same with only the text sections the manifest names for it', () => {
    // A page carries only those sections (the generator's island_text): a section the island
    // uses but the manifest misses would leave its keys showing once it hydrates.
    const manifest = JSON.parse(readFileSync(path.join(distDir, 'assets/manifest.json'), 'utf8'));
    const calculator = (route: string) => ({ lang: 'ja', route });
    const props: Record<string, object> = {
      TopBar: { route: '/notes', lang: 'ja', languages, sections },
      Sidebar: { lang: 'ja', menu: [{ titleKey: 'notes', link: '/ja/notes', icon: 'note', current: 'page' }] },
      Welcome: {},
      ProfileImage: { src: '/images/p.svg', alt: 'Alex' },
      BlogList: { feedUrl: '/api/feed', lang: 'ja' },
      Search: { indexUrl: '/assets/search-index-x.json', lang: 'ja' },
      LoginForm: { lang: 'ja' },
      RegisterForm: { lang: 'ja' },
      ForgotPasswordForm: { lang: 'ja' },
      ResetPasswordForm: { lang: 'ja' },
      InviteForm: { lang: 'ja' },
      MemberSessions: {},
      DcfCalculator: calculator('/valuation-models/dcf'),
      DdmCalculator: calculator('/valuation-models/ddm'),
      WaccCalculator: calculator('/valuation-models/wacc'),
      MultiplesCalculator: calculator('/valuation-models/ev-ebitda'),
    };
    expect(Object.keys(props).sort()).toEqual(Object.keys(manifest.islands).sort());
    const items = Object.entries(props).map(([island, p]) => ({ id: island.toLowerCase(), island, props: p, lng: 'ja' }));
    const full = render({ localesDir, items });
    expect(full.status, full.stderr).toBe(0);
    const fullHtml = (JSON.parse(full.answer) as Answer).html;
    for (const [n, item] of items.entries()) {
      const sections = new Set([...manifest.text.entry, ...manifest.text.islands[item.island]]);
      const pruned = mkdtempSync(path.join(os.tmpdir(), 'ui-text-'));
      mkdirSync(path.join(pruned, 'ja'));
      const translation = JSON.parse(readFileSync(path.join(localesDir, 'ja/translation.json'), 'utf8'));
      const kept = Object.fromEntries(Object.entries(translation).filter(([section]) => sections.has(section)));
      writeFileSync(path.join(pruned, 'ja/translation.json'), JSON.stringify(kept));
      writeFileSync(path.join(pruned, 'ja/sidebar.json'), readFileSync(path.join(localesDir, 'ja/sidebar.json')));
      const alone = render({ localesDir: pruned, items: [item] });
      expect(alone.status, alone.stderr).toBe(0);
      expect((JSON.parse(alone.answer) as Answer).html[0], item.island).toBe(fullHtml[n]);
    }
    // The calculators' text, the largest section, is theirs alone.
    const withCalculator = Object.entries(manifest.text.islands as Record<string, string[]>)
      .filter(([, sections]) => sections.includes('calculator'))
      .map(([name]) => name);
    expect(withCalculator.sort()).toEqual(['DcfCalculator', 'DdmCalculator', 'MultiplesCalculator', 'WaccCalculator']);
  });
});
