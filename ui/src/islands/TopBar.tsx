import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../components/Modal';
import { useDropdownDismissal } from '../components/topbar/dropdowns';
import { LanguageMenu, type LanguageLink } from '../components/topbar/LanguageMenu';
import { MemberButton } from '../components/topbar/MemberButton';
import { MenuButton } from '../components/topbar/MenuButton';
import { SectionNav } from '../components/topbar/SectionNav';
import { ToolsMenu } from '../components/topbar/ToolsMenu';
import { isLang, localizedPath, DEFAULT_LANGUAGE, type Lang } from '../lib/languages';
import { activeSection, type TopBarSection } from '../lib/sections';
import { refreshLoginStatus } from '../lib/session';
import type { SharedRender } from '../lib/sharedRender';

export interface TopBarProps {
  /** English route of the page, e.g. `/valuation-models/dcf`. */
  route: string;
  lang: string;
  /** This page in each language. */
  languages: LanguageLink[];
  /** site-config.yaml's `top_bar`, in order; the entry at `/` is the home button. */
  sections: TopBarSection[];
}

export default function TopBar({ route, lang: langProp, languages, sections }: TopBarProps) {
  const { t } = useTranslation();
  const lang: Lang = isLang(langProp) ? langProp : DEFAULT_LANGUAGE;
  const [loggedOutNotice, setLoggedOutNotice] = useState(false);
  const bar = useRef<HTMLElement>(null);
  const active = activeSection(route, sections);

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

  useDropdownDismissal(bar);

  return (
    <header className="topbar" ref={bar}>
      <MenuButton />
      <SectionNav lang={lang} active={active} sections={sections} />
      <div className="topbar-actions">
        <LanguageMenu lang={lang} languages={languages} />
        <ToolsMenu lang={lang} />
        {active !== 'login' && <MemberButton lang={lang} onLoggedOut={() => setLoggedOutNotice(true)} />}
      </div>
      <Modal open={loggedOutNotice} title={t('modal.hint')} onClose={() => window.location.assign(localizedPath('/', lang))}>
        <p>{t('modal.loggedOut')}</p>
      </Modal>
    </header>
  );
}

/** The pages of one section share the top bar's server render: only their language links differ. */
TopBar.sharedRender = {
  group: ({ route, lang, languages, sections }) =>
    JSON.stringify([activeSection(route, sections), lang, languages.map((l) => l.code), sections]),
  slots: ({ languages }) => languages.map((l) => l.href),
  withSlots: (props, hrefs) => ({ ...props, languages: props.languages.map((l, n) => ({ ...l, href: hrefs[n] })) }),
} satisfies SharedRender<TopBarProps>;
