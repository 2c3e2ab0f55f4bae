/**
 * Least-privileged credentials for access tests: a token of one kind holding exactly the scopes
 * asked for, made the way a client makes it (a real API key with those scopes → its token), except
 * login tokens with a single scope, which no role holds (see `login` below). Everything is
 * memoised, so concurrent tests asking for the same credential share one key and one token.
 */
import { randomUUID } from 'node:crypto';
import type { TokenKind } from '../../src/kernel/actor.js';
import type { LenderCredentials } from '../../src/modules/identity/bootstrap.js';
import { TOKEN_TTL_SECONDS } from '../../src/modules/identity/token-service.js';
import { bearer, lenderIdToken, marketplaceV1Token, masterToken, platformToken } from './identities.js';
import { postJson, type TestApp } from './test-app.js';

export type KeyTokenKind = 'platform' | 'master' | 'marketplace_v1';

export interface Credential {
  kind: TokenKind;
  /** What it holds, for test names: `platform[funding:read]`, `tenant(T0)`, `login[staff]`. */
  label: string;
  token: string;
  /** The tenant a tenant token is bound to. */
  tenantId?: string;
  /** The scopes of the API key a tenant token was minted from. */
  keyScopes?: readonly string[];
  /** The API key behind a key-based token. */
  apiKey?: { id: string; keyPrefix: string; secret: string };
}

export interface ApiKey {
  secret: string;
  id: string;
  keyPrefix: string;
}

/**
 * A scope no rule of the access table names: what an API key holds when it must hold "nothing
 * relevant" (a key must hold at least one scope), both for rules without a scope and for the
 * "lacking the scope" credential.
 */
export const UNRELATED_KEY_SCOPE = 'scoring:read';
/** Every login token carries it and no rule names it: a login token "lacking" any rule's scope. */
export const UNRELATED_LOGIN_SCOPE = 'account:read';

/** The role that first holds a login scope (LOGIN_SCOPES_BY_ROLE), used as the minted token's role claim. */
const ROLE_OF_LOGIN_SCOPE: Record<string, 'MEMBER' | 'ADMIN' | 'STAFF'> = {
  'account:read': 'MEMBER',
  'api_keys:read': 'MEMBER',
  'api_keys:write': 'MEMBER',
  'users:read': 'MEMBER',
  'users:write': 'ADMIN',
  staff: 'STAFF',
  admin: 'STAFF',
};

export interface LoginUser {
  accountId: string;
  userId: string;
}

export class CredentialFactory {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    private readonly app: TestApp,
    /** A login token that may create API keys (api_keys:write) in the account under test. */
    private readonly adminLoginToken: string,
    /** The account's user that minted account login tokens stand for. */
    private readonly accountUser: LoginUser,
    /** A STAFF user that minted staff/admin login tokens stand for. */
    private readonly staffUser: LoginUser,
  ) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let hit = this.memo.get(key) as Promise<T> | undefined;
    if (!hit) this.memo.set(key, (hit = make()));
    return hit;
  }

  /** A real API key of the account holding exactly `scopes` (POST {platform_base}/api-key). */
  apiKey(scopes: readonly string[], options: { isMaster?: boolean; fresh?: boolean } = {}): Promise<ApiKey> {
    const make = async () => {
      const name = `exact-${scopes.join('+').slice(0, 70)}${options.isMaster ? '-master' : ''}-${randomUUID().slice(0, 8)}`; // names hold <= 100 characters
      const res = await postJson(
        `${this.app.url}/api/platform/v1/api-key`,
        { name, scopes, ...(options.isMaster ? { isMaster: true } : {}) },
        bearer(this.adminLoginToken),
      );
      const body = await res.json();
      if (res.status !== 200) throw new Error(`creating the API key ${name}: ${res.status} ${JSON.stringify(body)}`);
      return { secret: body.key as string, id: body.id as string, keyPrefix: body.keyPrefix as string };
    };
    if (options.fresh) return make();
    return this.once(`key:${scopes.join('+')}:${options.isMaster ? 'master' : ''}`, make);
  }

  /** A platform, master or Marketplace V1 token of a key holding exactly `scopes`. */
  async keyToken(kind: KeyTokenKind, scopes: readonly string[], options: { isMaster?: boolean; fresh?: boolean } = {}): Promise<Credential> {
    const make = async (): Promise<Credential> => {
      const key = await this.apiKey(scopes, options);
      const token =
        kind === 'platform'
          ? (await platformToken(this.app, key.secret)).access_token
          : kind === 'master'
            ? (await masterToken(this.app, key.secret)).access_token
            : (await marketplaceV1Token(this.app, key.secret)).jwt;
      return {
        kind,
        label: `${kind}[${scopes.join(' ')}]${options.isMaster ? '(master key)' : ''}`,
        token,
        apiKey: { id: key.id, keyPrefix: key.keyPrefix, secret: key.secret },
      };
    };
    if (options.fresh) return make();
    return this.once(`token:${kind}:${scopes.join('+')}:${options.isMaster ? 'master' : ''}`, make);
  }

  /**
   * A tenant token of `tenantId`, minted from a key holding exactly `keyScopes`: it carries the
   * tenant scopes (profile:read, profile:write) that key holds, plus sign_up.
   */
  tenant(tenantId: string, name = tenantId.slice(0, 8), keyScopes: readonly string[] = ['profile:read', 'profile:write']): Promise<Credential> {
    return this.once(`tenant:${tenantId}:${keyScopes.join('+')}`, async () => {
      const key = await this.apiKey(keyScopes);
      const token = (await platformToken(this.app, key.secret, tenantId)).access_token;
      return { kind: 'tenant', label: `tenant(${name})[key: ${keyScopes.join(' ')}]`, token, tenantId, keyScopes };
    });
  }

  /**
   * A login token holding exactly `scopes`. Login tokens get their scopes from the user's role
   * (MEMBER, ADMIN, STAFF: src/kernel/scopes.ts), and every role holds several, so no real
   * login yields a token with only the one scope a rule names (`staff`, `admin`, `api_keys:read`…).
   * We therefore sign one with the running app's own TokenAuthority, exactly as login-service.ts
   * does, for a real, active user (credential-status.ts checks the user on every request); only
   * the scope claim is narrowed.
   */
  login(scopes: readonly string[]): Promise<Credential> {
    return this.once(`login:${scopes.join('+')}`, async () => {
      const staff = scopes.some((s) => ROLE_OF_LOGIN_SCOPE[s] === 'STAFF');
      const user = staff ? this.staffUser : this.accountUser;
      const role = scopes.map((s) => ROLE_OF_LOGIN_SCOPE[s] ?? 'MEMBER').sort((a, b) => rank(b) - rank(a))[0] ?? 'MEMBER';
      const token = await this.app.runtime.auth.tokens.sign(
        { tkn: 'login', scope: scopes.join(' '), acc: user.accountId, role },
        { subject: user.userId, ttlSeconds: TOKEN_TTL_SECONDS.login },
      );
      return { kind: 'login', label: `login[${scopes.join(' ')}]`, token };
    });
  }

  /** A lender id_token, fetched anew when the cached one is older than a minute (they live 120 s). */
  async lender(credentials: LenderCredentials, name: string): Promise<Credential> {
    const key = `lender:${credentials.lenderId}`;
    const cached = this.lenderTokens.get(key);
    if (cached && cached.at > Date.now() - 60_000) return cached.credential;
    const credential: Credential = { kind: 'lender', label: `lender(${name})`, token: await lenderIdToken(this.app, credentials) };
    this.lenderTokens.set(key, { at: Date.now(), credential });
    return credential;
  }

  private readonly lenderTokens = new Map<string, { at: number; credential: Credential }>();
}

const rank = (role: 'MEMBER' | 'ADMIN' | 'STAFF') => ({ MEMBER: 0, ADMIN: 1, STAFF: 2 })[role];
