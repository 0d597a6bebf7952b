import type { TFunction } from 'i18next';

/** Documentation and settings exist only as placeholders (SPEC section 2). */
export function announceUnderDevelopment(t: TFunction): void {
  window.alert(t('common.underDevelopment', 'This feature is under development.'));
}

/** Asks the sidebar to collapse and close its submenus (the spec's collapse-sidebar event). */
export function collapseSidebar(): void {
  window.dispatchEvent(new Event('collapse-sidebar'));
}
