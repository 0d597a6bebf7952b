// The tree both the server renderer and the client hydrator build around an island, so the two
// agree node for node.
import { createContext, useContext, useLayoutEffect, useState, type ComponentType } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n } from 'i18next';
import { ErrorBoundary } from './ErrorBoundary';
import { isLang, DEFAULT_LANGUAGE, type Lang } from '../lib/languages';

export interface IslandInfo {
  /** The island's data-id, unique on the page (also React's identifierPrefix). */
  id: string;
  /** The page language. */
  lang: Lang;
}

const IslandContext = createContext<IslandInfo>({ id: 'island', lang: DEFAULT_LANGUAGE });

/** The page language and island id, for islands whose props carry no `lang`. */
export function useIsland(): IslandInfo {
  return useContext(IslandContext);
}

export function IslandRoot({
  name,
  id,
  lng,
  i18n,
  Island,
  props,
}: {
  name: string;
  id: string;
  lng: string;
  i18n: i18n;
  Island: ComponentType<any>;
  props: Record<string, unknown>;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <IslandContext.Provider value={{ id, lang: isLang(lng) ? lng : DEFAULT_LANGUAGE }}>
        <ErrorBoundary island={name}>
          <Island {...props} />
        </ErrorBoundary>
        <StoredStateBeforePaint />
      </IslandContext.Provider>
    </I18nextProvider>
  );
}

/**
 * Renders nothing; makes the browser's stored state (preferences read with useSyncExternalStore,
 * whose server snapshot hydration uses) show in the same frame as the hydrated island. Islands
 * hydrate as transitions, in slices (`ui/src/entry.tsx`), and React runs a transition's passive
 * effects, where those stores are compared with the server snapshot, in a later task: a frame
 * could be painted in between, the island in its prerendered state, then shift. An update from a
 * layout effect is synchronous, and React flushes the pending passive effects before rendering
 * it, all before the browser paints.
 */
function StoredStateBeforePaint() {
  const [, setCommitted] = useState(false);
  useLayoutEffect(() => setCommitted(true), []);
  return null;
}
