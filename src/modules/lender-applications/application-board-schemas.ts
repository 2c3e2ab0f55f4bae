/**
 * The operations board's filter and results, declared once: the domain's TypeScript types are
 * their z.infer, the applications subgraph derives its GraphQL types from them
 * (src/infra/graphql/zod-graphql-types.ts), and the dashboard's types are generated from the
 * supergraph those types compose into (web/dashboard/generated/graphql.ts).
 */
import { z } from 'zod';
import { OfferDecision, OfferStatus } from '../../generated/prisma/enums.js';
import { pageSchemaOf } from '../../kernel/keyset-pages.js';
import { APPLICATION_STATUSES } from './application-status.js';

export const BoardFilter = z
  .strictObject({
    status: z.enum(APPLICATION_STATUSES, { message: `must be one of ${APPLICATION_STATUSES.join(', ')}` }).optional(),
    lenderId: z.number().int().positive().optional(),
    applicationId: z.number().int().positive().optional(),
    updatedSince: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional().describe('Only rows changed at or after it.'),
    search: z
      .string()
      .trim()
      .max(100, 'must be at most 100 characters')
      .optional()
      .describe(
        "Rows whose company name starts with it (any case), whose company registration number or lender's reference is it, or whose application id it is.",
      ),
  })
  .meta({ description: 'Board filters; updatedSince catches up after a lost event stream' });
export type BoardFilter = z.input<typeof BoardFilter>;

/** The orders the board offers; each is served by an index per scope (migration 20261126180100_board_search_and_sort). */
export const BOARD_SORT_FIELDS = ['LAST_CHANGE', 'CREATED', 'AMOUNT', 'COMPANY', 'STATUS'] as const;
export const BoardOrder = z
  .strictObject({
    field: z.enum(BOARD_SORT_FIELDS, { message: `must be one of ${BOARD_SORT_FIELDS.join(', ')}` }).default('LAST_CHANGE'),
    direction: z.enum(['ASC', 'DESC'], { message: 'must be ASC or DESC' }).default('DESC'),
  })
  .meta({ description: 'The order of the board: a column and a direction; ties go by application id in the same direction' });
export type BoardOrder = z.input<typeof BoardOrder>;

export const BoardStatusCount = z
  .strictObject({ status: z.string(), count: z.number().int() })
  .meta({ id: 'BoardStatusCount', description: 'How many rows of the current filter (leaving out its status) have this status' });
export type BoardStatusCount = z.infer<typeof BoardStatusCount>;

export const BoardOffer = z
  .strictObject({
    // String, not ID: the field was published as String before the types were derived.
    id: z.string().meta({ graphqlType: 'String' }),
    reference: z.string(),
    status: z.enum(OfferStatus),
    decision: z.enum(OfferDecision).nullable().describe('Set once the client decided.'),
    productType: z.string(),
    amount: z.number().nullable().describe('Maximum amount or credit line, in pounds.'),
    termMonths: z.number().int().nullable(),
    interestRate: z.number().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BoardOffer', description: "A lender application's current (or a replaced) offer: its status and key terms" });
export type BoardOffer = z.infer<typeof BoardOffer>;

export const BoardRow = z
  .strictObject({
    id: z.number().int(),
    companyName: z.string().nullable(),
    lenderId: z.number().int(),
    lenderName: z.string(),
    productType: z.string().nullable(),
    amount: z.number().nullable().describe('The funding amount asked for, in pounds.'),
    status: z.string(),
    acknowledgedAt: z.iso.datetime().nullable().describe('When the lender first acknowledged it: an acknowledgement leaves the status as it is (spec 3).'),
    offer: BoardOffer.nullable(),
    companyNumber: z.string().nullable().describe('The company registration number as sent to the lender.'),
    reference: z.string().nullable().describe("The lender's reference for the application, once it gave one."),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().describe('Last change (status, offer or decision).'),
    statusChangedAt: z.iso.datetime().describe('When the application moved to its current status: the time in status counts from it.'),
  })
  .meta({ id: 'LenderApplicationRow', description: 'One row of the operations board: a lender application as it stands' });
export type BoardRow = z.infer<typeof BoardRow>;

export const BoardPage = pageSchemaOf(
  BoardRow,
  'LenderApplicationBoardPage',
  'A page of the operations board in the order asked (last changed first unless given)',
);
export type BoardPage = z.infer<typeof BoardPage>;

export const HistoryEntry = z
  .strictObject({
    at: z.iso.datetime(),
    kind: z
      .enum(['STATUS', 'OFFER', 'DECISION'])
      .describe('STATUS (a move), OFFER (made; replacedAt once replaced) or DECISION (the client accepted or declined).'),
    status: z.string().nullable(),
    fromStatus: z.string().nullable(),
    reason: z.string().nullable(),
    comment: z.string().nullable(),
    offer: BoardOffer.nullable(),
    replacedAt: z.iso.datetime().nullable(),
    sequence: z
      .number()
      .int()
      .describe('Position in causal order, from 1: a status move comes before the offer or decision that caused it; ties at one instant keep their order.'),
  })
  .meta({ id: 'ApplicationHistoryEntry', description: "An entry of a lender application's history" });
export type HistoryEntry = z.infer<typeof HistoryEntry>;
