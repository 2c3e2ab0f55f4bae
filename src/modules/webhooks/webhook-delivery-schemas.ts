/** A webhook delivery to a lender with its latest attempts, as staff read it, declared once: its TypeScript type and its GraphQL type follow from it. */
import { z } from 'zod';
import { pageSchemaOf } from '../../kernel/keyset-pages.js';

const instant = z.iso.datetime();

const WebhookDeliveryAttempt = z
  .strictObject({
    statusCode: z.number().int().nullable().describe("The lender's HTTP status; null when no answer came (timeout, refused connection or URL)"),
    error: z.string().nullable(),
    latencyMs: z.number().int().describe('Milliseconds from sending to the answer (or the failure)'),
    attemptedAt: instant,
  })
  .meta({ id: 'WebhookDeliveryAttempt', description: 'One attempt of a webhook delivery' });

export const DeliveryStatus = z.enum(['PENDING', 'FAILED', 'DELIVERED', 'DEAD'], { message: 'must be one of PENDING, FAILED, DELIVERED, DEAD' });

export const WebhookDelivery = z
  .strictObject({
    id: z.uuid(),
    lenderApplicationId: z.number().int(),
    lenderId: z.number().int(),
    event: z.enum(['APPLICATION_CREATED', 'APPLICATION_UPDATED']),
    url: z.string(),
    status: DeliveryStatus.describe('FAILED is retrying; DEAD is dead-lettered.'),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: instant.nullable(),
    deliveredAt: instant.nullable(),
    createdAt: instant,
    attemptLog: z.array(WebhookDeliveryAttempt).describe('The latest attempts (at most 10), newest first'),
  })
  .meta({ id: 'WebhookDelivery', description: 'A webhook delivery to a lender, with its attempts' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryPage = pageSchemaOf(WebhookDelivery, 'WebhookDeliveryPage', 'A page of webhook deliveries, newest first');
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPage>;
