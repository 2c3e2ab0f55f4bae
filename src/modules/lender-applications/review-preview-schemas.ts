/** What a funding specialist reviews before submitting a selection (review-preview.ts), declared once: its TypeScript type and its GraphQL type follow from it. */
import { z } from 'zod';
import { REVIEW_STATES, ReviewCompany, ReviewUser } from '../matching/funding-search-schemas.js';
import { ReviewActionRecord } from '../matching/review-action-schemas.js';

const text = z.string().nullable();

const ApplicantFacts = z
  .strictObject({
    companyName: text,
    companyNumber: text,
    companyType: text,
    sector: text,
    creditGrade: text.describe('A-G from the company registry'),
    amount: z.number().describe('Funding asked for, in pounds'),
    periodMonths: z.number().int().nullable(),
    useOfFunds: text,
    urgency: text,
  })
  .meta({ id: 'ApplicantFacts', description: "The applicant's facts a reviewer reads: the company and its funding search" });
type ApplicantFacts = z.infer<typeof ApplicantFacts>;

const MissingLenderField = z
  .strictObject({ field: z.string().describe('Dot path in the spec 2.7 document'), message: z.string() })
  .meta({ id: 'MissingLenderField', description: 'A field a lender requires that the application document would lack' });

export const ReviewedLender = z
  .strictObject({
    lenderId: z.number().int(),
    lenderName: text,
    matched: z.boolean().describe('False when the lender no longer matches (submitting would be refused)'),
    products: z.array(z.string()),
    likelihood: z.number().nullable(),
    reasons: z.array(z.string()).describe('Why it matched'),
    missingFields: z.array(MissingLenderField).describe('Empty when the lender can be sent the application'),
  })
  .meta({ id: 'ReviewedLender', description: 'A selected lender as submission would see it now' });
export type ReviewedLender = z.infer<typeof ReviewedLender>;

export const ReviewPreview = z
  .strictObject({
    selectionId: z.uuid(),
    state: z.enum(REVIEW_STATES),
    company: ReviewCompany,
    applicant: ApplicantFacts,
    lenders: z.array(ReviewedLender),
    assignee: ReviewUser.nullable(),
    reason: z.string().nullable().describe('Why it was rejected or returned (the client reads it)'),
    notes: z.array(ReviewActionRecord).describe('Staff-only notes, oldest first'),
    history: z.array(ReviewActionRecord).describe('Every action on the selection (its audit trail), oldest first'),
  })
  .meta({ id: 'ReviewPreview', description: 'A review selection with what the reviewer needs before submitting it' });
export type ReviewPreview = z.infer<typeof ReviewPreview>;
