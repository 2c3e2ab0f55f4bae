/**
 * Lender applications in a given state for access tests. `storedLenderApplication` writes the row
 * submission would write (status In Review, a document as payload), as src/modules/lender-applications/lender-api.test.ts does;
 * every move after that goes through the real lender API (offer, failure, rejection).
 */
import { randomUUID } from 'node:crypto';
import { bearer } from './identities.js';
import { postJson, type TestApp } from './test-app.js';
import type { StoredApplicationDocument } from '../../src/modules/lender-applications/funding-application-schemas.js';

export const LENDER_API = '/api/platform/v1/funding';

/** A valid term loan offer (offer-schemas.ts), with a fresh reference unless given. */
export const termLoanOffer = (reference = `OFFER-${randomUUID().slice(0, 8)}`) => ({
  reference,
  status: 'INDICATIVE',
  termLoan: {
    maximumAmount: { code: 'GBP', value: 150000 },
    term: 36,
    interestRate: 0.85,
    totalRepayment: 171234.56,
    likelihoodOfRate: 0.7,
    likelihoodOfAcceptance: 0.6,
  },
});

/**
 * The document part of a stored lender application as submission stores it (spec 2.7), complete
 * as the schema declares it (the compiler checks it against the declaration): the lender API answers
 * it back, and the contract check validates every answer against the document's schema. The status
 * fields (id, status, offer, …) come from the row.
 */
export function storedApplicationDocument(input: { lenderId: number; companyName?: string; amount?: string }): { application: StoredSections } {
  return {
    application: {
      fundingSearch: {
        id: 1,
        status: 1,
        amount: input.amount ?? '150000.00',
        period: 24,
        statusLabel: 'In Review',
        author: null,
        manager: null,
        useOfFunds: null,
        urgency: null,
      },
      fundingMatch: {
        id: 1,
        offerId: null,
        products: [1],
        productNames: ['TERM_LOAN'],
        statusReason: null,
        statusComment: null,
        canUseInstantOffer: false,
        canUseInstantApplication: false,
        lender: { id: input.lenderId, entityId: input.lenderId, companyName: 'Test Lender', logo: null, icon: null },
        status: 1,
      },
      profile: {
        basicCompanyDetails: {
          contactName: null,
          contactEmail: null,
          contactPhone: null,
          companyName: input.companyName ?? 'ACCESS TEST LTD',
          companyTradingName: null,
          companyNumber: null,
          companyType: null,
          vatRegistered: 0,
          address: null,
          city: null,
          postalCode: null,
          tradingFrom: null,
          tradingPeriod: null,
          creditScore: null,
          numberOfEmployees: null,
          percentageOfSalesOnline: null,
          companyWebsite: null,
          sectorName: null,
        },
        directorOrSecretaryDetails: [],
        tradeHistory: [],
        guarantorAssetsForSecurity: { hasUkHomeownerDirector: false, estimatedSecurity: 0, guarantorAssets: [] },
        assetsToFinance: [],
        attachments: [],
      },
    },
  };
}

type StoredSections = Required<Pick<StoredApplicationDocument['application'], 'fundingSearch' | 'fundingMatch' | 'profile'>>;

export async function storedLenderApplication(app: TestApp, input: { lenderId: number; profileId: string }): Promise<number> {
  const row = await app.runtime.database.prisma.lenderApplication.create({
    data: {
      lenderId: input.lenderId,
      profileId: input.profileId,
      status: 'In Review',
      payload: storedApplicationDocument({ lenderId: input.lenderId }),
    },
  });
  return row.id;
}

async function lenderPost(app: TestApp, lenderToken: string, path: string, body: unknown): Promise<unknown> {
  const res = await postJson(`${app.url}${LENDER_API}${path}`, body, bearer(lenderToken));
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

export const lenderOffers = (app: TestApp, lenderToken: string, applicationId: number, reference?: string) =>
  lenderPost(app, lenderToken, `/applications/${applicationId}/offer`, termLoanOffer(reference));

export const lenderFails = (app: TestApp, lenderToken: string, applicationId: number) =>
  lenderPost(app, lenderToken, `/applications/${applicationId}/rejection`, { reason: 'Failed', comment: 'the company number is missing' });

export const lenderAcknowledges = (app: TestApp, lenderToken: string, applicationId: number, comment = 'Looking at it') =>
  lenderPost(app, lenderToken, `/applications/${applicationId}/acknowledgement`, { comment });

interface RequiredFieldRule {
  field: string;
  when?: Array<Record<string, unknown>>;
}

/**
 * The matches a submission can go to with the fixtures' profiles (ACME's answers, no trading
 * history or directors): lenders whose required fields, for that product, ask for nothing more.
 */
export async function submittableMatches(
  app: TestApp,
  matches: Array<{ lender: { id: number }; product: string }>,
): Promise<Array<{ lenderId: number; products: string[] }>> {
  const lenders = await app.runtime.database.prisma.lender.findMany({ where: { id: { in: matches.map((m) => m.lender.id) } } });
  const rulesOf = new Map(lenders.map((l) => [l.id, (l.requiredFields ?? []) as unknown as RequiredFieldRule[]]));
  return matches
    .filter((m) => {
      const applicable = (rulesOf.get(m.lender.id) ?? []).filter((r) => !r.when || r.when.every((c) => !('contains' in c) || c.contains === m.product));
      return !applicable.some((r) => /tradeHistory|directorOrSecretaryDetails/.test(r.field) || r.when?.some((c) => 'contains' in c));
    })
    .map((m) => ({ lenderId: m.lender.id, products: [m.product] }));
}
