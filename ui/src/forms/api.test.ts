import { afterEach, describe, expect, it, vi } from 'vitest';
import { postJson, serverText } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('postJson', () => {
  it('sends JSON with credentials and the bearer token', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ message: 'ok' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const answer = await postJson('/api/reset-password', { username: 'u', newPassword: 'p' }, { token: 'abc' });
    expect(answer).toEqual({ ok: true, status: 200, data: { message: 'ok' } });
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/reset-password');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc');
    expect(JSON.parse(init.body as string)).toEqual({ username: 'u', newPassword: 'p' });
  });

  it('turns a network failure or a non-JSON body into a plain failure', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    expect(await postJson('/api/denglu', {})).toEqual({ ok: false, status: 0, data: {} });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 502 })),
    );
    expect(await postJson('/api/denglu', {})).toEqual({ ok: false, status: 502, data: {} });
    warn.mockRestore();
  });

  it("reads the server's text fields only when they are strings", () => {
    expect(serverText({ error: 'bad code' }, 'error')).toBe('bad code');
    expect(serverText({ error: '' }, 'error')).toBeNull();
    expect(serverText({ message: 5 }, 'message')).toBeNull();
  });
});
