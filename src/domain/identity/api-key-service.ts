/**
 * API keys of an account (spec 4.2 step 2): created by a signed-in platform user, shown once,
 * stored as a digest. Users can list their keys (never the secret) and revoke one.
 */
import { audit } from '../../infra/audit-log.js';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { requireAccess } from './access-policy.js';
import { CreateApiKeyBody, type ApiKeyDto } from './identity-schemas.js';
import { newApiKey } from './secrets.js';
import { z } from 'zod';

interface ApiKeyRow {
  id: string;
  name: string;
  keyPrefix: string;
  scopes: string[];
  isMaster: boolean;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export function toApiKeyDto(row: ApiKeyRow): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.keyPrefix,
    scopes: row.scopes,
    isMaster: row.isMaster,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** 200 { key, ...metadata }: the key itself appears in this response only. */
export async function createApiKey(ctx: ServiceContext, input: unknown): Promise<ApiKeyDto & { key: string }> {
  const actor = requireAccess(ctx, 'apiKeys.create');
  const body = parseInput(CreateApiKeyBody, input);
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt <= ctx.clock.now()) {
    throw AppError.unprocessable('The key would already be expired', [{ pointer: '/expiresAt', message: 'must be in the future' }]);
  }
  const secret = newApiKey(ctx.environment);
  try {
    const row = await ctx.db.apiKey.create({
      data: {
        accountId: actor.accountId,
        name: body.name,
        keyPrefix: secret.keyPrefix,
        keyHash: secret.keyHash,
        scopes: body.scopes,
        isMaster: body.isMaster ?? false,
        expiresAt,
        environment: ctx.environment,
      },
    });
    audit(ctx.logger, 'api_key.created', { apiKeyId: row.id, accountId: actor.accountId, userId: actor.userId, scopes: row.scopes });
    return { key: secret.key, ...toApiKeyDto(row) };
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw AppError.conflict('The account already has an API key with this name', [{ pointer: '/name', message: 'is already used by another key' }]);
    }
    throw err;
  }
}

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKeyDto[]> {
  const actor = requireAccess(ctx, 'apiKeys.list');
  const rows = await ctx.db.apiKey.findMany({
    where: { accountId: actor.accountId, environment: ctx.environment },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toApiKeyDto);
}

const KeyId = z.uuid({ message: 'must be a uuid' });

/** Revoking stops new tokens, refreshes and the key's live tokens (credential-status.ts). */
export async function revokeApiKey(ctx: ServiceContext, keyId: unknown): Promise<void> {
  const actor = requireAccess(ctx, 'apiKeys.revoke');
  const id = parseInput(KeyId, keyId, 'API key id');
  const now = ctx.clock.now();
  const result = await ctx.db.apiKey.updateMany({
    where: { id, accountId: actor.accountId, environment: ctx.environment, revokedAt: null },
    data: { revokedAt: now },
  });
  if (result.count === 0) {
    const exists = await ctx.db.apiKey.count({ where: { id, accountId: actor.accountId, environment: ctx.environment } });
    if (!exists) throw AppError.notFound('API key');
    return; // already revoked: revoking is idempotent
  }
  await ctx.db.refreshToken.updateMany({ where: { apiKeyId: id, revokedAt: null }, data: { revokedAt: now } });
  ctx.auth.credentialStatus.forget(id);
  audit(ctx.logger, 'api_key.revoked', { apiKeyId: id, accountId: actor.accountId, userId: actor.userId });
}
