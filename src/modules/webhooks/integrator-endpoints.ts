/**
 * An integrator account's webhook endpoints: an account admin subscribes a URL to event types (the
 * URL through the webhook URL policy, as a lender's is), is shown its Standard Webhooks signing
 * secret once, changes or deletes it; every user of the account lists them, never their secrets.
 * Each operation decides access once and reaches only the caller's account's endpoints (another
 * account's is a 404).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { audit } from '../../kernel/audit-log.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput, type CheckedLater } from '../../kernel/validation.js';
import { z } from 'zod';
import {
  type CreateWebhookEndpointBody,
  type UpdateWebhookEndpointBody,
  type CreatedWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from './integrator-webhook-schemas.js';
import { assertWebhookUrl } from './webhook-url-policy.js';
import { newWebhookSecret } from './webhook-signature.js';
import type { IntegratorEventType } from './webhook-headers.js';

/** Endpoints an account may have at once. */
export const MAX_ENDPOINTS = 20;

const EndpointId = z.uuid({ message: 'must be an endpoint id (UUID)' });

type EndpointRow = Prisma.IntegratorWebhookEndpointGetPayload<object>;

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as IntegratorEventType[],
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Checked as a lender's URL is when it is registered: a host that does not resolve yet is let through (every delivery checks it again). */
const checkUrl = (ctx: ServiceContext, url: string) =>
  assertWebhookUrl(url, { environment: ctx.environment, allowPrivateAddresses: ctx.webhooks.allowPrivateAddresses, allowUnresolved: true });

/** The account's endpoints, oldest first. */
export async function listWebhookEndpoints(ctx: ServiceContext): Promise<WebhookEndpointList> {
  const actor = requireAccess(ctx, 'webhookEndpoints.read');
  const rows = await ctx.db.integratorWebhookEndpoint.findMany({ where: { accountId: actor.accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return { nodes: rows.map(toEndpoint) };
}

/** One endpoint of the account (404 for another account's). */
export async function readWebhookEndpoint(ctx: ServiceContext, id: unknown): Promise<WebhookEndpoint> {
  const actor = requireAccess(ctx, 'webhookEndpoints.read');
  return toEndpoint(await findEndpoint(ctx, actor.accountId, id));
}

/** A new endpoint of the account, with its signing secret (shown this once). */
export async function createWebhookEndpoint(ctx: ServiceContext, body: CreateWebhookEndpointBody): Promise<CreatedWebhookEndpoint> {
  const actor = requireAccess(ctx, 'webhookEndpoints.manage');
  const url = (await checkUrl(ctx, body.url)).toString();
  const row = await ctx.db.$transaction(async (tx) => {
    // One creation per account at a time, so two at once cannot both pass the count.
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook_endpoints:${actor.accountId}`}))::text`;
    if ((await tx.integratorWebhookEndpoint.count({ where: { accountId: actor.accountId } })) >= MAX_ENDPOINTS) {
      throw AppError.unprocessable(`An account has at most ${MAX_ENDPOINTS} webhook endpoints`, [
        { pointer: '/url', message: `delete an endpoint first: the account has ${MAX_ENDPOINTS}` },
      ]);
    }
    return tx.integratorWebhookEndpoint.create({
      data: {
        accountId: actor.accountId,
        url,
        eventTypes: body.eventTypes,
        description: body.description ?? null,
        enabled: body.enabled,
        secret: newWebhookSecret(),
      },
    });
  });
  audit(ctx.logger, 'webhook_endpoint.created', { accountId: actor.accountId, userId: actor.userId, endpointId: row.id });
  return { ...toEndpoint(row), secret: row.secret };
}

/** An endpoint of the account changed: its URL, event types, description or whether it is enabled. */
export async function updateWebhookEndpoint(ctx: ServiceContext, id: unknown, input: CheckedLater<UpdateWebhookEndpointBody>): Promise<WebhookEndpoint> {
  const actor = requireAccess(ctx, 'webhookEndpoints.manage');
  const endpoint = await findEndpoint(ctx, actor.accountId, id);
  const body = input();
  const url = body.url === undefined ? undefined : (await checkUrl(ctx, body.url)).toString();
  const row = await ctx.db.integratorWebhookEndpoint.update({
    where: { id: endpoint.id },
    data: { url, eventTypes: body.eventTypes, description: body.description, enabled: body.enabled },
  });
  audit(ctx.logger, 'webhook_endpoint.updated', { accountId: actor.accountId, userId: actor.userId, endpointId: row.id });
  return toEndpoint(row);
}

/** An endpoint of the account deleted, with its deliveries (nothing more is sent to it). */
export async function deleteWebhookEndpoint(ctx: ServiceContext, id: unknown): Promise<void> {
  const actor = requireAccess(ctx, 'webhookEndpoints.manage');
  const endpoint = await findEndpoint(ctx, actor.accountId, id);
  await ctx.db.integratorWebhookEndpoint.delete({ where: { id: endpoint.id } });
  audit(ctx.logger, 'webhook_endpoint.deleted', { accountId: actor.accountId, userId: actor.userId, endpointId: endpoint.id });
}

async function findEndpoint(ctx: ServiceContext, accountId: string, id: unknown): Promise<EndpointRow> {
  const endpointId = parseInput(EndpointId, id, 'Endpoint id');
  const row = await ctx.db.integratorWebhookEndpoint.findFirst({ where: { id: endpointId, accountId } });
  if (!row) throw AppError.notFound('Webhook endpoint');
  return row;
}
