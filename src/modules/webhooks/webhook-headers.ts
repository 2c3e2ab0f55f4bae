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

/** What `webhook-event-type` says of each stored event (Standard Webhooks style names). */
export const WEBHOOK_EVENT_TYPES = {
  APPLICATION_CREATED: 'application.created',
  APPLICATION_UPDATED: 'application.updated',
  APPLICATION_STATUS_CHANGED: 'application.status_changed',
  OFFER_CREATED: 'offer.created',
  OFFER_ACCEPTED: 'offer.accepted',
  OFFER_DECLINED: 'offer.declined',
} as const satisfies Record<WebhookEvent, string>;

/** The events a lender receives, and those an integrator account's endpoints may subscribe to. */
export const LENDER_EVENTS = ['APPLICATION_CREATED', 'APPLICATION_UPDATED'] as const satisfies readonly WebhookEvent[];
export const INTEGRATOR_EVENTS = ['APPLICATION_STATUS_CHANGED', 'OFFER_CREATED', 'OFFER_ACCEPTED', 'OFFER_DECLINED'] as const satisfies readonly WebhookEvent[];
export type IntegratorEvent = (typeof INTEGRATOR_EVENTS)[number];
export const INTEGRATOR_EVENT_TYPES = [
  WEBHOOK_EVENT_TYPES.APPLICATION_STATUS_CHANGED,
  WEBHOOK_EVENT_TYPES.OFFER_CREATED,
  WEBHOOK_EVENT_TYPES.OFFER_ACCEPTED,
  WEBHOOK_EVENT_TYPES.OFFER_DECLINED,
] as const;
export type IntegratorEventType = (typeof INTEGRATOR_EVENT_TYPES)[number];
/** The stored event of an integrator event type's name. */
const INTEGRATOR_EVENT_OF = Object.fromEntries(INTEGRATOR_EVENTS.map((event) => [WEBHOOK_EVENT_TYPES[event], event])) as Record<
  IntegratorEventType,
  IntegratorEvent
>;

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
      "`v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{body}\">` keyed with the recipient's `whsec_` webhook secret (the lender's, or the integrator endpoint's) (Standard Webhooks; the `standardwebhooks` package verifies it). During a lender's secret rotation's overlap window, space-separated signatures with the new and the previous secret. Absent only while a lender has no webhook secret.",
    optional: true,
    schema: z.string(),
  },
  {
    name: 'webhook-event-type',
    description:
      "To a lender: `application.created` (the application was submitted or resubmitted to the lender: sent to its application URL) or `application.updated` (any other change: sent to its update URL, or its application URL when it gave none). To an integrator endpoint: the event type it subscribed to (`application.status_changed`, `offer.created`, `offer.accepted`, `offer.declined`), also the body's `type`. Not covered by the signature.",
    schema: z.enum([WEBHOOK_EVENT_TYPES.APPLICATION_CREATED, WEBHOOK_EVENT_TYPES.APPLICATION_UPDATED, ...INTEGRATOR_EVENT_TYPES]),
  },
  {
    name: 'webhook-sequence',
    description:
      "This delivery's number among its application's deliveries to the same recipient: 1 for the first, one more for each after it, the same on every attempt. A delivery with a lower number than one already processed is older: the higher one's body is the application's later state. Not covered by the signature.",
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
  const signed =
    secrets.length > 0
      ? signWebhook(secrets, delivery.id, now, body)
      : { 'webhook-id': delivery.id, 'webhook-timestamp': Math.floor(now.getTime() / 1000).toString() };
  return {
    ...signed,
    'webhook-event-type': WEBHOOK_EVENT_TYPES[delivery.event],
    'webhook-sequence': String(delivery.sequence),
    ...(delivery.requestId ? { 'x-request-id': delivery.requestId } : {}),
  };
}

/** The headers every attempt sends beside those above. */
export const FIXED_HEADERS = { 'content-type': 'application/json', 'user-agent': 'funding-gateway-webhooks/1' } as const;

/** What a redacted header shows. */
export const REDACTED = '[redacted]';

/**
 * The headers of an attempt as shown to the lender afterwards: those sent, its timestamp from the
 * attempt's time (an attempt is signed as it starts), and the signature redacted (it is sent only
 * while the lender has a webhook secret; shown when it has one now). Nothing stored is a secret.
 */
export function shownAttemptHeaders(delivery: SentDelivery, attemptedAt: Date, signed: boolean): Record<string, string> {
  const { 'webhook-signature': _signature, ...sent } = deliveryHeaders(delivery, [], attemptedAt, '');
  return { ...FIXED_HEADERS, ...sent, ...(signed ? { 'webhook-signature': REDACTED } : {}) };
}
