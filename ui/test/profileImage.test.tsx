// The owner's portrait: a photo the build processed is a <picture> of its widths, fetched first;
// an SVG (the placeholder) stays one <img>.
import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import ProfileImage from '../src/islands/ProfileImage';

describe('ProfileImage', () => {
  it('shows a processed photo as a picture with WebP and fallback widths', () => {
    const photo = {
      webp: '/assets/photos/me-480-0123456789.webp 480w, /assets/photos/me-600-abcdef0123.webp 600w',
      fallback: '/assets/photos/me-480-1123456789.jpg 480w, /assets/photos/me-600-bbcdef0123.jpg 600w',
      sizes: '224px',
    };
    const html = renderToString(<ProfileImage src="/assets/photos/me-600-bbcdef0123.jpg" alt="Alex" photo={photo} />);
    expect(html).toContain(`<source type="image/webp" srcSet="${photo.webp}" sizes="224px"/>`);
    expect(html).toMatch(/<img src="\/assets\/photos\/me-600-bbcdef0123\.jpg" srcSet="[^"]+480w, [^"]+600w" sizes="224px" alt="Alex"/);
    expect(html).toContain('fetchPriority="high"');
  });

  it('shows a drawing as it is', () => {
    const html = renderToString(<ProfileImage src="/images/p.svg" alt="Alex" />);
    expect(html).not.toContain('<picture>');
    expect(html).toContain('<img src="/images/p.svg" alt="Alex" width="224" height="224"');
  });
});
