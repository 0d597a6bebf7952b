/** The answer of a membership call: the parsed JSON body (or {}) and whether it was a 2xx. */
export interface ApiAnswer {
  ok: boolean;
  status: number;
  data: Record<string, unknown>;
}

/**
 * POST JSON with the session cookie (all login-related calls include
 * credentials). A network failure resolves as status 0 so every caller has one failure path.
 */
export async function postJson(path: string, body: unknown, opts: { token?: string } = {}): Promise<ApiAnswer> {
  return callApi('POST', path, { body, token: opts.token });
}

/**
 * Any membership call with the session cookie: a JSON body when `body` is given, the answer's
 * JSON (or {}) back. A network failure resolves as status 0, like `postJson`.
 */
export async function callApi(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  { body, token }: { body?: unknown; token?: string } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(path, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data: Record<string, unknown> = {};
    try {
      const parsed: unknown = await res.json();
      if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
    } catch {
      // An empty or non-JSON body leaves data empty; the caller falls back to its own message.
    }
    return { ok: res.ok, status: res.status, data };
  } catch (err) {
    console.warn(`${method} ${path} failed`, err);
    return { ok: false, status: 0, data: {} };
  }
}

/** A server-sent text field (`error` or `message`), if it is a non-empty string. */
export function serverText(data: Record<string, unknown>, field: 'error' | 'message'): string | null {
  const v = data[field];
  return typeof v === 'string' && v.trim() ? v : null;
}
