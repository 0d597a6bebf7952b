// Page-to-page navigation in a site of prerendered pages: a full load of the localised path.
// State handed to the next page (the spec's "navigation state") rides in sessionStorage, keyed by
// the target route, and is read once.
import { localizedPath, type Lang } from './languages';

const STATE_PREFIX = 'navState:';

export function navigate(route: string, lang: Lang, state?: unknown): void {
  if (state !== undefined) {
    try {
      sessionStorage.setItem(STATE_PREFIX + route, JSON.stringify(state));
    } catch {
      // Without sessionStorage the next page sees no state and says so.
    }
  }
  window.location.assign(localizedPath(route, lang));
}

/** The state `navigate` left for `route`, removed as it is read; null when there is none. */
export function takeNavigationState<T = unknown>(route: string): T | null {
  try {
    const raw = sessionStorage.getItem(STATE_PREFIX + route);
    if (raw === null) return null;
    sessionStorage.removeItem(STATE_PREFIX + route);
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
