// The localStorage keys of a visitor's preferences, in a module of their own so the inline head
// script (which must stay small and free of React) reads the same keys as the islands.
export const PREFERENCE_KEYS = {
  darkMode: 'darkMode',
  hasSeenWelcome: 'hasSeenWelcome',
  expandedMenus: 'expandedMenus',
  selectedLanguage: 'selectedLanguage',
  activeTopBarButton: 'activeTopBarButton',
} as const;
export type PreferenceKey = keyof typeof PREFERENCE_KEYS;

/** With no stored darkMode the page follows the system's colour scheme (the head script too). */
export const SYSTEM_DARK_QUERY = '(prefers-color-scheme: dark)';
