/**
 * The events an integrator account receives about its clients' lender applications, declared once:
 * the body of each event type as its webhooks carry it and its event log lists it (Standard Webhooks'
 * `{ type, timestamp, data }`), the OpenAPI `webhooks` section follows from these, and
 * `integratorEventsOf` decides which a status change emits.
 */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type IntegratorEvent } from '../webhooks/webhook-headers.js';
import { IntegratorApplicationDocument } from './funding-application-schemas.js';
import type { ApplicationEvent } from './application-status.js';

export const IntegratorEventData = z
  .strictObject({
    applicationId: z.number().int().describe('The lender application (the id its accept, decline and resubmit take)'),
    lenderId: z.number().int(),
    tenantId: z.uuid().nullable().describe("The tenant whose profile applied (null for a Marketplace V1 key's profile)"),
    previousStatus: z.string().describe('Its status before the change'),
    status: z.string().describe('Its status after the change (spec 3)'),
    application: IntegratorApplicationDocument.shape.application.describe(
      'The application as the change left it: status, reasons, the current offer and what was sent (no lender secret)',
    ),
  })
  .meta({ id: 'IntegratorEventData', description: 'A lender application of one of your clients, as a change left it' });
export type IntegratorEventData = z.infer<typeof IntegratorEventData>;

const bodyOf = (event: IntegratorEvent, id: string, description: string) =>
  z
    .strictObject({
      type: z.literal(WEBHOOK_EVENT_TYPES[event]),
      timestamp: z.iso.datetime().describe('When the change was made'),
      data: IntegratorEventData,
    })
    .meta({ id, description });

export const INTEGRATOR_EVENT_BODIES = {
  APPLICATION_STATUS_CHANGED: bodyOf('APPLICATION_STATUS_CHANGED', 'ApplicationStatusChangedEvent', "A client's lender application moved to another status"),
  OFFER_CREATED: bodyOf(
    'OFFER_CREATED',
    'OfferCreatedEvent',
    "A lender made an offer (or a replacing one) on a client's application: `data.application.offer`",
  ),
  OFFER_ACCEPTED: bodyOf('OFFER_ACCEPTED', 'OfferAcceptedEvent', 'The client accepted the current offer'),
  OFFER_DECLINED: bodyOf('OFFER_DECLINED', 'OfferDeclinedEvent', 'The client declined the current offer'),
} as const satisfies Record<IntegratorEvent, z.ZodType>;

/** The events a status change emits: a move to another status, and what it did to the offer. */
export function integratorEventsOf(event: ApplicationEvent, from: string, to: string): IntegratorEvent[] {
  const events: IntegratorEvent[] = [];
  if (from !== to) events.push('APPLICATION_STATUS_CHANGED');
  if (event === 'offer') events.push('OFFER_CREATED');
  if (event === 'accept') events.push('OFFER_ACCEPTED');
  if (event === 'decline') events.push('OFFER_DECLINED');
  return events;
}
