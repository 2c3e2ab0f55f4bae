/** Each lender's webhook delivery health over a window, as staff read it, declared once: its TypeScript type and its GraphQL type follow from it. */
import { z } from 'zod';

export const LenderDeliverySummary = z
  .strictObject({
    lenderId: z.number().int(),
    lenderName: z.string(),
    delivered: z.number().int().describe('Deliveries the lender accepted (2xx)'),
    failing: z.number().int().describe('Deliveries still being retried after a failed attempt (FAILED)'),
    dead: z.number().int().describe('Deliveries that ran out of attempts (DEAD, the dead letters)'),
    pending: z.number().int().describe('Deliveries not attempted yet (PENDING)'),
    total: z.number().int(),
    successRate: z
      .number()
      .nullable()
      .describe('delivered / (delivered + failing + dead), from 0 to 1; null when no delivery of the window has been attempted yet'),
    lastFailureAt: z.iso.datetime().nullable().describe('When the latest failing or dead delivery of the window was last changed'),
  })
  .meta({ id: 'LenderDeliverySummary', description: "One lender's webhook deliveries of a window, counted by status" });
export type LenderDeliverySummary = z.infer<typeof LenderDeliverySummary>;

/** The window: deliveries created in the last `hours` (a week unless given, at most 90 days). */
export const DeliverySummaryWindow = z.strictObject({
  hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
});
