import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without types
import { configFile, languagesModule, readTranslation } from '../languages-module.mjs';
import { addressNamesLanguage, languageOfTag, languageRedirect, localizedPath, splitLanguagePrefix } from '../src/lib/languages';
import { activeSection } from '../src/lib/sections';

describe('language prefixes', () => {
  it('localises English routes', () => {
    expect(localizedPath('/notes', 'en')).toBe('/notes');
    expect(localizedPath('/notes', 'zh')).toBe('/zh/notes');
    expect(localizedPath('/', 'ja')).toBe('/ja/');
    expect(localizedPath('/', 'en')).toBe('/');
  });

  it('splits a prefixed path', () => {
    expect(splitLanguagePrefix('/zh/notes/liquidity-risk')).toEqual({ lang: 'zh', route: '/notes/liquidity-risk' });
    expect(splitLanguagePrefix('/ja')).toEqual({ lang: 'ja', route: '/' });
    expect(splitLanguagePrefix('/ja/')).toEqual({ lang: 'ja', route: '/' });
    expect(splitLanguagePrefix('/zhx')).toEqual({ lang: 'en', route: '/zhx' });
  });
});

describe('the language of a tag', () => {
  it('maps <html lang> back to its language', () => {
    expect(languageOfTag('zh-Hant')).toBe('zh');
    expect(languageOfTag('ja')).toBe('ja');
    expect(languageOfTag('zh')).toBe('zh');
    expect(languageOfTag('fr')).toBe('en');
  });
});

describe('head script redirect rule', () => {
  it('sends a visitor to the stored language', () => {
    expect(languageRedirect('/notes', 'en', 'zh')).toBe('/zh/notes');
    expect(languageRedirect('/zh/notes', 'zh', 'en')).toBe('/notes');
    expect(languageRedirect('/zh/', 'zh', 'ja')).toBe('/ja/');
    expect(languageRedirect('/', 'en', 'ja')).toBe('/ja/');
    expect(languageRedirect('/ja/valuation-models/dcf', 'ja', 'zh')).toBe('/zh/valuation-models/dcf');
  });

  it('stays when nothing or something unusable is stored', () => {
    expect(languageRedirect('/notes', 'en', null)).toBeNull();
    expect(languageRedirect('/notes', 'en', 'en')).toBeNull();
    expect(languageRedirect('/notes', 'en', 'fr')).toBeNull();
    expect(languageRedirect('/notes', null, 'zh')).toBeNull();
  });

  it('leaves an address that names its language alone (the head script asks first)', () => {
    expect(addressNamesLanguage('/ja/valuation-models/dcf')).toBe(true);
    expect(addressNamesLanguage('/zh/')).toBe(true);
    expect(addressNamesLanguage('/notes')).toBe(false);
    expect(addressNamesLanguage('/')).toBe(false);
    expect(addressNamesLanguage('/en/notes')).toBe(false);
  });

  it('never sends a page to itself', () => {
    // An unprefixed page the server answered in Chinese while English is stored.
    expect(languageRedirect('/notes', 'zh', 'en')).toBeNull();
  });
});

describe('active top-bar section', () => {
  // A top bar as site-config.yaml's `top_bar` lists it.
  const sections = [
    { key: 'home', route: '/' },
    { key: 'investment', route: '/investment-basics' },
    { key: 'valuation', route: '/valuation-models' },
    { key: 'equity', route: '/equity-research' },
    { key: 'ma', route: '/ma-analysis' },
    { key: 'tools', route: '/tools' },
    { key: 'about', route: '/about' },
  ];
  it.each([
    ['/', 'home'],
    ['/login', 'login'],
    ['/investment-basics/risk-and-reward', 'investment'],
    ['/valuation-models/dcf', 'valuation'],
    ['/equity-research', 'equity'],
    ['/ma-analysis', 'ma'],
    ['/tools', 'tools'],
    ['/about', 'about'],
    ['/notes', null],
    ['/valuation-modelsx', null],
  ])('%s -> %s', (route, section) => {
    expect(activeSection(route, sections)).toBe(section);
  });

  it('follows the configured sections, and a top bar without home highlights nothing at /', () => {
    const mine = [{ key: 'notes', route: '/notes' }];
    expect(activeSection('/notes/first', mine)).toBe('notes');
    expect(activeSection('/', mine)).toBeNull();
  });
});

describe('the generated languages module', () => {
  // A fourth language's translation, with just the words the module bundles.
  const korean = {
    breadcrumb: {
      home: '홈',
      segments: {
        about: '글',
        'valuation-models': '가치 평가',
        'investment-basics': '투자 기초',
        notes: '노트',
        search: '검색',
        login: '로그인',
      },
    },
    common: { retry: '다시 시도' },
  };
  const withKorean = (code: string) => (code === 'ko' ? Promise.resolve(korean) : readTranslation(code));
  const fourLanguages = [
    'languages:',
    '  - { code: en, tag: en }',
    '  - { code: zh, tag: zh-Hant }',
    '  - { code: ja, tag: ja }',
    '  - { code: ko, tag: ko }',
    'default_language: en',
  ].join('\n');

  it('bundles the route labels and the retry word of every language as locales/ has them', async () => {
    const text: string = await languagesModule(await readFile(configFile, 'utf8'));
    for (const code of ['en', 'zh', 'ja']) {
      const translation = await readTranslation(code);
      expect(text).toContain(`home: '${translation.breadcrumb.home}'`);
      expect(text).toContain(`notes: '${translation.breadcrumb.segments.notes}'`);
      expect(text).toContain(`'valuation-models': '${translation.breadcrumb.segments['valuation-models']}'`);
      expect(text).toContain(`${code}: '${translation.common.retry}'`);
    }
  });

  it('follows a fourth language in the config, with its words', async () => {
    const text: string = await languagesModule(fourLanguages, withKorean);
    expect(text).toContain("export const LANGUAGES = ['en', 'zh', 'ja', 'ko'] as const;");
    expect(text).toContain("ko: 'ko',");
    expect(text).toContain("zh: 'zh-Hant',");
    expect(text).toContain("ko: '다시 시도',");
    expect(text).toContain("search: '검색'");
  });

  it('names the file and the key a language lacks', async () => {
    const lacking = (code: string) => (code === 'ko' ? Promise.resolve({ ...korean, common: {} }) : readTranslation(code));
    await expect(languagesModule(fourLanguages, lacking)).rejects.toThrow('locales/ko/translation.json has no text at common.retry');
  });

  it('refuses a default language that is not listed', async () => {
    await expect(languagesModule('languages:\n  - { code: en, tag: en }\ndefault_language: fr\n')).rejects.toThrow(/default_language/);
  });
});
