/**
 * The webhooks this module sends integrator accounts' endpoints, as the OpenAPI document declares
 * them: the bodies are integrator-event-schemas.ts's, the headers the delivery engine's
 * (webhooks/webhook-headers.ts), the same as a lender's.
 */
import type { WebhookDefinition } from '../../kernel/rest/openapi-declarations.js';
import { INTEGRATOR_EVENTS, WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-headers.js';
import { INTEGRATOR_EVENT_BODIES } from './integrator-event-schemas.js';

const ANSWER =
  "Sent to each of the account's enabled endpoints subscribed to the event type (`POST /api/platform/v1/webhook-endpoints`), signed with the endpoint's `whsec_` secret. Answer **204** once stored: anything else is a failed attempt, sent again on the lenders' retry schedule with the same `webhook-id`, then dead-lettered; the account's deliveries can be redelivered and replayed. The same body is in `GET /api/platform/v1/events` for 30 days.";

const SUMMARIES = {
  APPLICATION_STATUS_CHANGED: [
    'applicationStatusChanged',
    "A client's application changed status",
    'Sent when a lender application of one of your clients moves to another status (the lender acknowledged, offered, rejected or failed it; the client accepted or declined an offer, or resubmitted).',
  ],
  OFFER_CREATED: [
    'offerCreated',
    'A lender made an offer',
    "Sent when a lender makes an offer on one of your clients' applications, or replaces its offer: the offer is `data.application.offer`.",
  ],
  OFFER_ACCEPTED: [
    'offerAccepted',
    'The client accepted an offer',
    'Sent when the client accepts the current offer (through your integration or its continue page).',
  ],
  OFFER_DECLINED: ['offerDeclined', 'The client declined an offer', 'Sent when the client declines the current offer.'],
} as const;

export const integratorApplicationWebhooks: WebhookDefinition[] = INTEGRATOR_EVENTS.map((event) => {
  const [operationId, summary, when] = SUMMARIES[event];
  return {
    eventType: WEBHOOK_EVENT_TYPES[event],
    operationId,
    summary,
    description: `${when} ${ANSWER}`,
    body: INTEGRATOR_EVENT_BODIES[event],
    audience: 'integrator' as const,
  };
});
