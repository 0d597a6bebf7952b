// The sidebar's menu: one list per level, an item's submenu behind its expand button.
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { readExpandedMenus, setExpandedMenus, useExpandedMenus } from '../../lib/preferences';

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

function toggleSubMenu(key: string) {
  const current = readExpandedMenus();
  setExpandedMenus(current.includes(key) ? current.filter((k) => k !== key) : [...current, key]);
}

export function MenuList({ items, depth, onItemClick }: { items: MenuItem[]; depth: number; onItemClick: () => void }) {
  return (
    <ul className={depth === 0 ? 'sidebar-menu' : 'sidebar-submenu'}>
      {items.map((item) => (
        <MenuEntry key={item.titleKey} item={item} depth={depth} onItemClick={onItemClick} />
      ))}
    </ul>
  );
}

function MenuEntry({ item, depth, onItemClick }: { item: MenuItem; depth: number; onItemClick: () => void }) {
  const { t } = useTranslation();
  const open = useExpandedMenus().includes(item.titleKey);
  const subId = `sidebar-sub-${item.titleKey}`;
  return (
    <li className={`sidebar-item${item.current !== undefined ? ' is-active' : ''}`}>
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
            <MenuList items={item.subMenu} depth={depth + 1} onItemClick={onItemClick} />
          </div>
        </>
      )}
    </li>
  );
}
