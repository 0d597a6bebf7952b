/** Languages served; English pages have no prefix (README, "Writing content"). */
export const LANGS = ['en', 'zh', 'ja'] as const;
export type Lang = (typeof LANGS)[number];

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/** `/login` → `/zh/login` on a Chinese page; home is `/zh/`. */
export function localizePath(route: string, lang: string): string {
  if (!isLang(lang) || lang === 'en') return route;
  return route === '/' ? `/${lang}/` : `/${lang}${route}`;
}
