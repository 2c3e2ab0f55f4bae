/**
 * A non-funding case's result (spec 2.3 Case), declared once (zod): the service type, the GraphQL
 * Case and, with its absent values left out, the REST body (case.routes.ts).
 */
import { z } from 'zod';
import { Currency } from '../companies/company-information-schemas.js';

export const CaseDetails = z
  .strictObject({
    title: z.string(),
    description: z.string(),
    amount: Currency.nullable().describe('When the case has one (e.g. the claim)'),
  })
  .meta({ id: 'CaseDetails' });

const CaseOwner = z.strictObject({ id: z.number().int(), name: z.string(), email: z.string(), team: z.number().int() }).meta({ id: 'CaseOwner' });
const CaseManager = z.strictObject({ id: z.number().int() }).meta({ id: 'CaseManager' });
const CaseActivity = z.strictObject({ id: z.uuid(), title: z.string(), createdAt: z.iso.datetime() }).meta({ id: 'CaseActivity' });
const CaseIntegration = z.strictObject({ name: z.string(), generatedAt: z.iso.datetime() }).meta({ id: 'CaseIntegration' });
const CaseStateChange = z
  .strictObject({ fromState: z.string().nullable(), toState: z.string(), note: z.string().nullable(), createdAt: z.iso.datetime() })
  .meta({ id: 'CaseStateChange' });

export const Case = z
  .strictObject({
    id: z.uuid(),
    profile: z.uuid().describe('The profile uuid.'),
    businessId: z.number().int(),
    caseState: z.string(),
    caseStateName: z.string(),
    state: z.string(),
    stateName: z.string(),
    stateType: z.string(),
    type: z.string(),
    product: z.string(),
    productName: z.string(),
    private: z.boolean(),
    offersAwaitingReview: z.boolean(),
    followers: z.array(z.string()),
    products: z.array(z.string()),
    productNames: z.array(z.string()),
    stateUpdatedAt: z.iso.datetime(),
    details: CaseDetails,
    owner: CaseOwner.nullable().describe('The funding specialist, once one takes the case'),
    manager: CaseManager.nullable(),
    latestActivity: CaseActivity.nullable(),
    integration: CaseIntegration,
    history: z.array(CaseStateChange).describe('Every state the case has been in, oldest first'),
  })
  .meta({ id: 'Case', description: 'A non-funding case: debt recovery, grants, R&D tax claim or credit improvement' });
export type Case = z.infer<typeof Case>;
