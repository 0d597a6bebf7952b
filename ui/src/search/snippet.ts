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

/** The last `n` code points of `s` (no half surrogate pairs in a CJK or emoji snippet). */
function lastCodePoints(s: string, n: number): { text: string; cut: boolean } {
  const cps = Array.from(s);
  return cps.length > n ? { text: cps.slice(cps.length - n).join(''), cut: true } : { text: s, cut: false };
}

function firstCodePoints(s: string, n: number): { text: string; cut: boolean } {
  const cps = Array.from(s);
  return cps.length > n ? { text: cps.slice(0, n).join(''), cut: true } : { text: s, cut: false };
}

const collapse = (s: string) => s.replace(/\s+/g, ' ');

/**
 * An HTML snippet of `text` around the first match of one of `terms` (tried in order), with the
 * match in `<mark>`. Every piece of text is escaped before the only markup we add is put around
 * it, so neither the page text nor the query can inject markup. Without a match: the start of
 * the text.
 */
export function buildSnippet(text: string, terms: string | string[], context = SNIPPET_CONTEXT): string {
  const span = context * WINDOW_FACTOR;
  for (const term of Array.isArray(terms) ? terms : [terms]) {
    const found = findIgnoreCase(text, normalizeSpace(term));
    if (!found) continue;
    const from = Math.max(0, found.index - span);
    const to = Math.min(text.length, found.index + found.length + span);
    const beforeRaw = collapse(text.slice(from, found.index));
    const before = lastCodePoints(from === 0 ? beforeRaw.trimStart() : beforeRaw, context);
    const afterRaw = collapse(text.slice(found.index + found.length, to));
    const after = firstCodePoints(to === text.length ? afterRaw.trimEnd() : afterRaw, context);
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
  const head = firstCodePoints(normalizeSpace(text.slice(0, span * 2)), context * 2);
  return escapeHtml(head.text) + (head.cut || text.length > span * 2 ? '…' : '');
}
