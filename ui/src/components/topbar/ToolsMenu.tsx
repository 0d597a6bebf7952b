// The top bar's "more" dropdown: dark mode, search, documentation and settings.
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { announceUnderDevelopment } from '../siteActions';
import { closeOtherMenus } from './dropdowns';
import { localizedPath, type Lang } from '../../lib/languages';
import { useDarkMode } from '../../lib/preferences';

export function ToolsMenu({ lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const [darkMode, toggleDarkMode] = useDarkMode();

  return (
    <details className="dropdown tools-dropdown" data-menu="tools" name="topbar-menu" onToggle={closeOtherMenus}>
      <summary className="icon-button" aria-label={t('topbar.toolsMenu')}>
        <Icon name="more" className="icon-more" />
      </summary>
      <div className="dropdown-panel">
        <ul className="dropdown-list">
          <li className="needs-js">
            <button type="button" className="menu-item" aria-pressed={darkMode} onClick={toggleDarkMode}>
              <Icon name="moon" className="when-light" />
              <Icon name="sun" className="when-dark" />
              <span>{t('common.darkMode')}</span>
            </button>
          </li>
          <li>
            <a className="menu-item" href={localizedPath('/search', lang)}>
              <Icon name="search" />
              <span>{t('common.search')}</span>
            </a>
          </li>
          <li className="needs-js">
            <button type="button" className="menu-item" onClick={() => announceUnderDevelopment(t)}>
              <Icon name="book" />
              <span>{t('common.documentation')}</span>
            </button>
          </li>
          <li className="needs-js">
            <button type="button" className="menu-item" onClick={() => announceUnderDevelopment(t)}>
              <Icon name="settings" />
              <span>{t('common.settings')}</span>
            </button>
          </li>
        </ul>
      </div>
    </details>
  );
}
