/** One page of the generator's search index (format in docs/internals.md). */
export interface IndexPage {
  route: string;
  url: string;
  lang: string;
  title: string;
  text: string;
  keywords: string[];
}

export interface SearchIndex {
  version: number;
  pages: IndexPage[];
}

/** Why a result is shown; decides its wording, never its markup. */
export type ResultKind = 'keyword' | 'path' | 'text' | 'fuzzy' | 'recommended' | 'fallback';

/** A search result, plus what the island needs to draw it. */
export interface SearchResult {
  path: string;
  title: string;
  text: string;
  navTarget: string;
  /** Escaped HTML: only `<mark>` tags are markup, everything else is text. */
  textSnippet: string;
  priority: number;
  lang: string;
  kind: ResultKind;
}

/** route segment (`valuation-models`, `home` for `/`) → label, per language. */
export type RouteLabels = Record<string, Record<string, string>>;
