import type { TFunction } from 'i18next';

/** Documentation and settings exist only as placeholders: the product shows an "under development" alert for them. */
export const PLACEHOLDER_TOOLS = [
  { key: 'documentation', icon: 'book' },
  { key: 'settings', icon: 'settings' },
] as const;

export function announceUnderDevelopment(t: TFunction): void {
  window.alert(t('common.underDevelopment'));
}

/** Asks the sidebar to collapse and close its submenus (the spec's collapse-sidebar event). */
export function collapseSidebar(): void {
  window.dispatchEvent(new Event('collapse-sidebar'));
}

/**
 * Below the mobile breakpoint the sidebar is a drawer: the top bar's menu button asks it to open
 * or close (`DRAWER_TOGGLE`), and the sidebar says when it opened or closed (`DRAWER_STATE`).
 * Two islands, so they speak through window events like the collapse above.
 */
export const DRAWER_TOGGLE = 'toggle-drawer';
const DRAWER_STATE = 'drawer-state';

/** The class on <html> while the drawer is open: the page behind it does not scroll, and it is
 * the drawer's state as the menu button reads it (an island hydrating after the drawer opened
 * missed `DRAWER_STATE`, not the class). */
const DRAWER_OPEN = 'drawer-open';

export function toggleDrawer(): void {
  window.dispatchEvent(new Event(DRAWER_TOGGLE));
}

export function announceDrawerState(open: boolean): void {
  document.documentElement.classList.toggle(DRAWER_OPEN, open);
  window.dispatchEvent(new Event(DRAWER_STATE));
}

/** Whether the drawer is open now. */
export function drawerIsOpen(): boolean {
  return document.documentElement.classList.contains(DRAWER_OPEN);
}

/** Calls `onChange` whenever the drawer opens or closes; gives the function that stops it. */
export function onDrawerState(onChange: () => void): () => void {
  window.addEventListener(DRAWER_STATE, onChange);
  return () => window.removeEventListener(DRAWER_STATE, onChange);
}
