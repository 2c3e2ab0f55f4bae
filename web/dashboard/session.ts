/**
 * Sign-in with a platform login (email and password → login token). The token lives in
 * sessionStorage only (gone with the tab, never put in a URL). Its scopes are read from the token
 * to decide which views to offer; the API decides what the user may actually see or do.
 */
const STORAGE_KEY = 'dashboard.loginToken';

export interface Session {
  token: string;
  staff: boolean;
  admin: boolean;
}

function sessionOf(token: string): Session | null {
  try {
    const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { tkn?: string; scope?: string; exp?: number };
    if (claims.tkn !== 'login' || (claims.exp ?? 0) * 1000 < Date.now()) return null;
    const scopes = (claims.scope ?? '').split(' ');
    return { token, staff: scopes.includes('staff'), admin: scopes.includes('admin') };
  } catch {
    return null;
  }
}

export function restoreSession(): Session | null {
  const token = sessionStorage.getItem(STORAGE_KEY);
  return token ? sessionOf(token) : null;
}

/** The platform login (POST {platform_base}/auth/login); a refusal's message is shown to the user. */
export async function signIn(email: string, password: string): Promise<Session> {
  const res = await fetch('/api/platform/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { access_token?: string; detail?: string; title?: string };
  const session = body.access_token ? sessionOf(body.access_token) : null;
  if (!res.ok || !session) throw new Error(body.detail ?? body.title ?? 'Sign-in failed');
  sessionStorage.setItem(STORAGE_KEY, session.token);
  return session;
}

export function signOut(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
