import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { MenuList, type MenuItem } from '../components/sidebar/MenuList';
import { SidebarFooter } from '../components/sidebar/SidebarFooter';
import { useSidebarDrawer } from '../components/sidebar/useSidebarDrawer';
import { DRAWER_ID } from '../components/topbar/MenuButton';
import { isLang, DEFAULT_LANGUAGE, type Lang } from '../lib/languages';

export interface SidebarProps {
  lang: string;
  menu: MenuItem[];
}

export default function Sidebar({ lang: langProp, menu }: SidebarProps) {
  const { t } = useTranslation();
  const lang: Lang = isLang(langProp) ? langProp : DEFAULT_LANGUAGE;
  const { aside, open, close, onItemClick } = useSidebarDrawer();

  return (
    <>
      {open && <div className="drawer-scrim" aria-hidden="true" onClick={close} />}
      <aside ref={aside} id={DRAWER_ID} className={`sidebar${open ? ' is-open' : ''}`} aria-label={t('navLabel', { ns: 'sidebar' })}>
        <div className="drawer-head">
          <span className="drawer-title">{t('topbar.menu')}</span>
          <button type="button" className="icon-button drawer-close" aria-label={t('topbar.closeMenu')} onClick={close}>
            <Icon name="close" />
          </button>
        </div>
        <nav className="sidebar-nav">
          <MenuList items={menu} depth={0} onItemClick={onItemClick} />
        </nav>
        <SidebarFooter lang={lang} />
      </aside>
    </>
  );
}
