// The top bar's menu button: on a phone it opens the sidebar as a drawer (the sidebar hides it on
// pages without one, and above the mobile breakpoint, by CSS).
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { drawerIsOpen, onDrawerState, toggleDrawer } from '../siteActions';

/** The drawer's id, for aria-controls (the Sidebar island renders it). */
export const DRAWER_ID = 'site-drawer';

export function MenuButton() {
  const { t } = useTranslation();
  // The drawer's state as the sidebar last set it, read again once subscribed: the sidebar may
  // have opened it before this island's effects ran (islands hydrate apart).
  const open = useSyncExternalStore(onDrawerState, drawerIsOpen, () => false);

  return (
    <button
      type="button"
      className="icon-button menu-button needs-js"
      aria-controls={DRAWER_ID}
      aria-expanded={open}
      aria-label={t('topbar.menu')}
      onClick={toggleDrawer}
    >
      <Icon name="menu" />
    </button>
  );
}
