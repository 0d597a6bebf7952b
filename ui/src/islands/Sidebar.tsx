import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { useDrawer } from '../components/drawer';
import { announceUnderDevelopment } from '../components/siteActions';
import { DRAWER_ID } from '../components/topbar/MenuButton';
import { isLang, localizedPath, DEFAULT_LANGUAGE, type Lang } from '../lib/languages';
import { MOBILE_QUERY } from '../lib/media';
import { readExpandedMenus, setExpandedMenus, useDarkMode, useExpandedMenus } from '../lib/preferences';

export interface MenuItem {
  /** A key of sidebar.json. */
  titleKey: string;
  /** Already localised. */
  link: string;
  icon: string;
  /** Set by the generator: this item is the page itself, or a section the page is in. */
  current?: 'page' | 'section';
  subMenu?: MenuItem[];
}

export interface SidebarProps {
  lang: string;
  menu: MenuItem[];
}

/** The footer buttons, each with a tooltip (`sidebarTips.tooltips.*`) and an accessible name (`sidebarTips.*`). */
type FooterButton = 'darkMode' | 'search' | 'documentation' | 'settings';

/** On a phone a tapped item closes the drawer again after this long, as the sidebar always has. */
const MOBILE_COLLAPSE_MS = 500;

export default function Sidebar({ lang: langProp, menu }: SidebarProps) {
  const { t } = useTranslation();
  const lang: Lang = isLang(langProp) ? langProp : DEFAULT_LANGUAGE;
  const expanded = useExpandedMenus();
  const [darkMode, toggleDarkMode] = useDarkMode();
  // Collapsed at 768px or less: a drawer behind the top bar's menu button (components/drawer.ts).
  const aside = useRef<HTMLElement>(null);
  const { open: drawerOpen, close } = useDrawer(aside);
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

  const toggleSubMenu = (key: string) => {
    const current = readExpandedMenus();
    setExpandedMenus(current.includes(key) ? current.filter((k) => k !== key) : [...current, key]);
  };

  const renderItems = (items: MenuItem[], depth: number) => (
    <ul className={depth === 0 ? 'sidebar-menu' : 'sidebar-submenu'}>
      {items.map((item) => {
        const current = item.current !== undefined;
        const open = expanded.includes(item.titleKey);
        const subId = `sidebar-sub-${item.titleKey}`;
        return (
          <li key={item.titleKey} className={`sidebar-item${current ? ' is-active' : ''}`}>
            <a className="sidebar-link" href={item.link} aria-current={item.current === 'page' ? 'page' : undefined} onClick={onItemClick}>
              <Icon name={item.icon} />
              <span className="sidebar-label">{t(item.titleKey, { ns: 'sidebar' })}</span>
            </a>
            {item.subMenu && item.subMenu.length > 0 && (
              <>
                <button
                  type="button"
                  className="sidebar-expand icon-button"
                  aria-expanded={open}
                  aria-controls={subId}
                  aria-label={t(open ? 'sidebarTips.collapse' : 'sidebarTips.expand')}
                  onClick={() => toggleSubMenu(item.titleKey)}
                >
                  <Icon name="chevron" />
                </button>
                <div id={subId} className="sidebar-subwrap" hidden={!open}>
                  {renderItems(item.subMenu, depth + 1)}
                </div>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );

  const label = (key: FooterButton) => t(`sidebarTips.${key}`);
  // The tooltips are in Traditional Chinese on every page, as the product has them: every locale
  // holds the same Chinese text.
  const tooltip = (key: FooterButton) => t(`sidebarTips.tooltips.${key}`);

  return (
    <>
      {drawerOpen && <div className="drawer-scrim" aria-hidden="true" onClick={close} />}
      <aside ref={aside} id={DRAWER_ID} className={`sidebar${drawerOpen ? ' is-open' : ''}`} aria-label={t('navLabel', { ns: 'sidebar' })}>
        <div className="drawer-head">
          <span className="drawer-title">{t('topbar.menu')}</span>
          <button type="button" className="icon-button drawer-close" aria-label={t('topbar.closeMenu')} onClick={close}>
            <Icon name="close" />
          </button>
        </div>
        <nav className="sidebar-nav">{renderItems(menu, 0)}</nav>
        <div className="sidebar-footer">
          <button
            type="button"
            className="icon-button needs-js"
            title={tooltip('darkMode')}
            aria-label={label('darkMode')}
            aria-pressed={darkMode}
            onClick={toggleDarkMode}
          >
            <Icon name="moon" className="when-light" />
            <Icon name="sun" className="when-dark" />
          </button>
          <a className="icon-button" href={localizedPath('/search', lang)} title={tooltip('search')} aria-label={label('search')}>
            <Icon name="search" />
          </a>
          <button
            type="button"
            className="icon-button needs-js"
            title={tooltip('documentation')}
            aria-label={label('documentation')}
            onClick={() => announceUnderDevelopment(t)}
          >
            <Icon name="book" />
          </button>
          <button
            type="button"
            className="icon-button needs-js"
            title={tooltip('settings')}
            aria-label={label('settings')}
            onClick={() => announceUnderDevelopment(t)}
          >
            <Icon name="settings" />
          </button>
        </div>
      </aside>
    </>
  );
}
