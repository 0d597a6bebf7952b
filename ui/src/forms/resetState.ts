/**
 * What /verifycode hands to /reset-password ("navigation state"). Pages are separate
 * documents, so lib/navigation carries it in sessionStorage keyed by this route, read once.
 */
export const RESET_ROUTE = '/reset-password';

export interface ResetNavigationState {
  username: string;
  token: string;
}

export function isResetState(v: unknown): v is ResetNavigationState {
  const s = v as Partial<ResetNavigationState> | null;
  return !!s && typeof s.username === 'string' && !!s.username && typeof s.token === 'string' && !!s.token;
}
