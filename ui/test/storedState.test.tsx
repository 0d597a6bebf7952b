// @vitest-environment jsdom
// Islands hydrate as transitions (src/entry.tsx). A stored preference must still show in the task
// that commits the hydration: a browser may paint between two tasks, and the island would shift
// from its prerendered state to the stored one in front of the reader.
import { afterEach, describe, expect, it } from 'vitest';
import { startTransition, useLayoutEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { IslandRoot } from '../src/components/IslandRoot';
import { createI18n } from '../src/lib/i18n';
import { usePreference } from '../src/lib/preferences';

afterEach(() => localStorage.clear());

/** The text the island shows at the end of the task that committed its hydration. */
let atCommitTask: Promise<string>;

function Theme() {
  const dark = usePreference('darkMode') === 'true';
  useLayoutEffect(() => {
    // Microtasks run before the task ends, so before the browser can paint.
    atCommitTask = new Promise((resolve) => queueMicrotask(() => resolve(document.getElementById('theme')!.textContent!)));
  }, []);
  return <span id="theme">{dark ? 'dark' : 'light'}</span>;
}

describe('hydration as a transition', () => {
  it('shows the stored preference in the same task as the hydration commit', async () => {
    const i18n = createI18n('en', { translation: {}, sidebar: {} });
    const tree = <IslandRoot name="Theme" id="t" lng="en" i18n={i18n} Island={Theme} props={{}} />;
    const el = document.createElement('div');
    el.innerHTML = renderToString(tree);
    document.body.append(el);
    expect(el.textContent).toBe('light'); // the server knows no stored preference
    localStorage.setItem('darkMode', 'true');
    startTransition(() => {
      hydrateRoot(el, tree);
    });
    await expect.poll(() => atCommitTask, { timeout: 2000 }).toBeDefined();
    expect(await atCommitTask).toBe('dark');
    el.remove();
  });
});
