/**
 * The lender API's view of its webhook deliveries, declared once: the REST bodies and the OpenAPI
 * schemas follow from these. What was sent is shown as sent, less what is a secret: the signature
 * header and the document's `apiProvider.authorizationToken` read `[redacted]`.
 */
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageSchemaOf } from '../../kernel/keyset-pages.js';
import { DeliveryStatus } from './webhook-delivery-schemas.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-headers.js';
import { RESPONSE_BODY_EXCERPT_BYTES, SHOWN_RESPONSE_HEADERS } from './receiver-answer.js';

const instant = z.iso.datetime();

/** The attempts one delivery's own page shows (a list shows the latest 10). */
export const DETAIL_ATTEMPTS = 100;

const LenderAttemptResponse = z
  .strictObject({
    headers: z
      .record(z.string(), z.string())
      .describe(`Your answer's headers of an allow-list (${SHOWN_RESPONSE_HEADERS.join(', ')}), each at most 256 characters`),
    body: z
      .string()
      .nullable()
      .describe(
        `The first ${RESPONSE_BODY_EXCERPT_BYTES} bytes of your answer's body, as UTF-8, when its content type is textual (text, JSON, XML, a form) or absent; null for a binary one`,
      ),
    bodyTruncated: z.boolean().describe('Your answer had more than `body` shows'),
  })
  .meta({ id: 'LenderAttemptResponse', description: 'What your endpoint answered to an attempt' });

const LenderDeliveryAttempt = z
  .strictObject({
    attemptedAt: instant,
    statusCode: z.number().int().nullable().describe('Your HTTP status; null when no answer came (timeout, refused connection, refused URL)'),
    latencyMs: z.number().int().describe('Milliseconds from sending to your answer (or the failure)'),
    error: z.string().nullable().describe('Why the attempt failed (null when it was delivered)'),
    requestHeaders: z
      .record(z.string(), z.string())
      .describe('The headers the attempt sent; `webhook-signature` (present while you have a webhook secret) reads `[redacted]`'),
    response: LenderAttemptResponse.nullable().describe(
      'What you answered; null when no answer came (timeout, refused connection or URL), or for an attempt made before answers were kept',
    ),
  })
  .meta({ id: 'LenderDeliveryAttempt', description: 'One attempt of a webhook delivery, as you received it (or not)' });

export const LenderDelivery = z
  .strictObject({
    id: z.uuid().describe('The `webhook-id`: the same on every attempt, redelivery and replay'),
    applicationId: z.number().int(),
    eventType: z.enum([WEBHOOK_EVENT_TYPES.APPLICATION_CREATED, WEBHOOK_EVENT_TYPES.APPLICATION_UPDATED]).describe('The `webhook-event-type` header'),
    sequence: z.number().int().describe("The `webhook-sequence` header: this delivery's number among its application's"),
    url: z.string().describe('Where it is sent'),
    status: DeliveryStatus.describe('PENDING: waiting for its next attempt; FAILED: retrying; DELIVERED: you answered 204; DEAD: its retries ran out.'),
    attemptCount: z.number().int().describe('Attempts of its current schedule (a redelivery or replay starts a new one)'),
    nextAttemptAt: instant.nullable(),
    deliveredAt: instant.nullable(),
    createdAt: instant,
    requestBody: z.record(z.string(), z.unknown()).describe('The funding application document sent (spec 2.7), its `apiProvider.authorizationToken` redacted'),
    attempts: z.array(LenderDeliveryAttempt).describe(`The latest attempts, newest first: at most 10 in a list, ${DETAIL_ATTEMPTS} in GET /deliveries/{id}`),
  })
  .meta({ id: 'LenderDelivery', description: 'A webhook delivery to you, with what it sent and its attempts' });
export type LenderDelivery = z.infer<typeof LenderDelivery>;

export const LenderDeliveryPage = pageSchemaOf(LenderDelivery, 'LenderDeliveryPage', 'A page of your webhook deliveries, newest first');
export type LenderDeliveryPage = z.infer<typeof LenderDeliveryPage>;

export const LenderDeliveryQuery = z.strictObject({
  applicationId: z.coerce
    .number({ message: 'must be an application id (number)' })
    .int('must be an application id (number)')
    .positive('must be an application id (number)')
    .optional()
    .describe("Only this application's deliveries"),
  status: DeliveryStatus.optional().describe('Only deliveries in this status'),
  first: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Deliveries in the page: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}`),
  after: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional().describe("The previous page's `pageInfo.endCursor`"),
});
export type LenderDeliveryQuery = z.output<typeof LenderDeliveryQuery>;

/** The most deliveries one replay queues, and the longest time range it takes. */
export const MAX_REPLAY_DELIVERIES = 500;
export const MAX_REPLAY_RANGE_DAYS = 31;
const DAY_MS = 86_400_000;

export const DeliveryReplay = z
  .strictObject({
    status: z
      .literal('FAILED', { message: 'must be FAILED' })
      .optional()
      .describe('Every delivery that failed: retrying (FAILED) or whose retries ran out (DEAD)'),
    from: z.iso.datetime({ message: 'must be an ISO 8601 instant' }).optional().describe('Deliveries created at or after this instant (with `to`)'),
    to: z.iso
      .datetime({ message: 'must be an ISO 8601 instant' })
      .optional()
      .describe(`Deliveries created before this instant; at most ${MAX_REPLAY_RANGE_DAYS} days after \`from\``),
  })
  .superRefine((replay, check) => {
    const range = replay.from !== undefined || replay.to !== undefined;
    if (replay.status !== undefined && range) check.addIssue({ code: 'custom', path: ['status'], message: 'give either status or from and to, not both' });
    if (replay.status !== undefined) return;
    if (replay.from === undefined)
      check.addIssue({ code: 'custom', path: ['from'], message: range ? 'is required with to' : 'is required: give status FAILED, or from and to' });
    if (replay.to === undefined)
      check.addIssue({ code: 'custom', path: ['to'], message: range ? 'is required with from' : 'is required: give status FAILED, or from and to' });
    if (replay.from === undefined || replay.to === undefined) return;
    const span = Date.parse(replay.to) - Date.parse(replay.from);
    if (span <= 0) check.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    else if (span > MAX_REPLAY_RANGE_DAYS * DAY_MS)
      check.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${MAX_REPLAY_RANGE_DAYS} days after from` });
  })
  .meta({ id: 'DeliveryReplay', description: 'Which of your deliveries to send again: `{ "status": "FAILED" }`, or a time range `{ "from", "to" }`' });
export type DeliveryReplay = z.output<typeof DeliveryReplay>;

export const DeliveryReplayResult = z
  .strictObject({
    queued: z.number().int().describe(`Deliveries queued again now (at most ${MAX_REPLAY_DELIVERIES}), oldest first`),
    more: z.boolean().describe('More deliveries matched than one replay queues: send the request again (a range: with `from` = `nextFrom`)'),
    nextFrom: instant.nullable().describe('When `more`: the creation time of the first delivery not queued'),
  })
  .meta({ id: 'DeliveryReplayResult', description: 'What a replay queued' });
export type DeliveryReplayResult = z.infer<typeof DeliveryReplayResult>;
