// The top bar's dropdown menus are <details data-menu> elements that keep their own open state;
// React only closes them.
import { useEffect, type RefObject, type SyntheticEvent } from 'react';

const MENUS = 'details[data-menu]';

/**
 * Escape and a press outside the bar close whichever dropdown the page shows open. They read the
 * <details> themselves, never state kept from `toggle` events: those come a task after the click,
 * and a key pressed in between (the browser runs input first) would close the wrong menu.
 */
export function useDropdownDismissal(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const openMenus = () => Array.from(bar.current?.querySelectorAll<HTMLDetailsElement>(`${MENUS}[open]`) ?? []);
    const onPointer = (event: PointerEvent) => {
      if (bar.current?.contains(event.target as Node)) return;
      for (const details of openMenus()) details.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      for (const details of openMenus()) {
        details.open = false;
        details.querySelector<HTMLElement>(':scope > summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [bar]);
}

/**
 * The dropdowns are mutually exclusive: opening one closes the others. Their shared `name` makes
 * the browser do it (and it works without JavaScript); this covers browsers without exclusive
 * <details>.
 */
export function closeOtherMenus(event: SyntheticEvent<HTMLDetailsElement>) {
  const opened = event.currentTarget;
  if (!opened.open) return;
  for (const other of opened.closest('.topbar')?.querySelectorAll<HTMLDetailsElement>(`${MENUS}[open]`) ?? []) {
    if (other !== opened) other.open = false;
  }
}
