import { useSyncExternalStore } from 'react';

/** The mobile breakpoint: the sidebar and top bar collapse at 768px or less. */
export const MOBILE_QUERY = '(max-width: 768px)';

/** A media query's match, `serverValue` during SSR and hydration. */
export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}
