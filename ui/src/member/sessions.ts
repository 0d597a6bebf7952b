// The member's sessions as `GET /api/denglu/sessions` lists them, and how one is named on the page.
import type { TFunction } from 'i18next';
import { callApi } from '../forms/api';
import { languageTag } from '../lib/languages';

export interface MemberSession {
  /** Opaque: names the session for `DELETE /api/denglu/sessions/{id}`. */
  id: string;
  /** Unix seconds. */
  startedAt: number;
  /** Unix seconds, to the hour. */
  lastUsedAt: number;
  browser?: string;
  os?: string;
  current: boolean;
}

/** What the list call came back with: the sessions, or that nobody is signed in, or a failure. */
export type SessionsAnswer = { kind: 'sessions'; sessions: MemberSession[] } | { kind: 'signedOut' } | { kind: 'failed' };

function isSession(value: unknown): value is MemberSession {
  const s = value as Partial<MemberSession> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.id === 'string' &&
    typeof s.startedAt === 'number' &&
    typeof s.lastUsedAt === 'number' &&
    typeof s.current === 'boolean'
  );
}

export async function fetchSessions(): Promise<SessionsAnswer> {
  const answer = await callApi('GET', '/api/denglu/sessions');
  if (answer.status === 401) return { kind: 'signedOut' };
  const list = answer.data.sessions;
  if (!answer.ok || !Array.isArray(list) || !list.every(isSession)) return { kind: 'failed' };
  return { kind: 'sessions', sessions: list };
}

/** "Firefox on Windows", or as much of it as the login's browser told. */
export function deviceName(session: MemberSession, t: TFunction): string {
  const { browser, os } = session;
  if (browser && os) return t('member.sessions.device', { browser, os });
  return browser ?? os ?? t('member.sessions.unknownDevice');
}

/** A moment in the page language's own way of writing dates. */
export function formatTime(unixSeconds: number, lang: string): string {
  return new Intl.DateTimeFormat(languageTag(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(unixSeconds * 1000));
}
