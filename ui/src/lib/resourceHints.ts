// React 19 hoists a resource hint into the server render for every `<img src>` and every call of
// prefetchDNS, preconnect, preload and preloadModule (and for such <link> elements). An island's
// client render never has them, and the generator puts the page's own preloads in its <head>, so
// the server render drops every one.
const RESOURCE_HINT = /<link\b[^>]*\brel="(?:dns-prefetch|preconnect|preload|modulepreload|prefetch)"[^>]*>/g;

/** The markup without React's resource hints. React escapes `>` in attribute values as `&gt;`. */
export function stripResourceHints(markup: string): string {
  return markup.replace(RESOURCE_HINT, '');
}
