import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createI18n } from '../lib/i18n';
import { formatDate, normalizePosts, safeLink, type Translate } from './feed';
import { DEFAULT_THUMBNAIL } from './thumbnail';

const locale = (lng: string) =>
  JSON.parse(readFileSync(path.resolve(__dirname, `../../../locales/${lng}/translation.json`), 'utf8')) as Record<string, unknown>;

describe('feed posts', () => {
  it('normalises the feed and applies the thumbnail rule', () => {
    const posts = normalizePosts([
      {
        title: 'One',
        link: 'https://blog.example/1',
        author: 'A',
        pubDate: '2025-10-01 08:00:00',
        guid: 'g1',
        thumbnail: '',
        content: '<img src="https://img.example/1.png">',
      },
      { title: 'Two', link: 'https://blog.example/2', guid: 'g2' },
      { title: '', link: 'https://blog.example/empty', guid: 'g3' },
      { title: 'One again', guid: 'g1' },
      null,
    ]);
    expect(posts.map((p) => p.title)).toEqual(['One', 'Two']);
    expect(posts[0].image).toBe('https://img.example/1.png');
    expect(posts[1].image).toBe(DEFAULT_THUMBNAIL);
    expect(posts[1].author).toBe('');
  });

  it('rejects a body that is not a list', () => {
    expect(() => normalizePosts({ status: 'error' })).toThrow();
    expect(normalizePosts({ items: [{ title: 'x', guid: '1' }] })).toHaveLength(1);
  });

  it('allows only http(s) post links', () => {
    expect(safeLink('https://blog.example/x')).toBe('https://blog.example/x');
    expect(safeLink('javascript:alert(1)')).toBeNull();
  });

  it('formats dates in the one format of each language and keeps unparsable ones', () => {
    const t = (lng: string) => createI18n(lng, { translation: locale(lng) }).t as Translate;
    expect(formatDate('Wed, 01 Oct 2025 08:00:00 GMT', t('en'))).toBe('1 October 2025');
    expect(formatDate('2025-10-01 08:00:00', t('en'))).toBe('1 October 2025');
    expect(formatDate('Wed, 10 Sep 2025 23:30:00 GMT', t('zh'))).toBe('2025年9月10日');
    expect(formatDate('2025-12-31T23:59:59Z', t('ja'))).toBe('2025年12月31日');
    expect(formatDate('someday', t('en'))).toBe('someday');
  });
});
