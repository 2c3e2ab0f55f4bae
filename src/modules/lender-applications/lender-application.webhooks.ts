/**
 * The webhooks this module sends lenders (spec 6), as the OpenAPI document declares them: the body
 * is the funding application document every delivery carries (the lender's view, with its
 * authorizationToken), the headers are the delivery engine's (webhooks/webhook-headers.ts).
 */
import type { WebhookDefinition } from '../../kernel/rest/openapi-declarations.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-headers.js';
import { FundingApplicationDocument } from './funding-application-schemas.js';

const ANSWER =
  'Answer **204** once the delivery is stored: any other answer, a redirect or no answer within the timeout is a failed attempt, sent again on the retry schedule with the same `webhook-id` (de-duplicate on it), then dead-lettered. Verify `webhook-signature` with the webhook secret before trusting the body.';

export const lenderApplicationWebhooks: WebhookDefinition[] = [
  {
    eventType: WEBHOOK_EVENT_TYPES.APPLICATION_CREATED,
    operationId: 'applicationCreated',
    summary: 'A new application for the lender',
    description: `Sent to the lender's application URL when an application is submitted to it, and again when the client resubmits one the lender failed (a new delivery, with a new \`webhook-id\`). The body is the funding application document (spec 2.7). ${ANSWER}`,
    body: FundingApplicationDocument,
  },
  {
    eventType: WEBHOOK_EVENT_TYPES.APPLICATION_UPDATED,
    operationId: 'applicationUpdated',
    summary: 'An application of the lender changed',
    description: `Sent to the lender's update URL (its application URL when it gave none) on every other change of one of its applications: its own acknowledgement, offer or rejection, and the client's acceptance or decline of an offer. The body is the funding application document (spec 2.7) as the change left it; \`webhook-sequence\` orders an application's deliveries. ${ANSWER}`,
    body: FundingApplicationDocument,
  },
];
