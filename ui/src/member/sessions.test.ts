import { afterEach, describe, expect, it, vi } from 'vitest';
import translation from '../../../locales/en/translation.json';
import { createI18n } from '../lib/i18n';
import { deviceName, fetchSessions, type MemberSession } from './sessions';

afterEach(() => vi.unstubAllGlobals());

/** The English text, as a page in English has it. */
const { t } = createI18n('en', { translation });

const session = (extra: Partial<MemberSession>): MemberSession => ({ id: 'a', startedAt: 1, lastUsedAt: 2, current: false, ...extra });

describe('member sessions', () => {
  it('names a device by as much as its browser told', () => {
    expect(deviceName(session({ browser: 'Firefox', os: 'Windows' }), t)).toBe('Firefox on Windows');
    expect(deviceName(session({ browser: 'Safari' }), t)).toBe('Safari');
    expect(deviceName(session({ os: 'Android' }), t)).toBe('Android');
    expect(deviceName(session({}), t)).toBe('Unknown device');
  });

  it('tells a list, a visitor who is not signed in and a failure apart', async () => {
    const answer = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status }));
    vi.stubGlobal('fetch', answer(200, { sessions: [session({ current: true })] }));
    expect(await fetchSessions()).toEqual({ kind: 'sessions', sessions: [session({ current: true })] });
    vi.stubGlobal('fetch', answer(401, { message: 'not signed in' }));
    expect(await fetchSessions()).toEqual({ kind: 'signedOut' });
    vi.stubGlobal('fetch', answer(200, { sessions: [{ id: 5 }] }));
    expect(await fetchSessions()).toEqual({ kind: 'failed' });
    vi.stubGlobal('fetch', answer(503, { message: 'busy' }));
    expect(await fetchSessions()).toEqual({ kind: 'failed' });
  });
});
