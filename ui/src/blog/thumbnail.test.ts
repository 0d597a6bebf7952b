import { describe, expect, it } from 'vitest';
import { DEFAULT_THUMBNAIL, firstImageSrc, pickThumbnail, safeImageUrl } from './thumbnail';

describe('thumbnail rule', () => {
  it("uses the post's own thumbnail first", () => {
    expect(pickThumbnail({ thumbnail: 'https://cdn.example/t.png', content: '<img src="https://cdn.example/c.png">' })).toBe(
      'https://cdn.example/t.png',
    );
  });

  it('falls back to the first image in the content', () => {
    const content =
      '<p>intro</p><figure><img alt="a" src="https://cdn.example/first.jpg?w=1&amp;h=2"></figure><img src="https://cdn.example/second.jpg">';
    expect(pickThumbnail({ thumbnail: '', content })).toBe('https://cdn.example/first.jpg?w=1&h=2');
    expect(pickThumbnail({ content: "<img class=x src='https://cdn.example/single.png'>" })).toBe('https://cdn.example/single.png');
    expect(firstImageSrc('<IMG SRC=https://cdn.example/bare.gif>')).toBe('https://cdn.example/bare.gif');
  });

  it('uses the default image when there is neither', () => {
    expect(pickThumbnail({ thumbnail: '', content: '<p>no pictures</p>' })).toBe(DEFAULT_THUMBNAIL);
    expect(pickThumbnail({})).toBe(DEFAULT_THUMBNAIL);
    expect(DEFAULT_THUMBNAIL).toBe('/images/default-thumbnail.svg');
  });

  it('does not take data-src or srcset for src', () => {
    expect(firstImageSrc('<img data-src="https://a/x.png">')).toBeNull();
    expect(pickThumbnail({ content: '<img data-src="https://a/x.png">' })).toBe(DEFAULT_THUMBNAIL);
  });

  it('refuses scripts and other schemes', () => {
    expect(safeImageUrl('javascript:alert(1)')).toBeNull();
    expect(safeImageUrl('data:image/svg+xml,<svg onload=alert(1)>')).toBeNull();
    expect(safeImageUrl('/images/local.svg')).toBe('/images/local.svg');
    expect(safeImageUrl('//cdn.example/x.png')).toBe('https://cdn.example/x.png');
    expect(pickThumbnail({ thumbnail: 'javascript:alert(1)', content: '<img src="https://ok.example/y.png">' })).toBe(
      'https://ok.example/y.png',
    );
  });
});
