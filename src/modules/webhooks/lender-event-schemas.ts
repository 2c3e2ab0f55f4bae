/**
 * The lender API's events, declared once: every created and updated event of a lender's
 * applications, the body each webhook carries, in order, from a cursor (GET /events).
 */
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageInfo } from '../../kernel/keyset-pages.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-headers.js';

export const LenderEvent = z
  .strictObject({
    id: z.uuid().describe('The `webhook-id` of the delivery that carries the event'),
    type: z.enum([WEBHOOK_EVENT_TYPES.APPLICATION_CREATED, WEBHOOK_EVENT_TYPES.APPLICATION_UPDATED]).describe('The `webhook-event-type`'),
    applicationId: z.number().int(),
    sequence: z.number().int().describe("The `webhook-sequence`: the event's number among its application's"),
    createdAt: z.iso.datetime(),
    data: z
      .record(z.string(), z.unknown())
      .describe("The funding application document (spec 2.7) exactly as the webhook carries it, with the application's `apiProvider.authorizationToken`"),
  })
  .meta({ id: 'LenderEvent', description: 'An event of one of your applications: what its webhook delivers' });
export type LenderEvent = z.infer<typeof LenderEvent>;

export const LenderEventPage = z
  .strictObject({ nodes: z.array(LenderEvent), pageInfo: PageInfo })
  .meta({ id: 'LenderEventPage', description: 'Your events after a cursor, oldest first; keep the last `endCursor` you received and pass it as `after`' });
export type LenderEventPage = z.infer<typeof LenderEventPage>;

export const LenderEventQuery = z.strictObject({
  after: z
    .string()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('The last `pageInfo.endCursor` you received; from your first event when absent'),
  first: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Events in the page: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}`),
});
export type LenderEventQuery = z.output<typeof LenderEventQuery>;
