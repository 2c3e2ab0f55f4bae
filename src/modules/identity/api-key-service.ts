/**
 * API keys of an account (spec 4.2 step 2): created by a signed-in platform user, shown once,
 * stored as a digest. Users can list their keys (never the secret) and revoke one. Account-wide
 * power stays with account admins (the access table's `elevated`): a master key or a key holding
 * every scope, and revoking a key another user created.
 */
import { audit } from '../../kernel/audit-log.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { answerOnce } from '../../infra/idempotent-answers.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { elevatedGrants, requireAccess } from '../../kernel/access-policy.js';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from './identity-schemas.js';
import { newApiKey } from './secrets.js';
import { z } from 'zod';
import { apiKeyScope, usableApiKeys } from './api-key-visibility.js';

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

function toApiKeyDto(row: ApiKeyRow): ApiKey {
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
export async function createApiKey(ctx: ServiceContext, body: CreateApiKeyBody, idempotencyKey?: unknown): Promise<CreatedApiKey> {
  const adminOnly = body.isMaster === true || elevatedGrants('apiKeys.create', body.scopes).length > 0;
  const actor = requireAccess(ctx, 'apiKeys.create', { elevated: adminOnly });
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt <= ctx.clock.now()) {
    throw AppError.unprocessable('The key would already be expired', [{ pointer: '/expiresAt', message: 'must be in the future' }]);
  }
  // Kept by its hash only: a replay answers the key's metadata without its secret, which the first answer alone carries.
  const request = { owner: { accountId: actor.accountId }, operation: 'apiKeys.create', target: actor.userId, body };
  return answerOnce(
    ctx,
    idempotencyKey,
    request,
    async () => {
      const created = await storeApiKey(ctx, actor, body, expiresAt);
      const { key: _secret, ...kept } = created;
      return { answer: created, kept: kept as unknown as Prisma.InputJsonObject };
    },
    (kept) => kept as unknown as CreatedApiKey,
  );
}

/** The new key, stored by its hash: its secret is in this answer only. */
async function storeApiKey(
  ctx: ServiceContext,
  actor: { accountId: string; userId: string },
  body: CreateApiKeyBody,
  expiresAt: Date | null,
): Promise<CreatedApiKey> {
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
        createdByUserId: actor.userId,
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

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKey[]> {
  const actor = requireAccess(ctx, 'apiKeys.list');
  const rows = await ctx.db.apiKey.findMany({
    where: apiKeyScope(ctx, actor),
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toApiKeyDto);
}

const KeyId = z.uuid({ message: 'must be a uuid' });

/** Revoking stops new tokens, refreshes and the key's live tokens (credential-status.ts). */
export async function revokeApiKey(ctx: ServiceContext, keyId: unknown): Promise<void> {
  const id = parseInput(KeyId, keyId, 'API key id');
  const actor = requireAccess(ctx, 'apiKeys.revoke', { elevated: await createdByAnother(ctx, id) });
  const now = ctx.clock.now();
  const result = await ctx.db.apiKey.updateMany({
    where: { AND: [{ id }, usableApiKeys(ctx, actor)] },
    data: { revokedAt: now },
  });
  if (result.count === 0) {
    const exists = await ctx.db.apiKey.count({ where: { AND: [{ id }, apiKeyScope(ctx, actor)] } });
    if (!exists) throw AppError.notFound('API key');
    return; // already revoked: revoking is idempotent
  }
  await ctx.db.refreshToken.updateMany({ where: { apiKeyId: id, revokedAt: null }, data: { revokedAt: now } });
  ctx.auth.credentialStatus.forget(id);
  audit(ctx.logger, 'api_key.revoked', { apiKeyId: id, accountId: actor.accountId, userId: actor.userId });
}

/**
 * A new secret for a usable key: same id, name, key prefix and scopes. The old secret stops at once
 * (its digest is replaced) and so do the refresh tokens issued with it, so nothing made from it can be
 * renewed; access tokens already issued live out their short lifetime (a rotation is a planned change
 * of secret, so integrations roll over without a failed request; revoke a leaked key instead). The new
 * secret is in this answer only. Rotating a key another user created needs an account admin.
 */
export async function rotateApiKey(ctx: ServiceContext, keyId: unknown): Promise<CreatedApiKey> {
  const id = parseInput(KeyId, keyId, 'API key id');
  const actor = requireAccess(ctx, 'apiKeys.rotate', { elevated: await createdByAnother(ctx, id) });
  const key = await ctx.db.apiKey.findFirst({ where: { AND: [{ id }, apiKeyScope(ctx, actor)] } });
  if (!key) throw AppError.notFound('API key');
  if (key.revokedAt) throw AppError.unprocessable('A revoked key cannot be rotated: create a new one', [{ pointer: '/keyId', message: 'is revoked' }]);
  const secret = newApiKey(ctx.environment, key.keyPrefix);
  const now = ctx.clock.now();
  const row = await ctx.db.$transaction(async (tx) => {
    const rotated = await tx.apiKey.update({ where: { id }, data: { keyHash: secret.keyHash } });
    await tx.refreshToken.updateMany({ where: { apiKeyId: id, revokedAt: null }, data: { revokedAt: now } });
    return rotated;
  });
  audit(ctx.logger, 'api_key.rotated', { apiKeyId: id, accountId: actor.accountId, userId: actor.userId });
  return { key: secret.key, ...toApiKeyDto(row) };
}

/**
 * Whether the key exists in the caller's account and another user (or nobody recorded) created
 * it. Read before the access decision, which depends on it; a key the caller cannot see is no
 * one else's, so it stays a 404 below rather than a 403 that would reveal it.
 */
async function createdByAnother(ctx: ServiceContext, id: string): Promise<boolean> {
  const { actor } = ctx;
  if (actor.kind !== 'login') return false;
  const key = await ctx.db.apiKey.findFirst({ where: { AND: [{ id }, apiKeyScope(ctx, actor)] }, select: { createdByUserId: true } });
  return key !== null && key.createdByUserId !== actor.userId;
}
