/**
 * Sign-in with a platform login (email and password → login token). The token lives in
 * sessionStorage only (gone with the tab, never put in a URL). Its scopes are read from the token
 * to decide which views to offer; the API decides what the user may actually see or do.
 * The token names the user (sub) and their role but not their email or name: the header asks the
 * platform API for the user (GET …/users/{id}, which every login may read for itself).
 */
const STORAGE_KEY = 'dashboard.loginToken';

export type PlatformRole = 'MEMBER' | 'ADMIN' | 'STAFF';

export interface Session {
  token: string;
  userId: string;
  role: PlatformRole;
  staff: boolean;
  admin: boolean;
  /** The login token's scopes: which views the shell offers follows from them (the API decides the rest). */
  scopes: string[];
}

/** Who is signed in, as the header shows them. */
export interface SignedInUser {
  email: string;
  name: string | null;
}

/** The role in words: staff run the platform; account admins and members are integrators' users. */
export const ROLE_LABELS: Record<PlatformRole, string> = { STAFF: 'Staff', ADMIN: 'Integrator admin', MEMBER: 'Integrator user' };

function sessionOf(token: string): Session | null {
  try {
    const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
      tkn?: string;
      sub?: string;
      role?: string;
      scope?: string;
      exp?: number;
    };
    if (claims.tkn !== 'login' || !claims.sub || (claims.exp ?? 0) * 1000 < Date.now()) return null;
    const scopes = (claims.scope ?? '').split(' ');
    const role: PlatformRole = claims.role === 'STAFF' || claims.role === 'ADMIN' ? claims.role : 'MEMBER';
    return { token, userId: claims.sub, role, staff: scopes.includes('staff'), admin: scopes.includes('admin'), scopes };
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

/** The signed-in user's email and name (the platform API's GET …/users/{id}); null when it cannot answer. */
export async function fetchSignedInUser(session: Session): Promise<SignedInUser | null> {
  const res = await fetch(`/api/platform/v1/users/${encodeURIComponent(session.userId)}`, {
    headers: { accept: 'application/json', authorization: `Bearer ${session.token}` },
  });
  if (!res.ok) return null;
  const body = (await res.json()) as { email?: string; name?: string | null };
  return body.email ? { email: body.email, name: body.name ?? null } : null;
}
