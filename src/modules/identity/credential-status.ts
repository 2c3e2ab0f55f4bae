/**
 * Whether the API key, platform user or lender credentials behind a valid token are still in good
 * standing: a revoked or expired key's tokens, tokens of a revoked refresh family, a disabled user's login
 * tokens, login tokens issued before the user's last role or password change (session epoch), and
 * the tokens of a lender whose credentials were re-issued (or which was deactivated) stop working
 * even before they expire. Answers come from the database (the one truth every process shares) and
 * are cached per process for a short time (30 s), at one query per key, family, user or lender per
 * interval. A change takes effect at once in the process that made it (`forget`); with Redis,
 * `forget` is also published to every other process, which drops its cached answer as soon as it
 * hears, and the 30 s expiry bounds the rest (no Redis, or a message lost). Across a Redis outage,
 * both ends catch up when it returns: a listener that lost its connection drops every cached answer
 * (it may have missed changes), and a process whose announcements failed sends them again.
 *
 * A cache miss is one typed SQL statement (`readsOf`: a named prepared statement on the pg pool),
 * not a Prisma query: every authenticated request asks, and Prisma's per-query compilation alone
 * cost more CPU than the statement (issue 28).
 */
import type { Redis } from 'ioredis';
import { readsOf, type Db } from '../../infra/database.js';
import { listenOn, publishOn } from '../../infra/redis.js';
import { AppError } from '../../kernel/errors.js';
import type { Actor } from '../../kernel/actor.js';
import { systemClock, type Clock, type DeployEnvironment } from '../../kernel/context.js';

export const CREDENTIAL_STATUS_TTL_MS = 30_000;

export interface CredentialStatus {
  /** 401 when the actor's key is revoked or past its expiry, its refresh family revoked, its user disabled, or its session epoch past. */
  assertActive(actor: Actor): Promise<void>;
  /** Drops a cached answer after a change (revocation, disabling, role or password change), in every process. */
  forget(id: string): void;
  /** Stops listening for other processes' changes. */
  close(): void;
}

export interface CredentialStatusOptions {
  ttlMs?: number;
  /** Shared by the deployment's processes: changes are published to all of them (in its namespace, infra/redis.ts). */
  redis?: Redis;
  channel?: string;
  /** Decides whether a key is past its `expiresAt`; the process's clock, so tests can move it. */
  clock?: Clock;
}

export const CREDENTIAL_CHANGES_CHANNEL = 'credential-status:changed';

export function createCredentialStatus(db: Db, environment: DeployEnvironment, options: CredentialStatusOptions = {}): CredentialStatus {
  const { ttlMs = CREDENTIAL_STATUS_TTL_MS, redis, channel = CREDENTIAL_CHANGES_CHANNEL, clock = systemClock } = options;
  const reads = readsOf(db);
  const cache = new Map<string, { value: unknown; until: number }>();
  // Bumped by every forget: an answer loaded while a change was announced is not cached, since it
  // may have been read before the change committed.
  let changes = 0;
  const drop = (id: string) => {
    changes++;
    cache.delete(id);
  };

  const dropAll = () => {
    changes++;
    cache.clear();
  };
  // A failed subscription leaves the 30 s expiry in charge.
  const listener = redis ? listenOn(redis, channel, 'credential changes', drop, dropAll) : undefined;
  // Announcements Redis refused (unreachable), sent again once it is back.
  const unannounced = new Set<string>();
  const announce = (id: string) => {
    publishOn(redis!, channel, id).catch(() => {
      if (unannounced.size < 10_000) unannounced.add(id);
    });
  };
  redis?.on('ready', () => {
    const again = [...unannounced];
    unannounced.clear();
    for (const id of again) announce(id);
  });

  async function cached<T>(id: string, load: () => Promise<T>): Promise<T> {
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.value as T;
    const changesBefore = changes;
    const value = await load();
    if (cache.size > 10_000) cache.clear();
    if (changes === changesBefore) cache.set(id, { value, until: Date.now() + ttlMs });
    return value;
  }

  return {
    async assertActive(actor) {
      if ('apiKeyId' in actor) {
        // The key's expiry is cached, not whether it has passed: a cached answer never outlives the key.
        const standing = await cached(actor.apiKeyId, async () => {
          const key = await reads
            .selectFrom('api_key')
            .select(['revokedAt', 'expiresAt'])
            .where('id', '=', actor.apiKeyId)
            .where('environment', '=', environment)
            .executeTakeFirst();
          return key === undefined || key.revokedAt !== null ? null : { expiresAt: key.expiresAt };
        });
        if (standing === null) throw AppError.unauthenticated('Invalid token: its API key has been revoked');
        if (standing.expiresAt !== null && standing.expiresAt <= clock.now()) throw AppError.unauthenticated('Invalid token: its API key has expired');
        const family = 'refreshFamilyId' in actor ? actor.refreshFamilyId : undefined;
        if (family !== undefined) {
          const live = await cached(family, async () => {
            const revoked = await reads
              .selectFrom('refresh_token')
              .select('id')
              .where('familyId', '=', family)
              .where('revokedAt', 'is not', null)
              .limit(1)
              .executeTakeFirst();
            return revoked === undefined;
          });
          if (!live) throw AppError.unauthenticated('Invalid token: its refresh token was replayed, so its whole family is revoked');
        }
      } else if (actor.kind === 'login') {
        // The user's current session epoch, or null when the user is disabled or gone.
        const epoch = await cached(actor.userId, async () => {
          const user = await reads
            .selectFrom('platform_user')
            .select(['disabledAt', 'sessionEpoch'])
            .where('id', '=', actor.userId)
            .where('environment', '=', environment)
            .executeTakeFirst();
          return user === undefined || user.disabledAt !== null ? null : user.sessionEpoch;
        });
        if (epoch === null) throw AppError.unauthenticated('Invalid token: its user has been disabled');
        if (epoch !== actor.sessionEpoch) {
          throw AppError.unauthenticated("Invalid token: the user's role or password has changed since it was issued; sign in again");
        }
      } else if (actor.kind === 'lender') {
        // Re-issuing a lender's credentials (admin CLI) replaces its client id: tokens of the old one stop.
        const active = await cached(`lender-client:${actor.clientId}`, async () => {
          const lender = await reads
            .selectFrom('lender')
            .select(['clientId', 'active'])
            .where('id', '=', actor.lenderId)
            .where('environment', '=', environment)
            .executeTakeFirst();
          return lender !== undefined && lender.active && lender.clientId === actor.clientId;
        });
        if (!active) throw AppError.unauthenticated("Invalid token: the lender's credentials have been re-issued or deactivated");
      }
    },
    forget(id) {
      drop(id);
      // Redis away: announced again when it returns; the other processes' 30 s expiry bounds the wait.
      if (redis) announce(id);
    },
    close() {
      listener?.close();
    },
  };
}
