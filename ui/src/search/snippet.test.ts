import { describe, expect, it } from 'vitest';
import { SNIPPET_CONTEXT, buildSnippet, escapeHtml } from './snippet';
import { prepareIndex, search } from './search';

/** Markup in a snippet: any tag other than the `<mark>` pair we add. */
const foreignTags = (html: string) => html.replace(/<\/?mark>/g, '').match(/<[^>]*>/g) ?? [];

describe('snippet', () => {
  it('keeps at most 50 characters each side of the match and marks it', () => {
    expect(SNIPPET_CONTEXT).toBe(50);
    const text = 'a '.repeat(40) + 'TARGET' + ' b'.repeat(40);
    const html = buildSnippet(text, 'target');
    expect(html).toBe('…' + 'a '.repeat(25) + '<mark>TARGET</mark>' + ' b'.repeat(25) + '…');
  });

  it('starts and ends the context at word boundaries', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike';
    const text = `${words} discount ${words}`;
    const html = buildSnippet(text, 'discount');
    const [before, rest] = html.split('<mark>');
    const after = rest.split('</mark>')[1];
    // Every word shown is a whole word of the text, and the context stays within 50 characters.
    const shown = (s: string) => s.replace(/…/g, '').trim().split(' ');
    for (const w of [...shown(before), ...shown(after)]) expect(words.split(' ')).toContain(w);
    expect(Array.from(before.replace('…', '')).length).toBeLessThanOrEqual(50);
    expect(Array.from(after.replace('…', '')).length).toBeLessThanOrEqual(50);
    expect(before.startsWith('…')).toBe(true);
    expect(after.endsWith('…')).toBe(true);
    expect(before).toBe('…foxtrot golf hotel india juliett kilo lima mike ');
    expect(after).toBe(' alpha bravo charlie delta echo foxtrot golf hotel…');
  });

  it('highlights the whole word a match is part of', () => {
    expect(buildSnippet('The cash flows are discounted at the rate.', 'discount')).toBe(
      'The cash flows are <mark>discounted</mark> at the rate.',
    );
    // a hyphen separates words
    expect(buildSnippet('value of price-to-earnings ratios', 'earn')).toBe('value of price-to-<mark>earnings</mark> ratios');
    expect(buildSnippet('Company’s value', 'compan')).toBe('<mark>Company’s</mark> value');
    // Chinese and Japanese: the match itself, cut at character boundaries
    expect(buildSnippet('企業的價值是其未來現金流量折現後的總和', '折現')).toBe('企業的價值是其未來現金流量<mark>折現</mark>後的總和');
    expect(buildSnippet('将来のキャッシュフローを割り引いた', 'キャッシュ')).toBe('将来の<mark>キャッシュ</mark>フローを割り引いた');
    // a spaced word beside CJK text is widened, the CJK characters are not
    expect(buildSnippet('株価収益率PERratio', 'per')).toBe('株価収益率<mark>PERratio</mark>');
  });

  it('does not add ellipses when the text is short', () => {
    expect(buildSnippet('pay the dividend now', 'dividend')).toBe('pay the <mark>dividend</mark> now');
  });

  it('counts CJK and astral characters as one each', () => {
    const text = '前'.repeat(60) + '折現' + '後'.repeat(60);
    const html = buildSnippet(text, '折現');
    expect(html).toBe('…' + '前'.repeat(50) + '<mark>折現</mark>' + '後'.repeat(50) + '…');
    const emoji = '😀'.repeat(60) + 'x';
    expect(buildSnippet(emoji, 'x')).toBe('…' + '😀'.repeat(50) + '<mark>x</mark>');
  });

  it('escapes a query containing markup', () => {
    const text = 'Beware of <script>alert("x")</script> in "quotes" & tags';
    const html = buildSnippet(text, '<script>alert("x")');
    expect(foreignTags(html)).toEqual([]);
    expect(html).toContain('<mark>&lt;script&gt;alert(&quot;x&quot;)</mark>');
    expect(html).not.toContain('<script');
  });

  it('escapes page text around the match and without a match', () => {
    const text = '<img src=x onerror="alert(1)"> value <b>bold</b>';
    for (const q of ['value', 'no such thing', 'onerror', '"><svg onload=alert(1)>']) {
      const html = buildSnippet(text, q);
      expect(foreignTags(html)).toEqual([]);
      expect(html).not.toMatch(/<img|<b>|<svg/);
    }
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('treats regex characters in the query literally', () => {
    expect(buildSnippet('P/E (price to earnings) ratio', '(price')).toBe('P/E <mark>(price</mark> to earnings) ratio');
    expect(buildSnippet('a+b', '.*')).toBe('a+b');
  });

  it('escapes snippets that come out of a search', () => {
    const idx = prepareIndex({
      version: 1,
      pages: [{ route: '/x', url: '/x', lang: 'en', title: '<i>t</i>', text: '<script>alert("pwned")</script>', keywords: [] }],
    });
    const out = search(idx, '<script>', { lang: 'en' })!;
    expect(out.results).toHaveLength(1);
    expect(foreignTags(out.results[0].textSnippet)).toEqual([]);
    expect(out.results[0].textSnippet).toContain('<mark>&lt;script&gt;</mark>');
  });
});
