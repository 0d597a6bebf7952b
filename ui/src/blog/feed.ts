import { pickThumbnail } from './thumbnail';

/** One post as `GET /api/feed` returns it. */
export interface FeedPost {
  title: string;
  link: string;
  author: string;
  pubDate: string;
  guid: string;
  thumbnail: string;
  content: string;
}

/** A post ready to draw: its thumbnail already chosen by the thumbnail rule. */
export interface BlogPost extends FeedPost {
  image: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Only http(s) links become `<a href>`: a feed is not trusted to hand us `javascript:`. */
export function safeLink(href: string): string | null {
  return /^https?:\/\//i.test(href.trim()) ? href.trim() : null;
}

/** Whatever the feed sent → posts with string fields; entries without a title are skipped. */
export function normalizePosts(data: unknown): BlogPost[] {
  const list = Array.isArray(data)
    ? data
    : Array.isArray((data as { items?: unknown })?.items)
      ? (data as { items: unknown[] }).items
      : null;
  if (!list) throw new Error('feed is not a list of posts');
  const seen = new Set<string>();
  const posts: BlogPost[] = [];
  for (const raw of list) {
    if (!raw || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    const post: FeedPost = {
      title: str(r.title).trim(),
      link: str(r.link),
      author: str(r.author),
      pubDate: str(r.pubDate),
      guid: str(r.guid) || str(r.link) || str(r.title),
      thumbnail: str(r.thumbnail),
      content: str(r.content),
    };
    if (!post.title || seen.has(post.guid)) continue;
    seen.add(post.guid);
    posts.push({ ...post, image: pickThumbnail(post) });
  }
  return posts;
}

/** Looks a key up with values to put in, as i18next's `t` does. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * `pubDate` shown in the one date format of the page's language, the generator's rule for every
 * date of the site (`date.day` with `date.months.N` of locales/: "1 October 2025",
 * 「2025年10月1日」), on the UTC calendar; unparsable dates are shown as sent.
 */
export function formatDate(pubDate: string, t: Translate): string {
  const time = Date.parse(pubDate.includes(' ') && !pubDate.includes('T') && /^\d{4}-/.test(pubDate) ? pubDate.replace(' ', 'T') : pubDate);
  if (Number.isNaN(time)) return pubDate;
  const date = new Date(time);
  const monthName = t(`date.months.${date.getUTCMonth() + 1}`);
  return t('date.day', { day: date.getUTCDate(), monthName, year: date.getUTCFullYear() });
}

export async function fetchFeed(url: string, signal?: AbortSignal): Promise<BlogPost[]> {
  const res = await fetch(url, { headers: { Accept: 'application/json' }, signal });
  if (!res.ok) throw new Error(`feed answered ${res.status}`);
  return normalizePosts(await res.json());
}

/**
 * Resolves once every image has loaded or failed (images are preloaded before
 * posts show), with the URLs that failed; a slow image host cannot hold the list back longer than
 * `timeoutMs` (its images count as not failed).
 */
export function preloadImages(urls: string[], timeoutMs = 4000): Promise<Set<string>> {
  const unique = [...new Set(urls)];
  const failed = new Set<string>();
  if (typeof Image === 'undefined' || unique.length === 0) return Promise.resolve(failed);
  const loads = unique.map(
    (src) =>
      new Promise<void>((resolve) => {
        const img = new Image();
        img.onload = () => resolve();
        img.onerror = () => {
          failed.add(src);
          resolve();
        };
        img.src = src;
      }),
  );
  return Promise.race([Promise.all(loads), new Promise<void>((r) => setTimeout(r, timeoutMs))]).then(() => new Set(failed));
}
