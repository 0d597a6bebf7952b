/** A fuzzy suggestion is shown only above this similarity. */
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

/** One word of a candidate: its text (to remember comparisons by) and its code points. */
export interface Word {
  text: string;
  points: string[];
}

/** Words of a title, keyword or query: split at spaces and punctuation; unspaced CJK stays whole. */
export function words(text: string): Word[] {
  return text
    .split(/[\s\-_/(),.:;!?·、，。：；！？（）]+/u)
    .filter(Boolean)
    .map((w) => ({ text: w, points: Array.from(w) }));
}

/**
 * How well a query matches one candidate (a title, keyword, label or route segment), 0 to 1: the
 * similarity of the whole strings, or, when either has several words, how closely each query word
 * matches its nearest word of the candidate (mean over the query's words), whichever is higher.
 * So `privcy policy` is close to "Climbers Deal Privacy Policy", whose words it misspells, though
 * the whole title is twice as long. Word comparisons are remembered for the query: many
 * candidates share words.
 */
export class FuzzyScorer {
  private readonly query: string[];
  private readonly queryWords: Word[];
  private readonly nearest: Map<string, number>[];

  constructor(query: string) {
    this.query = Array.from(query);
    this.queryWords = words(query);
    this.nearest = this.queryWords.map(() => new Map());
  }

  /** At least `floor` is needed to matter: below it the answer is only a lower bound. */
  score(candidate: readonly string[], candidateWords: readonly Word[], floor: number): number {
    const longest = Math.max(candidate.length, this.query.length);
    if (longest === 0) return 1;
    const limit = Math.floor((1 - floor) * longest + 1e-9);
    const whole = 1 - Math.min(boundedDistance(candidate, this.query, limit), longest) / longest;
    if (this.queryWords.length < 2 && candidateWords.length < 2) return whole;
    let sum = 0;
    for (let i = 0; i < this.queryWords.length; i++) {
      const qw = this.queryWords[i].points;
      const known = this.nearest[i];
      let best = 0;
      for (const cw of candidateWords) {
        let sim = known.get(cw.text);
        if (sim === undefined) {
          const len = Math.max(cw.points.length, qw.length);
          sim = 1 - boundedDistance(cw.points, qw, len) / len;
          known.set(cw.text, sim);
        }
        if (sim > best) best = sim;
      }
      sum += best;
    }
    return Math.max(whole, sum / this.queryWords.length);
  }
}
