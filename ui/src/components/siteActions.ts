import type { TFunction } from 'i18next';

/** Documentation and settings exist only as placeholders: the product shows an "under development" alert for them. */
export function announceUnderDevelopment(t: TFunction): void {
  window.alert(t('common.underDevelopment'));
}

/** Asks the sidebar to collapse and close its submenus (the spec's collapse-sidebar event). */
export function collapseSidebar(): void {
  window.dispatchEvent(new Event('collapse-sidebar'));
}

/**
 * Below the mobile breakpoint the sidebar is a drawer: the top bar's menu button asks it to open
 * or close (`DRAWER_TOGGLE`), and the sidebar says whether it is open (`DRAWER_STATE`, detail
 * `{open}`). Two islands, so they speak through window events like the collapse above.
 */
export const DRAWER_TOGGLE = 'toggle-drawer';
export const DRAWER_STATE = 'drawer-state';

export function toggleDrawer(): void {
  window.dispatchEvent(new Event(DRAWER_TOGGLE));
}

export function announceDrawerState(open: boolean): void {
  window.dispatchEvent(new CustomEvent(DRAWER_STATE, { detail: { open } }));
}
