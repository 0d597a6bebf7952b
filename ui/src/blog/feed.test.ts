import { describe, expect, it } from 'vitest';
import { formatDate, normalizePosts, safeLink } from './feed';
import { DEFAULT_THUMBNAIL } from './thumbnail';

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

  it('formats dates and keeps unparsable ones', () => {
    expect(formatDate('Wed, 01 Oct 2025 08:00:00 GMT', 'en')).toBe('Oct 1, 2025');
    expect(formatDate('2025-10-01 08:00:00', 'en')).toBe('Oct 1, 2025');
    expect(formatDate('someday', 'en')).toBe('someday');
  });
});
