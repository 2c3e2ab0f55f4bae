/**
 * Whether the API key, platform user or lender credentials behind a valid token are still in good
 * standing: a revoked key's tokens, a disabled user's login tokens and the tokens of a lender whose
 * credentials were re-issued (or which was deactivated) stop working even before they expire. Answers
 * are cached per process for a short time (30 s), so a revocation takes effect at once in the
 * process that made it and within that time everywhere else, at one query per key per interval.
 */
import type { Db } from '../../infra/database.js';
import type { DeployEnvironment } from '../context.js';
import { AppError } from '../errors.js';
import type { Actor } from './actor.js';

export const CREDENTIAL_STATUS_TTL_MS = 30_000;

export interface CredentialStatus {
  /** 401 when the actor's key is revoked or its user disabled. */
  assertActive(actor: Actor): Promise<void>;
  /** Drops a cached answer after a change (revocation, disabling). */
  forget(id: string): void;
}

export function createCredentialStatus(db: Db, environment: DeployEnvironment, ttlMs = CREDENTIAL_STATUS_TTL_MS): CredentialStatus {
  const cache = new Map<string, { active: boolean; until: number }>();

  async function cached(id: string, load: () => Promise<boolean>): Promise<boolean> {
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.active;
    const active = await load();
    if (cache.size > 10_000) cache.clear();
    cache.set(id, { active, until: Date.now() + ttlMs });
    return active;
  }

  return {
    async assertActive(actor) {
      if ('apiKeyId' in actor) {
        const active = await cached(actor.apiKeyId, async () => {
          const key = await db.apiKey.findFirst({ where: { id: actor.apiKeyId, environment }, select: { revokedAt: true } });
          return key !== null && key.revokedAt === null;
        });
        if (!active) throw AppError.unauthenticated('Invalid token: its API key has been revoked');
        const family = 'refreshFamilyId' in actor ? actor.refreshFamilyId : undefined;
        if (family !== undefined) {
          const live = await cached(family, async () => (await db.refreshToken.count({ where: { familyId: family, revokedAt: { not: null } } })) === 0);
          if (!live) throw AppError.unauthenticated('Invalid token: its refresh token was replayed, so its whole family is revoked');
        }
      } else if (actor.kind === 'login') {
        const active = await cached(actor.userId, async () => {
          const user = await db.platformUser.findFirst({ where: { id: actor.userId, environment }, select: { disabledAt: true } });
          return user !== null && user.disabledAt === null;
        });
        if (!active) throw AppError.unauthenticated('Invalid token: its user has been disabled');
      } else if (actor.kind === 'lender') {
        // Re-issuing a lender's credentials (admin CLI) replaces its client id: tokens of the old one stop.
        const active = await cached(`lender-client:${actor.clientId}`, async () => {
          const lender = await db.lender.findFirst({ where: { id: actor.lenderId, environment }, select: { clientId: true, active: true } });
          return lender !== null && lender.active && lender.clientId === actor.clientId;
        });
        if (!active) throw AppError.unauthenticated('Invalid token: the lender\'s credentials have been re-issued or deactivated');
      }
    },
    forget(id) {
      cache.delete(id);
    },
  };
}
