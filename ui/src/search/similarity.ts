/** SPEC.md section 9: a fuzzy suggestion is shown only above this similarity. */
export const FUZZY_THRESHOLD = 0.2;

/** Levenshtein distance over code points, so one CJK character counts as one edit. */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  let cur = new Array<number>(t.length + 1);
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[t.length];
}

/**
 * Levenshtein distance of two code-point arrays, giving up (returning limit + 1) as soon as every
 * cell of a row exceeds `limit`: a keystroke compares the query with every title and keyword.
 */
export function boundedDistance(s: readonly string[], t: readonly string[], limit: number): number {
  if (Math.abs(s.length - t.length) > limit) return limit + 1;
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = new Int32Array(t.length + 1);
  let cur = new Int32Array(t.length + 1);
  for (let j = 0; j <= t.length; j++) prev[j] = j;
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[t.length];
}

/** 1 for equal strings, 0 for nothing in common; case is ignored. */
export function similarity(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const longest = Math.max(Array.from(x).length, Array.from(y).length);
  if (longest === 0) return 1;
  return 1 - editDistance(x, y) / longest;
}
