// The server sends an unknown page path home with `?not-found=1` (site-server's `NOT_FOUND_FLAG`).
// The head script marks <html> for it, so the home page's prerendered notice shows from the first
// paint, and takes the flag out of the address, so a reload or a shared link does not say it again.

/** The class on <html> while the home page's "page not found" notice shows. */
export const PAGE_MISSING = 'page-missing';

const FLAG = 'not-found';

/** `search` without the flag, or null when it has none. */
export function withoutNotFoundFlag(search: string): string | null {
  const params = new URLSearchParams(search);
  if (!params.has(FLAG)) return null;
  params.delete(FLAG);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}
