// The sidebar as a drawer below the mobile breakpoint: opened by the top bar's menu button, over a
// scrim, with everything else inert (so focus and assistive technology stay inside), closed by
// Escape, the scrim, its close button or a tap on an item, and focus back on the menu button.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { MOBILE_QUERY } from '../lib/media';
import { announceDrawerState, DRAWER_TOGGLE } from './siteActions';

/** Marks every element outside `keep` (up to <body>) inert, or lets them be again. */
function setOutsideInert(keep: HTMLElement, inert: boolean) {
  for (let node: HTMLElement = keep; node.parentElement && node !== document.body; node = node.parentElement) {
    for (const sibling of Array.from(node.parentElement.children)) {
      if (sibling !== node && sibling instanceof HTMLElement && sibling.tagName !== 'SCRIPT') sibling.inert = inert;
    }
  }
}

/** Tab past the last control comes back to the first (and Shift+Tab the other way round). */
function keepFocusInside(element: HTMLElement, event: KeyboardEvent) {
  const controls = Array.from(element.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')).filter(
    (control) => control.offsetParent !== null,
  );
  if (controls.length === 0) return;
  const [first, last] = [controls[0], controls[controls.length - 1]];
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !element.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !element.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

function menuButton(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.menu-button');
}

export function useDrawer(drawer: RefObject<HTMLElement | null>): { open: boolean; close: () => void } {
  const [open, setOpen] = useState(false);
  const returnFocus = useRef(false);

  const close = useCallback(() => {
    returnFocus.current = true;
    setOpen(false);
  }, []);

  useEffect(() => {
    const onToggle = () => {
      if (!window.matchMedia(MOBILE_QUERY).matches) return;
      returnFocus.current = true;
      setOpen((was) => !was);
    };
    const wide = window.matchMedia(MOBILE_QUERY);
    const onWidth = () => {
      if (!wide.matches) setOpen(false);
    };
    window.addEventListener(DRAWER_TOGGLE, onToggle);
    wide.addEventListener('change', onWidth);
    return () => {
      window.removeEventListener(DRAWER_TOGGLE, onToggle);
      wide.removeEventListener('change', onWidth);
    };
  }, []);

  useEffect(() => {
    const element = drawer.current;
    const keep = element?.parentElement;
    if (!element || !keep) return;
    announceDrawerState(open);
    if (!open) {
      if (returnFocus.current) menuButton()?.focus();
      returnFocus.current = false;
      return;
    }
    setOutsideInert(keep, true);
    const current = element.querySelector<HTMLElement>('[aria-current="page"]');
    (current ?? element.querySelector<HTMLElement>('a, button'))?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
      if (event.key === 'Tab') keepFocusInside(element, event);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      setOutsideInert(keep, false);
    };
  }, [open, drawer, close]);

  return { open, close };
}
