// What closes the sidebar besides the drawer's own controls: the collapse-sidebar event, and on a
// phone a tap on one of its items.
import { useEffect, useRef } from 'react';
import { useDrawer } from '../drawer';
import { setExpandedMenus } from '../../lib/preferences';
import { MOBILE_QUERY } from '../../lib/media';

/** On a phone a tapped item closes the drawer again after this long, as the sidebar always has. */
const MOBILE_COLLAPSE_MS = 500;

export function useSidebarDrawer() {
  // Collapsed at 768px or less: a drawer behind the top bar's menu button (components/drawer.ts).
  const aside = useRef<HTMLElement>(null);
  const { open, close } = useDrawer(aside);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    const onCollapse = () => {
      setExpandedMenus([]);
      close();
    };
    window.addEventListener('collapse-sidebar', onCollapse);
    return () => {
      window.removeEventListener('collapse-sidebar', onCollapse);
      window.clearTimeout(timer.current);
    };
  }, [close]);

  const onItemClick = () => {
    if (!window.matchMedia(MOBILE_QUERY).matches) return;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(close, MOBILE_COLLAPSE_MS);
  };

  return { aside, open, close, onItemClick };
}
