// Inlined into every page's <head> (CSP-hashed). Runs before first paint: dark mode from the
// stored choice, or from the system's colour scheme while the visitor has made none, and a
// visitor whose stored language differs from the page's goes to the page in that language when
// the address names no language of its own (a shared /ja/ link opens in Japanese); the home page's
// "page not found" notice after the redirect from an unknown path. localStorage can throw
// (privacy modes): then only the notice applies. Once the page has painted its content, it loads
// the island scripts the page names.
import { addressNamesLanguage, isLang, languageRedirect } from '../lib/languages';
import { afterContentfulPaint, loadIslandScripts, WELCOME_DUE } from '../lib/hydration';
import { withoutNotFoundFlag, PAGE_MISSING } from '../lib/notFound';
import { PREFERENCE_KEYS, SYSTEM_DARK_QUERY } from '../lib/preferenceKeys';

(function () {
  const root = document.documentElement;
  root.classList.add('js');
  afterContentfulPaint(loadIslandScripts);
  // Kept for a language redirect below, which carries the flag to the home page in that language.
  const search = location.search;
  const rest = withoutNotFoundFlag(search);
  if (rest !== null) {
    root.classList.add(PAGE_MISSING);
    history.replaceState(history.state, '', location.pathname + rest + location.hash);
    // Once: a page the back button brings back from the cache runs no script again.
    addEventListener('pagehide', () => root.classList.remove(PAGE_MISSING), { once: true });
  }
  let dark: string | null = null;
  let stored: string | null = null;
  let welcomed: string | null = null;
  try {
    dark = localStorage.getItem(PREFERENCE_KEYS.darkMode);
    stored = localStorage.getItem(PREFERENCE_KEYS.selectedLanguage);
    welcomed = localStorage.getItem(PREFERENCE_KEYS.hasSeenWelcome);
  } catch (e) {
    return;
  }
  // A first visit: the stylesheet draws the welcome dialog with the page's first paint, where the
  // Welcome island then opens it as a modal, rather than popping it up once the scripts arrive.
  if (welcomed !== 'true') root.classList.add(WELCOME_DUE);
  if (dark === 'true' || (dark === null && matchMedia(SYSTEM_DARK_QUERY).matches)) {
    root.classList.add('dark-mode');
    const markBody = () => {
      if (!document.body) return false;
      document.body.classList.add('dark-mode');
      return true;
    };
    if (!markBody()) {
      const observer = new MutationObserver(() => {
        if (markBody()) observer.disconnect();
      });
      observer.observe(root, { childList: true });
    }
  }
  const pageLang = root.getAttribute('data-lang');
  // A prefixed address (/zh/…, /ja/…) was asked for in its language: it stays in it.
  if (stored && pageLang && stored !== pageLang && isLang(stored) && !addressNamesLanguage(location.pathname)) {
    // The server picks an unprefixed page's language from this cookie; keep it in step first.
    document.cookie = 'selectedLanguage=' + stored + '; Path=/; SameSite=Lax; max-age=31536000';
    const target = languageRedirect(location.pathname, pageLang, stored);
    if (target) {
      location.replace(target + search + location.hash);
    } else {
      // Same path, wrong language: the server answered from a stale cookie. Reload once.
      try {
        if (!sessionStorage.getItem('languageReload')) {
          sessionStorage.setItem('languageReload', '1');
          location.reload();
        }
      } catch (e) {
        /* stay on this page */
      }
    }
  }
})();
