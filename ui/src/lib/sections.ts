// The top bar's sections and which one a route belongs to.
export const TOP_BAR_SECTIONS = [
  { key: 'home', route: '/' },
  { key: 'investment', route: '/investment-basics' },
  { key: 'valuation', route: '/valuation-models' },
  { key: 'equity', route: '/equity-research' },
  { key: 'ma', route: '/ma-analysis' },
  { key: 'tools', route: '/tools' },
  { key: 'about', route: '/about' },
] as const;

export type Section = (typeof TOP_BAR_SECTIONS)[number]['key'] | 'login';

const under = (route: string, base: string) => route === base || route.startsWith(`${base}/`);

/** The highlighted section for an English route, or null when the route is in none of them. */
export function activeSection(route: string): Section | null {
  if (under(route, '/login')) return 'login';
  if (route === '/' || route === '') return 'home';
  for (const section of TOP_BAR_SECTIONS) {
    if (section.key !== 'home' && under(route, section.route)) return section.key;
  }
  return null;
}
