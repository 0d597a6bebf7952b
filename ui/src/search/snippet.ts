/** Characters of context on each side of the match. */
export const SNIPPET_CONTEXT = 50;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whitespace runs become one space so a snippet reads as a sentence. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Locate `needle` in `haystack` ignoring case. A Unicode-aware regex keeps the indices in the
 * original string, which `toLowerCase` would not when a lowered character changes length.
 */
export function findIgnoreCase(haystack: string, needle: string): { index: number; length: number } | null {
  if (!needle) return null;
  const m = new RegExp(escapeRegExp(needle), 'iu').exec(haystack);
  return m ? { index: m.index, length: m[0].length } : null;
}

/**
 * Code units of raw text looked at on each side of a match: enough for `context` code points
 * after whitespace is collapsed, without walking the whole page text for every result.
 */
const WINDOW_FACTOR = 4;

/** Letters of scripts written without spaces: every character boundary is a word boundary. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const WORDLIKE = /[\p{L}\p{N}\p{M}_'’]/u;

/** A character that belongs to a spaced word (English, accented Latin, digits), not CJK. */
export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORDLIKE.test(ch) && !UNSPACED.test(ch);
}

/** A spaced word goes on across the boundary between `left` and `right`. */
const midWord = (left: string | undefined, right: string | undefined) => isWordChar(left) && isWordChar(right);

/**
 * Up to `n` code points of `s` at its end (`fromEnd`) or its start. A cut never leaves part of a
 * spaced word: the piece of the word at the cut is dropped with the space next to it.
 */
function take(s: string, n: number, fromEnd: boolean): { text: string; cut: boolean } {
  const cps = Array.from(s);
  if (cps.length <= n) return { text: s, cut: false };
  let kept = fromEnd ? cps.slice(cps.length - n) : cps.slice(0, n);
  const outside = fromEnd ? cps[cps.length - n - 1] : cps[n];
  if (fromEnd ? midWord(outside, kept[0]) : midWord(kept[kept.length - 1], outside)) {
    if (fromEnd) {
      let i = 0;
      while (i < kept.length && isWordChar(kept[i])) i++;
      kept = kept.slice(i);
    } else {
      let i = kept.length;
      while (i > 0 && isWordChar(kept[i - 1])) i--;
      kept = kept.slice(0, i);
    }
  }
  const text = kept.join('');
  return { text: fromEnd ? text.trimStart() : text.trimEnd(), cut: true };
}

const collapse = (s: string) => s.replace(/\s+/g, ' ');

/** The code point that ends just before `i` / starts at `i` (undefined at either end). */
function pointBefore(text: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const low = text.charCodeAt(i - 1);
  const pair = i >= 2 && low >= 0xdc00 && low <= 0xdfff;
  return String.fromCodePoint(text.codePointAt(pair ? i - 2 : i - 1)!);
}
const pointAt = (text: string, i: number) => (i < text.length ? String.fromCodePoint(text.codePointAt(i)!) : undefined);

/** The match widened to the whole spaced word(s) it touches, at most `limit` code units each way. */
function widenToWords(text: string, index: number, length: number, limit: number): { index: number; length: number } {
  let start = index;
  let end = index + length;
  while (index - start < limit && midWord(pointBefore(text, start), pointAt(text, start))) start -= pointBefore(text, start)!.length;
  while (end - index - length < limit && midWord(pointBefore(text, end), pointAt(text, end))) end += pointAt(text, end)!.length;
  return { index: start, length: end - start };
}

/**
 * An HTML snippet of `text` around the first match of one of `terms` (tried in order). The match
 * is widened to the whole word it is part of and put in `<mark>`; the context on each side is at
 * most `context` characters and starts and ends at a word boundary (any character boundary in
 * Chinese and Japanese). Every piece of text is escaped before the only markup we add is put
 * around it, so neither the page text nor the query can inject markup. Without a match: the
 * start of the text.
 */
export function buildSnippet(text: string, terms: string | string[], context = SNIPPET_CONTEXT): string {
  const span = context * WINDOW_FACTOR;
  for (const term of Array.isArray(terms) ? terms : [terms]) {
    const exact = findIgnoreCase(text, normalizeSpace(term));
    if (!exact) continue;
    const found = widenToWords(text, exact.index, exact.length, context);
    const from = Math.max(0, found.index - span);
    const to = Math.min(text.length, found.index + found.length + span);
    const beforeRaw = collapse(text.slice(from, found.index));
    const before = take(from === 0 ? beforeRaw.trimStart() : beforeRaw, context, true);
    const afterRaw = collapse(text.slice(found.index + found.length, to));
    const after = take(to === text.length ? afterRaw.trimEnd() : afterRaw, context, false);
    const match = collapse(text.slice(found.index, found.index + found.length));
    return (
      (before.cut || (from > 0 && before.text.length > 0) ? '…' : '') +
      escapeHtml(before.text) +
      '<mark>' +
      escapeHtml(match) +
      '</mark>' +
      escapeHtml(after.text) +
      (after.cut || (to < text.length && after.text.length > 0) ? '…' : '')
    );
  }
  const head = take(normalizeSpace(text.slice(0, span * 2)), context * 2, false);
  return escapeHtml(head.text) + (head.cut || text.length > span * 2 ? '…' : '');
}
