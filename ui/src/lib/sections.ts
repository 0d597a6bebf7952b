// Which of the top bar's sections a route belongs to. The sections themselves are site-config.yaml's
// `top_bar`, which the generator passes to the TopBar island.

/** A top bar entry: `key` under `topbar.` in the locales, `route` the English route it links to. */
export interface TopBarSection {
  key: string;
  route: string;
}

/** A section's key, or `login` for the member pages (the top bar then hides its member button). */
export type Section = string;

const under = (route: string, base: string) => route === base || route.startsWith(`${base}/`);

/** The highlighted section for an English route, or null when the route is in none of them. */
export function activeSection(route: string, sections: readonly TopBarSection[]): Section | null {
  if (under(route, '/login')) return 'login';
  if (route === '/' || route === '') return sections.find((section) => section.route === '/')?.key ?? null;
  for (const section of sections) {
    if (section.route !== '/' && under(route, section.route)) return section.key;
  }
  return null;
}
