/**
 * A lender's test event (POST /endpoints/{kind}/test): a signed request sent now to the URL the lender
 * has for that kind of event, as a delivery is sent (the URL policy, no redirects, the webhook
 * timeout, the signing secrets of the moment), answering what its receiver said and how fast. Not a
 * delivery: nothing is queued, retried or stored, and its body says it is a test.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { requireAccess } from '../../kernel/access-policy.js';
import { audit } from '../../kernel/audit-log.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { postToLender, signingSecrets } from './webhook-delivery.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-headers.js';
import { signWebhook } from './webhook-signature.js';

const EndpointKind = z.enum(['created', 'updated'], { message: 'must be created or updated' });

export const EndpointTestResult = z
  .strictObject({
    url: z
      .string()
      .describe('Where the test event was sent: your application URL (created), or your update URL (updated; the application URL when you gave none)'),
    webhookId: z.uuid().describe('The `webhook-id` of the test event (never used by a delivery)'),
    statusCode: z.number().int().nullable().describe('Your HTTP status; null when no answer came'),
    latencyMs: z.number().int().describe('Milliseconds from sending to your answer (or the failure)'),
    error: z.string().nullable().describe('Why it failed: not 204, a timeout, a refused connection or URL; null when you answered 204'),
    delivered: z.boolean().describe('You answered 204, as a delivery needs'),
  })
  .meta({ id: 'EndpointTestResult', description: 'What your endpoint answered to a test event' });
export type EndpointTestResult = z.infer<typeof EndpointTestResult>;

/** Sends a signed test event to the calling lender's URL for `kind` now; answers its receiver's status and latency. */
export async function sendTestEvent(ctx: ServiceContext, kind: unknown): Promise<EndpointTestResult> {
  const actor = requireAccess(ctx, 'lenderEndpoints.test');
  const { kind: endpoint } = parseInput(z.strictObject({ kind: EndpointKind }), { kind }, 'Path');
  const lender = await ctx.db.lender.findFirst({
    where: { id: actor.lenderId, environment: ctx.environment },
    select: { applicationUrl: true, updateUrl: true, webhookSecret: true, previousWebhookSecret: true, previousWebhookSecretExpiresAt: true },
  });
  if (!lender) throw AppError.notFound('Lender');
  const url = endpoint === 'updated' ? (lender.updateUrl ?? lender.applicationUrl) : lender.applicationUrl;
  const type = endpoint === 'created' ? WEBHOOK_EVENT_TYPES.APPLICATION_CREATED : WEBHOOK_EVENT_TYPES.APPLICATION_UPDATED;
  const now = ctx.clock.now();
  const webhookId = randomUUID();
  const body = JSON.stringify({ test: true, type, sentAt: now.toISOString() });
  const secrets = signingSecrets(lender, now);
  const signed =
    secrets.length > 0
      ? signWebhook(secrets, webhookId, now, body)
      : { 'webhook-id': webhookId, 'webhook-timestamp': Math.floor(now.getTime() / 1000).toString() };
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    ({ statusCode } = await postToLender(ctx, url, body, { ...signed, 'webhook-event-type': type }));
    if (statusCode !== 204) error = `answered ${statusCode}, not 204`;
  } catch (err) {
    error = err instanceof AppError ? `${err.message}: ${err.fields[0]?.message ?? ''}` : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
  const latencyMs = Math.round(performance.now() - started);
  audit(ctx.logger, 'endpoints.tested', { lenderId: actor.lenderId, endpoint, statusCode });
  return { url, webhookId, statusCode, latencyMs, error, delivered: statusCode === 204 };
}
