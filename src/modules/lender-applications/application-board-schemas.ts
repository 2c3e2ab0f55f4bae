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
  })
  .meta({ description: 'Board filters; updatedSince catches up after a lost event stream' });
export type BoardFilter = z.input<typeof BoardFilter>;

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
    offer: BoardOffer.nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().describe('Last change (status, offer or decision).'),
  })
  .meta({ id: 'LenderApplicationRow', description: 'One row of the operations board: a lender application as it stands' });
export type BoardRow = z.infer<typeof BoardRow>;

export const BoardPage = pageSchemaOf(BoardRow, 'LenderApplicationBoardPage', 'A page of the operations board, last changed first');
export type BoardPage = z.infer<typeof BoardPage>;

export const HistoryEntry = z
  .strictObject({
    at: z.iso.datetime(),
    kind: z.enum(['STATUS', 'OFFER', 'DECISION']).describe('STATUS (a move), OFFER (made; replacedAt once replaced) or DECISION (the client accepted or declined).'),
    status: z.string().nullable(),
    fromStatus: z.string().nullable(),
    reason: z.string().nullable(),
    comment: z.string().nullable(),
    offer: BoardOffer.nullable(),
    replacedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApplicationHistoryEntry', description: "An entry of a lender application's history" });
export type HistoryEntry = z.infer<typeof HistoryEntry>;
