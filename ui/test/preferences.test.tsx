// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import {
  readExpandedMenus,
  readPreference,
  setDarkMode,
  setExpandedMenus,
  setSelectedLanguage,
  useDarkMode,
  useHasSeenWelcome,
  writePreference,
} from '../src/lib/preferences';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
  document.body.className = '';
  document.cookie = 'selectedLanguage=; Path=/; max-age=0';
});

afterEach(() => vi.restoreAllMocks());

describe('preferences', () => {
  it('stores dark mode as the strings the spec names and sets the classes', () => {
    setDarkMode(true);
    expect(localStorage.getItem('darkMode')).toBe('true');
    expect(document.documentElement.classList.contains('dark-mode')).toBe(true);
    expect(document.body.classList.contains('dark-mode')).toBe(true);
    setDarkMode(false);
    expect(localStorage.getItem('darkMode')).toBe('false');
    expect(document.body.classList.contains('dark-mode')).toBe(false);
  });

  it('mirrors the selected language to the cookie the server reads', () => {
    setSelectedLanguage('zh');
    expect(localStorage.getItem('selectedLanguage')).toBe('zh');
    expect(document.cookie).toContain('selectedLanguage=zh');
  });

  it('keeps expanded menus as a JSON list and ignores garbage', () => {
    setExpandedMenus(['notes', 'aboutMe']);
    expect(localStorage.getItem('expandedMenus')).toBe('["notes","aboutMe"]');
    expect(readExpandedMenus()).toEqual(['notes', 'aboutMe']);
    expect(readExpandedMenus()).toBe(readExpandedMenus());
    localStorage.setItem('expandedMenus', '{not json');
    expect(readExpandedMenus()).toEqual([]);
  });

  it('never throws when storage does', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    expect(readPreference('darkMode')).toBeNull();
    expect(() => writePreference('hasSeenWelcome', 'true')).not.toThrow();
  });
});

function Probe() {
  const [dark, toggle] = useDarkMode();
  const [seen] = useHasSeenWelcome();
  return (
    <button type="button" onClick={toggle} data-seen={String(seen)}>
      {dark ? 'dark' : 'light'}
    </button>
  );
}

describe('preference hooks', () => {
  it('hydrate with the server snapshot, then show the stored value without a mismatch', async () => {
    localStorage.setItem('darkMode', 'true');
    localStorage.setItem('hasSeenWelcome', 'false');
    const html = renderToString(<Probe />);
    expect(html).toContain('light');
    expect(html).toContain('data-seen="true"');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <Probe />, { onRecoverableError: (e) => errors.push(e) });
    });
    expect(errors).toEqual([]);
    expect(container.textContent).toBe('dark');
    expect(container.querySelector('button')!.dataset.seen).toBe('false');
    container.remove();
  });

  it('toggle updates every subscriber and storage', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    await act(async () =>
      root.render(
        <>
          <Probe />
          <Probe />
        </>,
      ),
    );
    expect(container.textContent).toBe('lightlight');
    await act(async () => container.querySelector('button')!.click());
    expect(container.textContent).toBe('darkdark');
    expect(localStorage.getItem('darkMode')).toBe('true');
    await act(async () => root.unmount());
    container.remove();
  });
});
