// Login status, shared by every island on the page. Unknown until checked; a failed check is
// "logged out".
import { useSyncExternalStore } from 'react';

let loggedIn = false;
const listeners = new Set<() => void>();

function set(value: boolean) {
  if (value === loggedIn) return;
  loggedIn = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `GET /api/denglu` → `{loggedIn}`; any failure counts as logged out. */
export async function refreshLoginStatus(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetchImpl('/api/denglu', { credentials: 'include', headers: { Accept: 'application/json' } });
    const body: unknown = response.ok ? await response.json() : null;
    set(typeof body === 'object' && body !== null && (body as { loggedIn?: unknown }).loggedIn === true);
  } catch {
    set(false);
  }
  return loggedIn;
}

/** `GET /api/denglu?logout=true`; the visitor is shown as logged out whatever the answer. */
export async function logout(fetchImpl: typeof fetch = fetch): Promise<void> {
  try {
    await fetchImpl('/api/denglu?logout=true', { credentials: 'include' });
  } catch (err) {
    console.warn('logout request failed', err);
  }
  set(false);
}

export function markLoggedIn(): void {
  set(true);
}

/** After the server has ended this browser's session some other way (sign out everywhere). */
export function markLoggedOut(): void {
  set(false);
}

export function useLoggedIn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => loggedIn,
    () => false,
  );
}
