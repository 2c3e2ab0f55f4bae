/**
 * The results of matching, declared once: a funding search (spec 2.3) with its matches and their
 * lender (spec 2.6 lender object), an application's match list (spec 2.6), the staff review queue,
 * and the explanation of a search (`?explain=true`). Their TypeScript types, GraphQL types and the
 * REST bodies (matching.rest.ts, business-application.rest.ts) follow from these.
 */
import { z } from 'zod';
import { PRICE_BANDS, PRODUCT_TYPES } from '../lenders/product-types.js';
import { SelectedLender } from './selection-schemas.js';

/** A matched product's type: the catalogue's column is the PostgreSQL enum of these values, so clients get the enum, not text. */
const ProductType = z.enum(PRODUCT_TYPES).meta({ id: 'ProductType', description: 'Product type (spec 2.3)' });

export const MatchExplanation = z
  .strictObject({
    missing: z.array(z.string()).describe('Answers the profile lacks, without which nothing matches'),
    rejections: z.array(
      z
        .strictObject({
          lender: z.strictObject({ id: z.number().int() }).meta({ id: 'RejectionLender' }),
          product: ProductType,
          productId: z.number().int(),
          reasons: z.array(z.string()).describe('Why it did not match, e.g. "revenue £80,000 below the product\'s minimum £100,000"'),
        })
        .meta({ id: 'ProductRejection' }),
    ),
  })
  .meta({ id: 'MatchExplanation', description: 'Why the other products did not match' });
export type MatchExplanation = z.infer<typeof MatchExplanation>;

/**
 * The lender of a match. Only its id is certain to be there: the Marketplace V1 search body
 * (matching.rest.ts) carries the id alone, so the rest is optional in the declared shape even though
 * matching always fills it (`MatchedLender`).
 */
export const MatchLender = z
  .strictObject({
    id: z.number().int(),
    name: z.string().optional(),
    logo: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    average: z.enum(PRICE_BANDS).optional().describe('The price band.'),
    responseTime: z.number().int().optional().describe('Hours'),
    documents: z.array(z.string()).optional(),
  })
  .meta({ id: 'MatchLender', description: 'The lender of a match (spec 2.6 lender object)' });
/** The lender of a match as matching fills it: every field. */
export type MatchedLender = Required<z.infer<typeof MatchLender>>;

export const Match = z
  .strictObject({
    lender: MatchLender,
    product: ProductType,
    productId: z.number().int(),
    productName: z.string(),
    likelihood: z.number().describe('0..1'),
    instantOffer: z.boolean(),
    reasons: z.array(z.string()).describe('Why it matched'),
  })
  .meta({ id: 'Match', description: 'One eligible lender product' });

export const FundingSearch = z
  .strictObject({
    id: z.number().int().optional().describe('The recorded search (absent from a query for a search never recorded: queries record nothing)'),
    amount: z.number(),
    matches: z.array(Match),
    explanation: MatchExplanation.nullable().describe('With explain only'),
  })
  .meta({ id: 'FundingSearch', description: 'A funding search (spec 2.3): the profile’s matches, by likelihood then cost' });
/** A funding search as matching makes it: each match's lender complete. */
export type FundingSearchResult = Omit<z.infer<typeof FundingSearch>, 'matches'> & { matches: Array<z.infer<typeof Match> & { lender: MatchedLender }> };
/** A search as recorded: REST results and apply always record it. */
export type RecordedFundingSearch = FundingSearchResult & { id: number };

const MatchFees = z
  .strictObject({ arrangementFees: z.number(), earlyRepaymentFees: z.number(), exitFees: z.number() })
  .meta({ id: 'MatchFees', description: 'Fees of a matched product, percent' });

export const ApplicationMatch = z
  .strictObject({
    lender: MatchLender,
    product: ProductType,
    fees: MatchFees,
    likelihood: z.number().describe('0..1'),
    instantOffer: z.boolean(),
  })
  .meta({ id: 'ApplicationMatch', description: 'One match of a Business V1 application (spec 2.6 match list)' });

export const ApplicationMatchList = z
  .strictObject({ numberOfMatches: z.number().int(), matches: z.array(ApplicationMatch) })
  .meta({ id: 'ApplicationMatchList', description: "A Business V1 application's matches (spec 2.6)" });
export type ApplicationMatchList = z.infer<typeof ApplicationMatchList>;

export const REVIEW_STATES = ['PENDING_REVIEW', 'IN_REVIEW', 'SUBMITTED', 'REJECTED', 'RETURNED', 'CLOSED'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** The business a selection is for, as its profile names it: what a reviewer recognises (not the profile's uuid). */
export const ReviewCompany = z
  .strictObject({
    profileId: z.uuid().describe('Selections of one profile share it: the queue groups by it'),
    name: z.string().nullable(),
    number: z.string().nullable().describe('Company registration number'),
    type: z.string().nullable().describe('e.g. LIMITED_COMPANY'),
  })
  .meta({ id: 'ReviewCompany', description: 'The company a review selection is for' });

/** A platform user named in the review queue (the assignee, the author of a note or action). */
export const ReviewUser = z
  .strictObject({ userId: z.uuid(), name: z.string().nullable(), email: z.string() })
  .meta({ id: 'ReviewUser', description: 'A funding specialist' });
export type ReviewUser = z.infer<typeof ReviewUser>;

export const ReviewSelection = z
  .strictObject({
    id: z.uuid(),
    profileId: z.uuid(),
    fundingSearchId: z.number().int(),
    state: z.enum(REVIEW_STATES),
    selection: z.array(SelectedLender),
    createdAt: z.iso.datetime(),
    company: ReviewCompany,
    assignee: ReviewUser.nullable().describe('Who took it (assign to me); null while nobody has'),
    reason: z.string().nullable().describe('Why it was rejected or returned (the client reads it)'),
  })
  .meta({ id: 'ReviewSelection', description: "A selection in the funding specialists' review queue" });
export type ReviewSelection = z.infer<typeof ReviewSelection>;
