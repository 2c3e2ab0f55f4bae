/**
 * The dashboard's insights, declared once: the window every aggregate is read over and the results,
 * whose TypeScript types are their z.infer and whose GraphQL types the applications subgraph derives
 * from them (src/infra/graphql/zod-graphql-types.ts).
 */
import { z } from 'zod';
import { APPLICATION_STATUSES } from '../lender-applications/application-status.js';

const BUCKETS = ['DAY', 'WEEK'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** The longest window one aggregate reads: a year of days, or of weeks. */
export const MAX_WINDOW_DAYS = 366;

export const InsightsWindow = z
  .strictObject({
    bucket: z
      .enum(BUCKETS, { message: `must be one of ${BUCKETS.join(', ')}` })
      .default('DAY')
      .describe('DAY or WEEK (ISO weeks, from Monday 00:00 UTC).'),
    since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).describe('Start of the window (inclusive).'),
    until: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional().describe('End of the window (exclusive); now unless given.'),
  })
  .meta({ description: 'The window an aggregate is read over, and (for series) the size of its periods, in UTC' });
export type InsightsWindow = z.input<typeof InsightsWindow>;

const StatusCount = z
  .strictObject({
    status: z.enum(APPLICATION_STATUSES),
    applications: z.number().int().describe('Applications that moved into the status in the period.'),
  })
  .meta({ id: 'ApplicationStatusCount', description: 'How many applications moved into one status in a period' });

const StatusPeriod = z
  .strictObject({
    start: z.iso.datetime().describe('The period starts here (UTC midnight; a Monday for weeks).'),
    counts: z.array(StatusCount).describe('Every status, in the status machine order, zero included.'),
    acknowledged: z
      .number()
      .int()
      .describe(
        'Applications first acknowledged by their lender in the period: an acknowledgement leaves the status as it is (spec 3), so it is no status of counts.',
      ),
  })
  .meta({ id: 'ApplicationStatusPeriod', description: 'One day or week of the pipeline' });

export const ApplicationsByStatus = z
  .strictObject({
    bucket: z.enum(BUCKETS).meta({ id: 'InsightsBucket' }),
    since: z.iso.datetime(),
    until: z.iso.datetime(),
    periods: z.array(StatusPeriod).describe('Every period of the window, oldest first, empty ones included.'),
  })
  .meta({
    id: 'ApplicationsByStatus',
    description:
      'The pipeline over a window: per day or week, how many of the lender applications the caller sees moved into each status (a move to the status it already had, a repeated acknowledgement or a replacing offer, is not counted)',
  });
export type ApplicationsByStatus = z.infer<typeof ApplicationsByStatus>;

const ResponseTimes = z
  .strictObject({
    answered: z.number().int().describe('Applications whose first such answer came in the window.'),
    medianSeconds: z.number().nullable().describe('Median seconds from submission to the first answer (null when none).'),
    p90Seconds: z.number().nullable().describe('90th percentile, continuous (percentile_cont), in seconds (null when none).'),
  })
  .meta({ id: 'ResponseTimes', description: 'How long a lender took to answer, from submission to its first answer of one kind' });

export const LenderResponseTimes = z
  .strictObject({
    lenderId: z.number().int(),
    lenderName: z.string(),
    acknowledgement: ResponseTimes,
    offer: ResponseTimes,
  })
  .meta({ id: 'LenderResponseTimes', description: "One lender's times to acknowledgement and to offer over a window" });
export type LenderResponseTimes = z.infer<typeof LenderResponseTimes>;

const ReviewQueueAgeBand = z
  .strictObject({
    label: z.string().describe('Waiting for: under 1 hour, 1 to 24 hours, 1 to 3 days, over 3 days.'),
    selections: z.number().int(),
  })
  .meta({ id: 'ReviewQueueAgeBand', description: 'Selections that have been waiting for a span of time' });

export const ReviewQueueStanding = z
  .strictObject({
    waiting: z.number().int().describe('Selections pending review or in review.'),
    pendingReview: z.number().int(),
    inReview: z.number().int(),
    oldestCreatedAt: z.iso.datetime().nullable().describe('When the oldest waiting selection was made (null when none waits).'),
    oldestAgeSeconds: z.number().describe('Its age, in seconds (0 when none waits).'),
    ageBands: z.array(ReviewQueueAgeBand).describe('The waiting selections by how long they have waited, shortest first.'),
  })
  .meta({ id: 'ReviewQueueStanding', description: "The funding specialists' review queue now: its size and how long its oldest selection has waited" });
export type ReviewQueueStanding = z.infer<typeof ReviewQueueStanding>;
