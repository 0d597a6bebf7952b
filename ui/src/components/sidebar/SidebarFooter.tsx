// The sidebar's footer buttons: dark mode, search, and the placeholder tools.
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { announceUnderDevelopment, PLACEHOLDER_TOOLS } from '../siteActions';
import { localizedPath, type Lang } from '../../lib/languages';
import { useDarkMode } from '../../lib/preferences';

/**
 * The footer buttons' tooltips are in Traditional Chinese on every page, as the product has them; their
 * accessible names follow the page language through `sidebarTips.*`.
 */
type FooterButton = 'darkMode' | 'search' | 'documentation' | 'settings';

export function SidebarFooter({ lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const [darkMode, toggleDarkMode] = useDarkMode();
  const label = (key: FooterButton) => t(`sidebarTips.${key}`);
  // The tooltips are in Traditional Chinese on every page, as the product has them: every locale
  // holds the same Chinese text.
  const tooltip = (key: FooterButton) => t(`sidebarTips.tooltips.${key}`);
  return (
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
      {PLACEHOLDER_TOOLS.map(({ key, icon }) => (
        <button
          key={key}
          type="button"
          className="icon-button needs-js"
          title={tooltip(key)}
          aria-label={label(key)}
          onClick={() => announceUnderDevelopment(t)}
        >
          <Icon name={icon} />
        </button>
      ))}
    </div>
  );
}
