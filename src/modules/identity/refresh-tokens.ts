/**
 * Single-use refresh tokens, rotated in families (spec 5.3, limits: "single use"). Each use marks
 * the token used and issues its successor in the same family. Presenting a used token again means
 * it leaked: the whole family is revoked, so neither the thief nor the client can go on with it.
 */
import { z } from 'zod';
import type { TokenKind as RefreshKind } from '../../generated/prisma/enums.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { audit } from '../../kernel/audit-log.js';
import { digest, environmentOfSecret, newRefreshToken } from './secrets.js';

export type { RefreshKind };

/** A refresh token outlives its access token; after 30 days unused, sign in with the API key again. */
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export interface RefreshGrant {
  kind: RefreshKind;
  apiKeyId: string;
  tenantId: string | null;
}

export const RefreshTokenString = z.string().min(1, 'must not be empty').max(512);

/** @access internal: called by the token exchange that checked the grant's credential. */
export async function issueRefreshToken(ctx: ServiceContext, grant: RefreshGrant, familyId?: string): Promise<string> {
  const { token, tokenHash } = newRefreshToken(ctx.environment);
  const now = ctx.clock.now();
  await ctx.db.refreshToken.create({
    data: {
      tokenHash,
      familyId: familyId ?? crypto.randomUUID(),
      kind: grant.kind,
      apiKeyId: grant.apiKeyId,
      tenantId: grant.tenantId,
      environment: ctx.environment,
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    },
  });
  return token;
}

/**
 * Uses a refresh token once: returns what it grants and its successor. Any failure is a 401;
 * a replay also revokes the family before answering.
 */
export async function useRefreshToken(
  ctx: ServiceContext,
  token: string,
  acceptedKinds: readonly RefreshKind[],
): Promise<{ grant: RefreshGrant; successor: string; familyId: string }> {
  const env = environmentOfSecret(token);
  if (env !== null && env !== ctx.environment) throw invalid(`it belongs to the ${env} environment`);
  const tokenHash = digest(token);
  const row = await ctx.db.refreshToken.findFirst({ where: { tokenHash, environment: ctx.environment } });
  if (!row) throw invalid('it is not known');
  if (!acceptedKinds.includes(row.kind)) throw invalid('it was issued for another kind of token; use its own refresh endpoint');
  const now = ctx.clock.now();

  const outcome = await ctx.db.$transaction(async (tx) => {
    const claimed = await tx.refreshToken.updateMany({
      where: { id: row.id, usedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count === 1) return 'claimed' as const;
    const current = await tx.refreshToken.findUniqueOrThrow({ where: { id: row.id } });
    if (current.usedAt && !current.revokedAt) {
      await tx.refreshToken.updateMany({ where: { familyId: row.familyId, revokedAt: null }, data: { revokedAt: now } });
      return 'replayed' as const;
    }
    return current.revokedAt ? ('revoked' as const) : ('expired' as const);
  });

  if (outcome === 'replayed') {
    // The family's access tokens stop working too (credential-status.ts), at once in this process.
    ctx.auth.credentialStatus.forget(row.familyId);
    audit(ctx.logger, 'refresh_token.replayed', { familyId: row.familyId, apiKeyId: row.apiKeyId });
    throw invalid('it has already been used; every token of its family is now revoked');
  }
  if (outcome === 'revoked') throw invalid('it has been revoked');
  if (outcome === 'expired') throw invalid('it has expired');
  if (!row.apiKeyId) throw invalid('it is not tied to an API key');
  const grant: RefreshGrant = { kind: row.kind, apiKeyId: row.apiKeyId, tenantId: row.tenantId };
  return { grant, successor: await issueRefreshToken(ctx, grant, row.familyId), familyId: row.familyId };
}

function invalid(reason: string): AppError {
  return AppError.unauthenticated(`Invalid refresh token: ${reason}`);
}
