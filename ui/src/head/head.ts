// Inlined into every page's <head> (CSP-hashed). Runs before first paint: dark mode from the
// stored choice, and a visitor whose stored language differs from the page's goes to the page in
// that language. localStorage can throw (privacy modes): then nothing of that happens. Once the
// page has painted its content, it loads the island scripts the page names.
import { isLang, languageRedirect } from '../lib/languages';
import { afterContentfulPaint, loadIslandScripts, WELCOME_DUE } from '../lib/hydration';
import { PREFERENCE_KEYS } from '../lib/preferenceKeys';

(function () {
  const root = document.documentElement;
  root.classList.add('js');
  afterContentfulPaint(loadIslandScripts);
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
  if (dark === 'true') {
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
  if (stored && pageLang && stored !== pageLang && isLang(stored)) {
    // The server picks an unprefixed page's language from this cookie; keep it in step first.
    document.cookie = 'selectedLanguage=' + stored + '; Path=/; SameSite=Lax; max-age=31536000';
    const target = languageRedirect(location.pathname, pageLang, stored);
    if (target) {
      location.replace(target + location.search + location.hash);
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
