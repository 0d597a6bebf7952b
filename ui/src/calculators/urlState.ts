// A calculator's inputs live in the page address (?r=10&g=2), so a valuation can be shared or
// bookmarked. The address is read only after hydration (its server snapshot is empty), so the
// prerendered HTML, the article's example, is exactly what the first client render produces.
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Texts } from '../valuation/fields';

/** Typing settles for this long before the address follows (browsers throttle replaceState). */
const URL_SYNC_MS = 300;

export interface Codec<S> {
  /** The state a query holds, on top of the example's; null when it holds none of ours. */
  read(query: URLSearchParams, initial: S): S | null;
  write(state: S): [string, string][];
  /** Whether a query key is ours (others, a campaign tag say, are left in the address). */
  owns(key: string): boolean;
}

function subscribe(listener: () => void) {
  window.addEventListener('popstate', listener);
  return () => window.removeEventListener('popstate', listener);
}

export function useUrlState<S extends object>(initial: S, codec: Codec<S>): [S, (next: S | ((current: S) => S)) => void] {
  const search = useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => '',
  );
  const fromUrl = useMemo(() => (search ? codec.read(new URLSearchParams(search), initial) : null), [search, codec, initial]);
  const [edited, setEdited] = useState<S | null>(null);
  const base = fromUrl ?? initial;
  // An update from the current state, so several in one render (fields typed into before
  // hydration, taken over together) all apply.
  const update = useCallback(
    (next: S | ((current: S) => S)) => setEdited((current) => (typeof next === 'function' ? next(current ?? base) : next)),
    [base],
  );

  useEffect(() => {
    if (!edited) return;
    const timer = setTimeout(() => {
      const url = new URL(window.location.href);
      for (const key of [...url.searchParams.keys()]) if (codec.owns(key)) url.searchParams.delete(key);
      for (const [key, value] of codec.write(edited)) url.searchParams.append(key, value);
      if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
    }, URL_SYNC_MS);
    return () => clearTimeout(timer);
  }, [edited, codec]);

  return [edited ?? base, update];
}

/** Texts under fixed keys: what the query has of them replaces the example's. */
export function textsCodec(keys: string[]): Codec<Texts> {
  return {
    read(query, initial) {
      const found = keys.filter((key) => query.has(key));
      return found.length ? { ...initial, ...Object.fromEntries(found.map((key) => [key, query.get(key) ?? ''])) } : null;
    },
    write: (texts) => keys.filter((key) => key in texts).map((key) => [key, texts[key]]),
    owns: (key) => keys.includes(key),
  };
}
