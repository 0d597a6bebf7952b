/** Shipped in static/images/ and served by the site itself (no external default). */
export const DEFAULT_THUMBNAIL = '/images/default-thumbnail.svg';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };

/**
 * A feed image URL we are willing to put in `<img src>`: http(s) or site-relative. Anything else
 * (`javascript:`, `data:` blobs from a hostile feed) is dropped rather than rendered.
 */
export function safeImageUrl(src: unknown): string | null {
  if (typeof src !== 'string') return null;
  const url = src.trim().replace(/&(amp|quot|#39|lt|gt);/g, (e) => ENTITIES[e]);
  if (/^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//'))) return url;
  if (url.startsWith('//')) return `https:${url}`;
  return null;
}

/** The `src` of the first `<img>` in a post's HTML content, if any. */
export function firstImageSrc(html: unknown): string | null {
  if (typeof html !== 'string') return null;
  const img = /<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(html);
  if (!img) return null;
  return img[1] ?? img[2] ?? img[3] ?? null;
}

/** The post's thumbnail, else the first image in its content, else the default. */
export function pickThumbnail(post: { thumbnail?: unknown; content?: unknown }): string {
  return safeImageUrl(post.thumbnail) ?? safeImageUrl(firstImageSrc(post.content)) ?? DEFAULT_THUMBNAIL;
}

/** The thumbnail to show once `image` is known not to load: the default, as for a post without one. */
export function shownThumbnail(image: string, failed: ReadonlySet<string>): string {
  return failed.has(image) ? DEFAULT_THUMBNAIL : image;
}
