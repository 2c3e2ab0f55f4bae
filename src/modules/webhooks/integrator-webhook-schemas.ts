/**
 * An integrator account's webhooks, declared once: its endpoints (what creating, changing and
 * listing one take and answer), the deliveries to them and its event log. The REST bodies, the
 * OpenAPI schemas and the dashboard's GraphQL types follow from these. The events' bodies are
 * declared beside the domain that emits them (lender-applications/integrator-event-schemas.ts).
 */
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageInfo, pageSchemaOf } from '../../kernel/keyset-pages.js';
import { LenderDelivery, LenderDeliveryQuery } from './lender-delivery-schemas.js';
import { INTEGRATOR_EVENT_TYPES } from './webhook-headers.js';

const instant = z.iso.datetime();

const IntegratorEventType = z.enum(INTEGRATOR_EVENT_TYPES, { message: `must be one of ${INTEGRATOR_EVENT_TYPES.join(', ')}` });

const url = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .describe('Where the events are POSTed: http(s), a public address (the webhook URL policy)');
const eventTypes = z
  .array(IntegratorEventType)
  .min(1, 'must name at least one event type')
  .max(INTEGRATOR_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, 'must not name an event type twice')
  .describe(`The event types it receives: ${INTEGRATOR_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}`);
const description = z.string().trim().max(200, 'must be at most 200 characters').nullable().describe('A note for the account: what receives it');

export const WebhookEndpoint = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(IntegratorEventType),
    enabled: z.boolean().describe('A disabled endpoint is sent nothing new'),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'WebhookEndpoint', description: 'A webhook endpoint of the account (its signing secret is shown once, when it is created)' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().describe('The `whsec_` signing secret (Standard Webhooks): shown this once; verify `webhook-signature` with it'),
}).meta({ id: 'CreatedWebhookEndpoint', description: 'A new webhook endpoint with its signing secret, shown this once' });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointList = z
  .strictObject({ nodes: z.array(WebhookEndpoint) })
  .meta({ id: 'WebhookEndpointList', description: "The account's webhook endpoints, oldest first" });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

export const CreateWebhookEndpointBody = z
  .strictObject({ url, eventTypes, description: description.optional(), enabled: z.boolean().default(true) })
  .meta({ id: 'CreateWebhookEndpointBody', description: 'A URL subscribed to event types' });
export type CreateWebhookEndpointBody = z.output<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = z
  .strictObject({ url: url.optional(), eventTypes: eventTypes.optional(), description: description.optional(), enabled: z.boolean().optional() })
  .refine((body) => Object.keys(body).length > 0, { message: 'must change something: url, eventTypes, description or enabled' })
  .meta({ id: 'UpdateWebhookEndpointBody', description: 'What to change of an endpoint (what is left out stays)' });
export type UpdateWebhookEndpointBody = z.output<typeof UpdateWebhookEndpointBody>;

export const IntegratorDelivery = LenderDelivery.extend({
  eventType: IntegratorEventType.describe("The `webhook-event-type` header, and the body's `type`"),
  sequence: z.number().int().describe("The `webhook-sequence` header: this delivery's number among its application's deliveries to this endpoint"),
  endpointId: z.uuid().describe('The endpoint it is sent to'),
  requestBody: z.record(z.string(), z.unknown()).describe('The event sent: `{ type, timestamp, data }`'),
  status: LenderDelivery.shape.status.describe(
    'PENDING: waiting for its next attempt; FAILED: retrying; DELIVERED: the endpoint answered 204; DEAD: its retries ran out.',
  ),
}).meta({ id: 'IntegratorDelivery', description: "A webhook delivery to one of the account's endpoints, with what it sent and its attempts" });
export type IntegratorDelivery = z.infer<typeof IntegratorDelivery>;

export const IntegratorDeliveryPage = pageSchemaOf(
  IntegratorDelivery,
  'IntegratorDeliveryPage',
  "A page of the deliveries to the account's endpoints, newest first",
);
export type IntegratorDeliveryPage = z.infer<typeof IntegratorDeliveryPage>;

export const IntegratorDeliveryQuery = LenderDeliveryQuery.extend({
  endpointId: z.uuid({ message: 'must be an endpoint id (UUID)' }).optional().describe("Only this endpoint's deliveries"),
});
export type IntegratorDeliveryQuery = z.output<typeof IntegratorDeliveryQuery>;

/** How long the account's events are kept (and listed). */
export const EVENT_RETENTION_DAYS = 30;

export const AccountEvent = z
  .strictObject({
    id: z.uuid(),
    type: IntegratorEventType,
    timestamp: instant.describe("When it happened (the body's `timestamp`)"),
    applicationId: z.number().int().describe('The lender application it concerns'),
    data: z.record(z.string(), z.unknown()).describe("The body's `data`, exactly as the webhook of its type carries it (see `webhooks`)"),
  })
  .meta({ id: 'AccountEvent', description: "An event of the account: the body its webhooks carry, with the event's id" });
export type AccountEvent = z.infer<typeof AccountEvent>;

export const AccountEventPage = z.strictObject({ nodes: z.array(AccountEvent), pageInfo: PageInfo }).meta({
  id: 'AccountEventPage',
  description: `The account's events after a cursor, oldest first (kept ${EVENT_RETENTION_DAYS} days); keep the last \`endCursor\` you received and pass it as \`after\``,
});
export type AccountEventPage = z.infer<typeof AccountEventPage>;

export const AccountEventQuery = z.strictObject({
  after: z
    .string()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('The last `pageInfo.endCursor` you received; from the oldest kept event when absent'),
  first: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Events in the page: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}`),
});
export type AccountEventQuery = z.output<typeof AccountEventQuery>;
