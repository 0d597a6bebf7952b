// The top bar's section links (site-config.yaml's `top_bar`): home, then every other section.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { collapseSidebar } from '../siteActions';
import { localizedPath, type Lang } from '../../lib/languages';
import { setActiveTopBarButton } from '../../lib/preferences';
import type { Section, TopBarSection } from '../../lib/sections';

/** Home button: collapse now, and again once the navigation's own effects have settled. */
const HOME_RECOLLAPSE_MS = 50;

interface SectionNavProps {
  lang: Lang;
  active: Section | null;
  sections: readonly TopBarSection[];
}

export function SectionNav({ lang, active, sections }: SectionNavProps) {
  const { t } = useTranslation();
  const strip = useRef<HTMLUListElement>(null);

  // On a phone the sections are a strip that scrolls sideways: bring the active one into it.
  useEffect(() => {
    const list = strip.current;
    const link = list?.querySelector<HTMLElement>('.is-active');
    if (!list || !link || list.scrollWidth <= list.clientWidth) return;
    const offset = link.getBoundingClientRect().left - list.getBoundingClientRect().left;
    list.scrollLeft += offset - (list.clientWidth - link.offsetWidth) / 2;
  }, [active]);

  const onHome = (key: string) => {
    setActiveTopBarButton(key);
    collapseSidebar();
    window.setTimeout(collapseSidebar, HOME_RECOLLAPSE_MS);
  };

  const home = sections.find((section) => section.route === '/');
  return (
    <nav className="topbar-nav" aria-label={t('topbar.navLabel')}>
      {home && (
        <a
          className={`topbar-link topbar-home${active === home.key ? ' is-active' : ''}`}
          href={localizedPath('/', lang)}
          aria-current={active === home.key ? 'page' : undefined}
          aria-label={t(`topbar.${home.key}`)}
          onClick={() => onHome(home.key)}
        >
          <Icon name="home" />
          <span>{t(`topbar.${home.key}`)}</span>
        </a>
      )}
      <ul className="topbar-sections" ref={strip}>
        {sections
          .filter((section) => section !== home)
          .map((section) => (
            <li key={section.key}>
              <a
                className={`topbar-link${active === section.key ? ' is-active' : ''}`}
                href={localizedPath(section.route, lang)}
                aria-current={active === section.key ? 'page' : undefined}
                onClick={() => setActiveTopBarButton(section.key)}
              >
                {t(`topbar.${section.key}`)}
              </a>
            </li>
          ))}
      </ul>
    </nav>
  );
}
