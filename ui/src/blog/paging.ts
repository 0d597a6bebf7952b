/** Cards per page, and how many feed items are the recent posts. */
export const POSTS_PER_PAGE = 4;
export const RECENT_COUNT = 4;

/** At least one page, so an empty list still reads 'page 1 of 1'. */
export function pageCount(total: number, perPage = POSTS_PER_PAGE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / perPage));
}

/** Pages are 1-based; anything outside 1..pageCount is pulled back inside. */
export function clampPage(page: number, total: number, perPage = POSTS_PER_PAGE): number {
  const last = pageCount(total, perPage);
  if (!Number.isFinite(page)) return 1;
  return Math.min(last, Math.max(1, Math.trunc(page)));
}

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

export function pageOf<T>(items: readonly T[], page: number, perPage = POSTS_PER_PAGE): Page<T> {
  const current = clampPage(page, items.length, perPage);
  const pages = pageCount(items.length, perPage);
  const start = (current - 1) * perPage;
  return {
    items: items.slice(start, start + perPage),
    page: current,
    pages,
    hasPrevious: current > 1,
    hasNext: current < pages,
  };
}
