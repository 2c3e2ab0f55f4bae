/**
 * The events of lender applications, published after commit to GraphQL subscriptions (events.ts),
 * declared once: their TypeScript types and their GraphQL types follow from them.
 */
import { z } from 'zod';

export const ApplicationStatusChanged = z
  .strictObject({
    applicationId: z.number().int(),
    status: z.string().describe('Its status after the change (spec 3), e.g. Offered; an acknowledgement leaves it In Review'),
    lenderId: z.number().int(),
  })
  .meta({ id: 'ApplicationStatusChange', description: 'A lender application moved to a new status (spec 3)' });
export type ApplicationStatusChanged = z.infer<typeof ApplicationStatusChanged>;

export const OfferStatusChanged = z
  .strictObject({
    applicationId: z.number().int(),
    lenderId: z.number().int(),
    offerId: z.uuid(),
    reference: z.string(),
    status: z.string().describe('INDICATIVE or FINAL'),
    decision: z.string().nullable().describe('ACCEPTED or DECLINED once the client decided'),
  })
  .meta({ id: 'OfferStatusChange', description: "A lender's offer was made, replaced, accepted or declined" });
export type OfferStatusChanged = z.infer<typeof OfferStatusChanged>;

declare module '../../kernel/events.js' {
  interface ModuleEventTopics {
    /** A lender application's status moved (spec 3); published on every channel of lender-application-visibility.ts `eventChannelsOf`. */
    applicationStatusChanged: [channel: string, payload: ApplicationStatusChanged];
    /** An offer was made, replaced, accepted or declined; published like application events. */
    offerStatusChanged: [channel: string, payload: OfferStatusChanged];
  }
}
