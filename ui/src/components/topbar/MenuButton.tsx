// The top bar's menu button: on a phone it opens the sidebar as a drawer (the sidebar hides it on
// pages without one, and above the mobile breakpoint, by CSS).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { DRAWER_STATE, toggleDrawer } from '../siteActions';

/** The drawer's id, for aria-controls (the Sidebar island renders it). */
export const DRAWER_ID = 'site-drawer';

export function MenuButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onState = (event: Event) => setOpen(Boolean((event as CustomEvent<{ open: boolean }>).detail?.open));
    window.addEventListener(DRAWER_STATE, onState);
    return () => window.removeEventListener(DRAWER_STATE, onState);
  }, []);

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
