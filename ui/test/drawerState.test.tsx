// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MenuButton } from '../src/components/topbar/MenuButton';
import { announceDrawerState } from '../src/components/siteActions';
import { createI18n } from '../src/lib/i18n';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('the menu button and the drawer, two islands', () => {
  it('says the drawer is open when the sidebar opened it before the top bar hydrated', async () => {
    const i18n = createI18n('en', { translation: { topbar: { menu: 'Menu' } }, sidebar: {} });
    const button = (
      <I18nextProvider i18n={i18n}>
        <MenuButton />
      </I18nextProvider>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(button);
    document.body.append(container);
    expect(container.querySelector('button')!.getAttribute('aria-expanded')).toBe('false');
    // The sidebar's island hydrated first and opened the drawer (a tap during hydration): the
    // top bar's island was not listening yet.
    announceDrawerState(true);
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, button, { onRecoverableError: (e) => errors.push(e) });
    });
    expect(errors).toEqual([]);
    expect(container.querySelector('button')!.getAttribute('aria-expanded')).toBe('true');
    await act(async () => announceDrawerState(false));
    expect(container.querySelector('button')!.getAttribute('aria-expanded')).toBe('false');
    expect(document.documentElement.classList.contains('drawer-open')).toBe(false);
    container.remove();
  });
});
