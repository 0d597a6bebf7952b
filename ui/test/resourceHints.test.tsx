// The server render of an island carries none of the resource hints React 19 hoists into it.
import { describe, expect, it } from 'vitest';
import { preconnect, prefetchDNS, preload, preloadModule } from 'react-dom';
import { renderToString } from 'react-dom/server';
import { stripResourceHints } from '../src/lib/resourceHints';

function Hinting() {
  prefetchDNS('https://dns.example');
  preconnect('https://connect.example');
  preload('/font.woff2', { as: 'font', type: 'font/woff2', crossOrigin: '' });
  preloadModule('/module.js');
  return (
    <div>
      <img src="/photo.png" alt="a &gt; b" />
      <link rel="preload" href="/image.png" as="image" />
      <link rel="prefetch" href="/next.html" />
      <p title='rel="preload"'>text</p>
    </div>
  );
}

describe('stripResourceHints', () => {
  it('removes every hint React hoists and keeps the markup', () => {
    const markup = renderToString(<Hinting />);
    // What React 19 writes, so the test notices if it ever writes them differently.
    for (const rel of ['dns-prefetch', 'preconnect', 'preload', 'modulepreload', 'prefetch']) {
      expect(markup).toContain(`rel="${rel}"`);
    }
    expect(stripResourceHints(markup)).toBe('<div><img src="/photo.png" alt="a &gt; b"/><p title="rel=&quot;preload&quot;">text</p></div>');
  });
});
