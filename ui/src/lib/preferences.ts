// Visitor preferences in localStorage under the spec's keys, read through useSyncExternalStore so
// the server snapshot (the defaults) is what hydration sees and the stored values apply after.
import { useCallback, useSyncExternalStore } from 'react';
import { isLang, type Lang } from './languages';

import { PREFERENCE_KEYS, SYSTEM_DARK_QUERY, type PreferenceKey } from './preferenceKeys';

export { PREFERENCE_KEYS, type PreferenceKey };

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
const listeners = new Set<() => void>();

// localStorage throws in some privacy modes and is absent on the server: treat both as empty.
export function readPreference(key: PreferenceKey): string | null {
  try {
    return globalThis.localStorage?.getItem(PREFERENCE_KEYS[key]) ?? null;
  } catch {
    return null;
  }
}

export function writePreference(key: PreferenceKey, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(PREFERENCE_KEYS[key]);
    else globalThis.localStorage?.setItem(PREFERENCE_KEYS[key], value);
  } catch {
    // The choice still applies to this page; it just is not remembered.
  }
  notify();
}

function notify() {
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent) {
  if (event.key === null || Object.values(PREFERENCE_KEYS).includes(event.key as never)) {
    if (event.key === PREFERENCE_KEYS.darkMode || event.key === null) applyDarkMode(readDarkMode());
    notify();
  }
}

function systemScheme(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(SYSTEM_DARK_QUERY) : null;
}

// The system's scheme changed (e.g. at dusk): a visitor who never chose follows it.
function onSystemScheme() {
  if (readPreference('darkMode') === null) applyDarkMode(readDarkMode());
  notify();
}

export function subscribePreferences(listener: () => void): () => void {
  if (listeners.size === 0 && typeof window !== 'undefined') {
    window.addEventListener('storage', onStorage);
    systemScheme()?.addEventListener('change', onSystemScheme);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') {
      window.removeEventListener('storage', onStorage);
      systemScheme()?.removeEventListener('change', onSystemScheme);
    }
  };
}

/** The raw stored string; null on the server and during hydration. */
export function usePreference(key: PreferenceKey): string | null {
  return useSyncExternalStore(
    subscribePreferences,
    () => readPreference(key),
    () => null,
  );
}

// Dark mode: the class goes on <html> (styles key off it, set before first paint by the head
// script) and on <body> (the spec's dark-mode style on the page body).
export function applyDarkMode(on: boolean): void {
  if (typeof document === 'undefined') return;
  document.documentElement.classList.toggle('dark-mode', on);
  document.body?.classList.toggle('dark-mode', on);
}

export function setDarkMode(on: boolean): void {
  applyDarkMode(on);
  writePreference('darkMode', on ? 'true' : 'false');
}

/** Dark mode as shown: the stored 'true'/'false' once the visitor used the toggle, else the system's. */
export function readDarkMode(): boolean {
  const stored = readPreference('darkMode');
  return stored === null ? (systemScheme()?.matches ?? false) : stored === 'true';
}

export function useDarkMode(): [boolean, () => void] {
  const on = useSyncExternalStore(subscribePreferences, readDarkMode, () => false);
  const toggle = useCallback(() => setDarkMode(!readDarkMode()), []);
  return [on, toggle];
}

/** Server snapshot says "seen", so the overlay never appears in prerendered HTML. */
export function useHasSeenWelcome(): [boolean, () => void] {
  const seen = useSyncExternalStore(
    subscribePreferences,
    () => readPreference('hasSeenWelcome') === 'true',
    () => true,
  );
  const markSeen = useCallback(() => writePreference('hasSeenWelcome', 'true'), []);
  return [seen, markSeen];
}

const EMPTY: string[] = [];
let expandedCache: { raw: string | null; value: string[] } = { raw: null, value: EMPTY };

export function readExpandedMenus(): string[] {
  const raw = readPreference('expandedMenus');
  if (raw !== expandedCache.raw) {
    let value = EMPTY;
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      if (Array.isArray(parsed)) value = parsed.filter((v): v is string => typeof v === 'string');
    } catch {
      value = EMPTY;
    }
    expandedCache = { raw, value };
  }
  return expandedCache.value;
}

export function setExpandedMenus(keys: string[]): void {
  writePreference('expandedMenus', JSON.stringify(keys));
}

export function useExpandedMenus(): string[] {
  return useSyncExternalStore(subscribePreferences, readExpandedMenus, () => EMPTY);
}

export function readSelectedLanguage(): Lang | null {
  const stored = readPreference('selectedLanguage');
  return isLang(stored) ? stored : null;
}

/** Remembers the visitor's language, and mirrors it to the cookie the server negotiates with. */
export function setSelectedLanguage(lang: Lang): void {
  writePreference('selectedLanguage', lang);
  writeLanguageCookie(lang);
}

export function writeLanguageCookie(lang: Lang): void {
  if (typeof document === 'undefined') return;
  document.cookie = `selectedLanguage=${lang}; Path=/; SameSite=Lax; max-age=${ONE_YEAR_SECONDS}`;
}

export function setActiveTopBarButton(section: string): void {
  writePreference('activeTopBarButton', section);
}
