// The top bar's section links: home, then every top-bar section of the site.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { collapseSidebar } from '../siteActions';
import { localizedPath, type Lang } from '../../lib/languages';
import { setActiveTopBarButton } from '../../lib/preferences';
import { TOP_BAR_SECTIONS, type Section } from '../../lib/sections';

/** Home button: collapse now, and again once the navigation's own effects have settled. */
const HOME_RECOLLAPSE_MS = 50;

export function SectionNav({ lang, active }: { lang: Lang; active: Section | null }) {
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

  const onHome = () => {
    setActiveTopBarButton('home');
    collapseSidebar();
    window.setTimeout(collapseSidebar, HOME_RECOLLAPSE_MS);
  };

  return (
    <nav className="topbar-nav" aria-label={t('topbar.navLabel')}>
      <a
        className={`topbar-link topbar-home${active === 'home' ? ' is-active' : ''}`}
        href={localizedPath('/', lang)}
        aria-current={active === 'home' ? 'page' : undefined}
        aria-label={t('topbar.home')}
        onClick={onHome}
      >
        <Icon name="home" />
        <span>{t('topbar.home')}</span>
      </a>
      <ul className="topbar-sections" ref={strip}>
        {TOP_BAR_SECTIONS.filter((section) => section.key !== 'home').map((section) => (
          <li key={section.key}>
            <a
              className={`topbar-link${active === section.key ? ' is-active' : ''}`}
              href={localizedPath(section.route, lang)}
              aria-current={active === section.key ? 'page' : undefined}
              onClick={() => setActiveTopBarButton(section.key)}
            >
              {t(`topbar.${section.key}`, { defaultValue: section.key })}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
