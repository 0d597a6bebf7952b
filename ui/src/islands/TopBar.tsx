import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { Modal } from '../components/Modal';
import { announceUnderDevelopment, collapseSidebar } from '../components/siteActions';
import { isLang, localizedPath, DEFAULT_LANGUAGE, type Lang } from '../lib/languages';
import { setActiveTopBarButton, setSelectedLanguage, useDarkMode } from '../lib/preferences';
import { activeSection, TOP_BAR_SECTIONS } from '../lib/sections';
import { logout, refreshLoginStatus, useLoggedIn } from '../lib/session';
import type { SharedRender } from '../lib/sharedRender';

export interface TopBarProps {
  /** English route of the page, e.g. `/valuation-models/dcf`. */
  route: string;
  lang: string;
  /** This page in each language. */
  languages: { code: string; href: string }[];
}

type Menu = 'language' | 'tools';

/** Home button: collapse now, and again once the navigation's own effects have settled. */
const HOME_RECOLLAPSE_MS = 50;

export default function TopBar({ route, lang: langProp, languages }: TopBarProps) {
  const { t } = useTranslation();
  const lang: Lang = isLang(langProp) ? langProp : DEFAULT_LANGUAGE;
  const loggedIn = useLoggedIn();
  const [darkMode, toggleDarkMode] = useDarkMode();
  const [loggedOutNotice, setLoggedOutNotice] = useState(false);
  const [busy, setBusy] = useState(false);
  const bar = useRef<HTMLElement>(null);
  const active = activeSection(route);

  // Every page load is a path change in a site of prerendered pages; a page restored from the
  // back/forward cache is one too.
  useEffect(() => {
    refreshLoginStatus();
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) refreshLoginStatus();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [route]);

  // Escape and a press outside close whichever dropdown the page shows open. They read the
  // <details> themselves, never state kept from `toggle` events: those come a task after the click,
  // and a key pressed in between (the browser runs input first) would close the wrong menu.
  useEffect(() => {
    const openMenus = () => Array.from(bar.current?.querySelectorAll<HTMLDetailsElement>('details[data-menu][open]') ?? []);
    const onPointer = (event: PointerEvent) => {
      if (bar.current?.contains(event.target as Node)) return;
      for (const details of openMenus()) details.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      for (const details of openMenus()) {
        details.open = false;
        details.querySelector<HTMLElement>(':scope > summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, []);

  // The two dropdowns are mutually exclusive: opening one closes the other. Their shared `name`
  // makes the browser do it (and it works without JavaScript); this covers browsers without
  // exclusive <details>. The <details> keep their own open state; React only closes them.
  const onToggle = (menu: Menu) => (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (!event.currentTarget.open) return;
    const other = bar.current?.querySelector<HTMLDetailsElement>(`details[data-menu="${menu === 'language' ? 'tools' : 'language'}"]`);
    if (other?.open) other.open = false;
  };

  const onHome = () => {
    setActiveTopBarButton('home');
    collapseSidebar();
    window.setTimeout(collapseSidebar, HOME_RECOLLAPSE_MS);
  };

  const onLogout = async () => {
    setBusy(true);
    await logout();
    setBusy(false);
    setLoggedOutNotice(true);
  };

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
            hrefLang={l.code === 'zh' ? 'zh-Hant' : l.code}
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
    <header className="topbar" ref={bar}>
      <nav className="topbar-nav" aria-label={t('topbar.navLabel', 'Sections')}>
        <a
          className={`topbar-link topbar-home${active === 'home' ? ' is-active' : ''}`}
          href={localizedPath('/', lang)}
          aria-current={active === 'home' ? 'page' : undefined}
          onClick={onHome}
        >
          <Icon name="home" />
          <span>{t('topbar.home', 'Home')}</span>
        </a>
        <ul className="topbar-sections">
          {TOP_BAR_SECTIONS.filter((section) => section.key !== 'home').map((section) => (
            <li key={section.key}>
              <a
                className={`topbar-link${active === section.key ? ' is-active' : ''}`}
                href={localizedPath(section.route, lang)}
                aria-current={active === section.key ? 'page' : undefined}
                onClick={() => setActiveTopBarButton(section.key)}
              >
                {t(`topbar.${section.key}`, section.key)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="topbar-actions">
        {languageLinks('lang-buttons')}
        <details className="dropdown lang-dropdown" data-menu="language" name="topbar-menu" onToggle={onToggle('language')}>
          <summary className="icon-button" aria-label={t('topbar.language', 'Language')}>
            <Icon name="language" />
            <span className="summary-text">{t(`languages.${lang}`, lang)}</span>
          </summary>
          <div className="dropdown-panel">{languageLinks('dropdown-list')}</div>
        </details>
        <details className="dropdown tools-dropdown" data-menu="tools" name="topbar-menu" onToggle={onToggle('tools')}>
          <summary className="icon-button" aria-label={t('topbar.toolsMenu', 'More')}>
            <Icon name="more" className="icon-more" />
          </summary>
          <div className="dropdown-panel">
            <ul className="dropdown-list">
              <li className="needs-js">
                <button type="button" className="menu-item" aria-pressed={darkMode} onClick={toggleDarkMode}>
                  <Icon name="moon" className="when-light" />
                  <Icon name="sun" className="when-dark" />
                  <span>{t('common.darkMode', 'Dark mode')}</span>
                </button>
              </li>
              <li>
                <a className="menu-item" href={localizedPath('/search', lang)}>
                  <Icon name="search" />
                  <span>{t('common.search', 'Search')}</span>
                </a>
              </li>
              <li className="needs-js">
                <button type="button" className="menu-item" onClick={() => announceUnderDevelopment(t)}>
                  <Icon name="book" />
                  <span>{t('common.documentation', 'Documentation')}</span>
                </button>
              </li>
              <li className="needs-js">
                <button type="button" className="menu-item" onClick={() => announceUnderDevelopment(t)}>
                  <Icon name="settings" />
                  <span>{t('common.settings', 'Settings')}</span>
                </button>
              </li>
            </ul>
          </div>
        </details>
        {active !== 'login' &&
          (loggedIn ? (
            <button type="button" className="button button-quiet member-button" onClick={onLogout} disabled={busy}>
              <Icon name="logout" />
              <span>{t('topbar.logout', 'Logout')}</span>
            </button>
          ) : (
            <a
              className="button button-primary member-button"
              href={localizedPath('/login', lang)}
              onClick={() => setActiveTopBarButton('login')}
            >
              <Icon name="login" />
              <span>{t('topbar.memberLogin', 'Member Login')}</span>
            </a>
          ))}
      </div>
      <Modal open={loggedOutNotice} title={t('modal.hint', 'hint')} onClose={() => window.location.assign(localizedPath('/', lang))}>
        <p>{t('modal.loggedOut', 'You have logged out.')}</p>
      </Modal>
    </header>
  );
}

/** The pages of one section share the top bar's server render: only their language links differ. */
TopBar.sharedRender = {
  group: ({ route, lang, languages }) => JSON.stringify([activeSection(route), lang, languages.map((l) => l.code)]),
  slots: ({ languages }) => languages.map((l) => l.href),
  withSlots: (props, hrefs) => ({ ...props, languages: props.languages.map((l, n) => ({ ...l, href: hrefs[n] })) }),
} satisfies SharedRender<TopBarProps>;
