/**
 * SPEC.md carries username and token from /verifycode to /reset-password in "navigation
 * state". Pages are separate documents here, so the state rides in sessionStorage (this tab
 * only, never in the URL where logs and history would keep the token) and is removed as soon as
 * the reset page has read it.
 */
export const RESET_STATE_KEY = "resetPasswordState";

export interface ResetState {
  username: string;
  token: string;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function saveResetState(state: ResetState): void {
  storage()?.setItem(RESET_STATE_KEY, JSON.stringify(state));
}

/** Read once: the stored state is cleared whether or not it was usable. */
export function takeResetState(): ResetState | null {
  const s = storage();
  const raw = s?.getItem(RESET_STATE_KEY) ?? null;
  s?.removeItem(RESET_STATE_KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<ResetState>;
    return typeof v.username === "string" && v.username && typeof v.token === "string" && v.token
      ? { username: v.username, token: v.token }
      : null;
  } catch {
    return null;
  }
}
