/**
 * The lender console's sign-in: the username and password of the lender's credentials (spec 5.9)
 * exchanged at POST /api/platform/v1/auth/lender-console for an id_token naming the lender. The
 * token lives in sessionStorage only (gone with the tab, never put in a URL); its expiry ends the
 * session, and the API decides what the token may see (its own lender's data only).
 */
const STORAGE_KEY = 'lenderConsole.idToken';

export interface LenderSession {
  token: string;
  lenderId: number;
  lenderName: string | null;
  /** Epoch milliseconds. */
  expiresAt: number;
}

function sessionOf(token: string): LenderSession | null {
  try {
    const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { tkn?: string; lid?: number; name?: string; exp?: number };
    const expiresAt = (claims.exp ?? 0) * 1000;
    if (claims.tkn !== 'lender' || typeof claims.lid !== 'number' || expiresAt < Date.now()) return null;
    return { token, lenderId: claims.lid, lenderName: claims.name ?? null, expiresAt };
  } catch {
    return null;
  }
}

export function restoreSession(): LenderSession | null {
  const token = sessionStorage.getItem(STORAGE_KEY);
  return token ? sessionOf(token) : null;
}

/** A refusal's message (problem details) is shown to the user. */
export async function signIn(username: string, password: string): Promise<LenderSession> {
  const res = await fetch('/api/platform/v1/auth/lender-console', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json().catch(() => ({}))) as { id_token?: string; detail?: string; title?: string };
  const session = res.ok && body.id_token ? sessionOf(body.id_token) : null;
  if (!session) throw new Error(body.detail ?? body.title ?? 'Sign-in failed');
  sessionStorage.setItem(STORAGE_KEY, session.token);
  return session;
}

export function signOut(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
