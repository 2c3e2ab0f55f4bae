/**
 * A lender's own webhook endpoints (the lender API): it reads them, changes a URL (held to the webhook
 * URL policy, as an administrator's change is), disables or enables one, and rotates its signing
 * secret with an overlap window. Each public operation decides access once, for the calling lender's
 * own row.
 *
 * A disabled endpoint holds its deliveries: they stay PENDING or FAILED, the worker does not claim
 * them (delivery-attempt-store.ts `claimDueDeliveries`), no attempt is made or counted, so none is
 * dead-lettered for it; enabling it makes them due at once, in order. A URL change re-aims every
 * delivery of that kind not yet delivered, so what waited, and a replay after a fix, reach the new URL.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { audit } from '../../kernel/audit-log.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { newWebhookSecret } from './webhook-signature.js';
import { wakeDeliveryWorkers } from './delivery-wakeups.js';
import {
  EndpointKind,
  SigningSecretRotation,
  type LenderEndpoint,
  type LenderEndpointChange,
  type LenderEndpoints,
  type RotatedSigningSecret,
} from './lender-endpoint-schemas.js';
import { assertWebhookUrl, PLACEHOLDER_WEBHOOK } from './webhook-url-policy.js';

/** How long the previous signing secret signs too when a rotation does not say. */
const DEFAULT_OVERLAP_SECONDS = 86_400;

const ENDPOINT_COLUMNS = {
  applicationUrl: true,
  updateUrl: true,
  applicationUrlEnabled: true,
  updateUrlEnabled: true,
  webhookSecret: true,
  previousWebhookSecret: true,
  previousWebhookSecretExpiresAt: true,
} as const;
type EndpointRow = Prisma.LenderGetPayload<{ select: typeof ENDPOINT_COLUMNS }>;

/** The calling lender's endpoints and the status of its signing secret. */
export async function listLenderEndpoints(ctx: ServiceContext): Promise<LenderEndpoints> {
  const actor = requireAccess(ctx, 'lenderEndpoints.read');
  const lender = await ownLender(ctx, ctx.db, actor.lenderId);
  const waiting = await waitingByKind(ctx, ctx.db, actor.lenderId);
  const now = ctx.clock.now();
  const rotating =
    lender.webhookSecret !== null &&
    lender.previousWebhookSecret !== null &&
    lender.previousWebhookSecretExpiresAt !== null &&
    lender.previousWebhookSecretExpiresAt > now;
  return {
    endpoints: EndpointKind.options.map((kind) => endpointOf(lender, kind, waiting[kind])),
    signingSecret: {
      status: lender.webhookSecret === null ? 'NONE' : rotating ? 'ROTATING' : 'ACTIVE',
      previousSecretValidUntil: rotating ? lender.previousWebhookSecretExpiresAt!.toISOString() : null,
    },
  };
}

/** Changes the URL of one of the calling lender's endpoints, enables or disables it; answers the endpoint. */
export async function updateLenderEndpoint(ctx: ServiceContext, kind: unknown, change: LenderEndpointChange): Promise<LenderEndpoint> {
  const actor = requireAccess(ctx, 'lenderEndpoints.write');
  const { kind: endpoint } = parseInput(EndpointKindInput, { kind }, 'Path');
  if (endpoint === 'created' && change.url === null)
    throw AppError.badRequest('The application URL cannot be removed', [{ pointer: '/url', message: 'must be a URL for created' }]);
  if (change.url) await assertWebhookUrl(change.url, { environment: ctx.environment, allowPrivateAddresses: ctx.webhooks.allowPrivateAddresses }, '/url');
  const urlColumn = endpoint === 'created' ? 'applicationUrl' : 'updateUrl';
  const enabledColumn = endpoint === 'created' ? 'applicationUrlEnabled' : 'updateUrlEnabled';
  const answer = await ctx.db.$transaction(async (tx) => {
    await ownLender(ctx, tx, actor.lenderId);
    const data: Prisma.LenderUpdateInput = {
      ...(change.url !== undefined ? { [urlColumn]: change.url } : {}),
      ...(change.enabled !== undefined ? { [enabledColumn]: change.enabled } : {}),
    };
    const lender = await tx.lender.update({ where: { id: actor.lenderId, environment: ctx.environment }, data, select: ENDPOINT_COLUMNS });
    if (change.url !== undefined) await reaimUndelivered(ctx, tx, actor.lenderId);
    return endpointOf(lender, endpoint, (await waitingByKind(ctx, tx, actor.lenderId))[endpoint]);
  });
  // What waited behind a disabled endpoint, or for a new URL, is due now.
  wakeDeliveryWorkers(ctx);
  audit(ctx.logger, 'endpoints.changed', { lenderId: actor.lenderId, endpoint, url: change.url, enabled: change.enabled });
  return answer;
}

/**
 * A new signing secret for the calling lender, shown once; the one it replaces keeps signing beside
 * it until the overlap window ends (a rotation during a window drops the older secret).
 */
export async function rotateSigningSecret(ctx: ServiceContext, input: unknown): Promise<RotatedSigningSecret> {
  const actor = requireAccess(ctx, 'lenderSecrets.rotate');
  const { overlapSeconds = DEFAULT_OVERLAP_SECONDS } = parseInput(SigningSecretRotation, input ?? {});
  const webhookSecret = newWebhookSecret();
  const until = await ctx.db.$transaction(async (tx) => {
    // Two rotations at once must not both keep the same "previous" secret while one of theirs is lost.
    await tx.$queryRaw`SELECT id FROM lender WHERE id = ${actor.lenderId} FOR UPDATE`;
    const current = await ownLender(ctx, tx, actor.lenderId);
    const validUntil = current.webhookSecret && overlapSeconds > 0 ? new Date(ctx.clock.now().getTime() + overlapSeconds * 1000) : null;
    await tx.lender.update({
      where: { id: actor.lenderId, environment: ctx.environment },
      data: { webhookSecret, previousWebhookSecret: validUntil ? current.webhookSecret : null, previousWebhookSecretExpiresAt: validUntil },
    });
    return validUntil;
  });
  audit(ctx.logger, 'webhook_secret.rotated', { lenderId: actor.lenderId, overlapSeconds, previousSecretValidUntil: until?.toISOString() ?? null });
  return { webhookSecret, previousSecretValidUntil: until?.toISOString() ?? null };
}

const EndpointKindInput = z.strictObject({ kind: EndpointKind });

async function ownLender(ctx: ServiceContext, db: Prisma.TransactionClient, lenderId: number): Promise<EndpointRow> {
  const lender = await db.lender.findFirst({ where: { id: lenderId, environment: ctx.environment }, select: ENDPOINT_COLUMNS });
  if (!lender) throw AppError.notFound('Lender');
  return lender;
}

function endpointOf(lender: EndpointRow, kind: EndpointKind, waiting: number): LenderEndpoint {
  const applicationUrl = lender.applicationUrl === PLACEHOLDER_WEBHOOK ? null : lender.applicationUrl;
  if (kind === 'created') return { kind, url: applicationUrl, ownUrl: true, enabled: lender.applicationUrlEnabled, waiting };
  return { kind, url: lender.updateUrl ?? applicationUrl, ownUrl: lender.updateUrl !== null, enabled: lender.updateUrlEnabled, waiting };
}

/** The lender's deliveries not delivered yet (PENDING or FAILED), by the endpoint they go to. */
async function waitingByKind(ctx: ServiceContext, db: Prisma.TransactionClient, lenderId: number): Promise<Record<EndpointKind, number>> {
  const rows = await db.webhookDelivery.groupBy({
    by: ['event'],
    // Deliveries of the lender's applications to integrators' endpoints are not the lender's.
    where: { lenderId, integratorEndpointId: null, environment: ctx.environment, status: { in: ['PENDING', 'FAILED'] } },
    _count: { _all: true },
  });
  const count = (event: string) => rows.find((row) => row.event === event)?._count._all ?? 0;
  return { created: count('APPLICATION_CREATED'), updated: count('APPLICATION_UPDATED') };
}

/** Every delivery to the lender not yet delivered, aimed at the URL its event goes to now (never one to an integrator's endpoint). */
async function reaimUndelivered(ctx: ServiceContext, tx: Prisma.TransactionClient, lenderId: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE webhook_delivery d
       SET url = CASE d.event WHEN 'APPLICATION_CREATED' THEN l."applicationUrl" ELSE coalesce(l."updateUrl", l."applicationUrl") END
      FROM lender l
     WHERE l.id = d."lenderId" AND d."lenderId" = ${lenderId} AND d."integratorEndpointId" IS NULL AND d.environment::text = ${ctx.environment}
       AND d.status IN ('PENDING', 'FAILED', 'DEAD')`;
}
