/**
 * The headers of every delivery, declared once: the delivery engine sends them (webhook-delivery.ts
 * `attemptDueDelivery`) and the OpenAPI document declares them on its webhooks. Standard Webhooks'
 * three (webhook-signature.ts), and two of ours for a lender with one URL for both events, or one
 * that receives deliveries out of order or again: the event type, and the delivery's number among its
 * application's. The signature covers the id, the timestamp and the body, not these two: a lender
 * that must trust them against a tampering relay checks the body's status instead.
 */
import { z } from 'zod';
import type { WebhookEvent } from '../../generated/prisma/enums.js';
import { signWebhook } from './webhook-signature.js';

/** What `webhook-event-type` says of each stored event. */
export const WEBHOOK_EVENT_TYPES = {
  APPLICATION_CREATED: 'application.created',
  APPLICATION_UPDATED: 'application.updated',
} as const satisfies Record<WebhookEvent, string>;

interface WebhookHeader {
  name: string;
  description: string;
  /** Absent from some deliveries (see the description). */
  optional?: true;
  schema: z.ZodType;
}

export const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    description: 'The delivery id (Standard Webhooks): the same on every attempt and redelivery, so a receiver de-duplicates on it.',
    schema: z.uuid(),
  },
  {
    name: 'webhook-timestamp',
    description: 'When this attempt was signed, in Unix seconds (Standard Webhooks): a receiver refuses one too far from its clock.',
    schema: z.string().regex(/^[0-9]+$/),
  },
  {
    name: 'webhook-signature',
    description:
      "`v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{body}\">` keyed with the lender's `whsec_` webhook secret (Standard Webhooks; the `standardwebhooks` package verifies it). During a secret rotation's overlap window, space-separated signatures with the new and the previous secret. Absent only while the lender has no webhook secret.",
    optional: true,
    schema: z.string(),
  },
  {
    name: 'webhook-event-type',
    description: '`application.created` (the application was submitted or resubmitted to the lender: sent to its application URL) or `application.updated` (any other change: sent to its update URL, or its application URL when it gave none). Not covered by the signature.',
    schema: z.enum([WEBHOOK_EVENT_TYPES.APPLICATION_CREATED, WEBHOOK_EVENT_TYPES.APPLICATION_UPDATED]),
  },
  {
    name: 'webhook-sequence',
    description:
      "This delivery's number among its application's deliveries: 1 for the first, one more for each after it, the same on every attempt. A delivery with a lower number than one already processed is older: the higher one's body is the application's later state. Not covered by the signature.",
    schema: z.string().regex(/^[1-9][0-9]*$/),
  },
  {
    name: 'x-request-id',
    description: 'The id of the request that caused the change, to quote to the gateway. Absent when no request caused it.',
    optional: true,
    schema: z.string(),
  },
] as const satisfies readonly WebhookHeader[];

type WebhookHeaderName = (typeof WEBHOOK_HEADERS)[number]['name'];

interface SentDelivery {
  id: string;
  event: WebhookEvent;
  sequence: number;
  requestId: string | null;
}

/**
 * The headers of one attempt, content type and user agent aside: the signature with each secret
 * given (none while the lender has no secret), the attempt's timestamp, the event type and number.
 */
export function deliveryHeaders(delivery: SentDelivery, secrets: readonly string[], now: Date, body: string): Partial<Record<WebhookHeaderName, string>> {
  const signed = secrets.length > 0 ? signWebhook(secrets, delivery.id, now, body) : { 'webhook-id': delivery.id, 'webhook-timestamp': Math.floor(now.getTime() / 1000).toString() };
  return {
    ...signed,
    'webhook-event-type': WEBHOOK_EVENT_TYPES[delivery.event],
    'webhook-sequence': String(delivery.sequence),
    ...(delivery.requestId ? { 'x-request-id': delivery.requestId } : {}),
  };
}
