// The top bar's languages: a row of links on wide screens, a dropdown on narrow ones (CSS picks).
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { closeOtherMenus } from './dropdowns';
import { isLang, languageTag, type Lang } from '../../lib/languages';
import { setSelectedLanguage } from '../../lib/preferences';

export interface LanguageLink {
  code: string;
  href: string;
}

export function LanguageMenu({ lang, languages }: { lang: Lang; languages: LanguageLink[] }) {
  const { t } = useTranslation();

  const chooseLanguage = (code: string) => {
    if (isLang(code)) setSelectedLanguage(code);
  };

  const languageLinks = (className: string) => (
    <ul className={className}>
      {languages.map((l) => (
        <li key={l.code}>
          <a
            className={`lang-link${l.code === lang ? ' is-active' : ''}`}
            href={l.href}
            hrefLang={languageTag(l.code)}
            aria-current={l.code === lang ? 'true' : undefined}
            onClick={() => chooseLanguage(l.code)}
          >
            {t(`languages.${l.code}`, l.code)}
          </a>
        </li>
      ))}
    </ul>
  );

  return (
    <>
      {languageLinks('lang-buttons')}
      <details className="dropdown lang-dropdown" data-menu="language" name="topbar-menu" onToggle={closeOtherMenus}>
        <summary className="icon-button" aria-label={t('topbar.language')}>
          <Icon name="language" />
          <span className="summary-text">{t(`languages.${lang}`, lang)}</span>
        </summary>
        <div className="dropdown-panel">{languageLinks('dropdown-list')}</div>
      </details>
    </>
  );
}
