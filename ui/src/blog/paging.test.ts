import { describe, expect, it } from 'vitest';
import { POSTS_PER_PAGE, RECENT_COUNT, clampPage, pageCount, pageOf } from './paging';

const posts = Array.from({ length: 10 }, (_, i) => `post${i + 1}`);

describe('paging', () => {
  it('shows 4 posts per page and 4 recent posts', () => {
    expect(POSTS_PER_PAGE).toBe(4);
    expect(RECENT_COUNT).toBe(4);
    expect(pageOf(posts, 1).items).toEqual(['post1', 'post2', 'post3', 'post4']);
    expect(pageOf(posts, 2).items).toEqual(['post5', 'post6', 'post7', 'post8']);
    expect(pageOf(posts, 3).items).toEqual(['post9', 'post10']);
  });

  it('counts pages (page X of Y)', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(4)).toBe(1);
    expect(pageCount(5)).toBe(2);
    expect(pageCount(8)).toBe(2);
    expect(pageCount(10)).toBe(3);
    const p = pageOf(posts, 2);
    expect([p.page, p.pages]).toEqual([2, 3]);
  });

  it('keeps the page inside its bounds', () => {
    expect(clampPage(0, 10)).toBe(1);
    expect(clampPage(-3, 10)).toBe(1);
    expect(clampPage(4, 10)).toBe(3);
    expect(clampPage(Number.NaN, 10)).toBe(1);
    expect(pageOf(posts, 99).items).toEqual(['post9', 'post10']);
    expect(pageOf([], 3)).toMatchObject({ items: [], page: 1, pages: 1, hasPrevious: false, hasNext: false });
  });

  it('enables previous and next only where there is a page', () => {
    expect(pageOf(posts, 1)).toMatchObject({ hasPrevious: false, hasNext: true });
    expect(pageOf(posts, 2)).toMatchObject({ hasPrevious: true, hasNext: true });
    expect(pageOf(posts, 3)).toMatchObject({ hasPrevious: true, hasNext: false });
  });
});
