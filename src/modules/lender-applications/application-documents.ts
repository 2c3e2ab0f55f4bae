/**
 * Building a lender application's spec 2.7 document from stored data: the profile with its
 * sections and documents, the funding search, and the lender's matches. Shared by submission and
 * resubmission, inside or outside a transaction (`db` is either).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import type { ServiceContext } from '../../kernel/context.js';
import { LENDER_API_PATH } from '../identity/lender-oauth-service.js';
import { SECTIONS_INCLUDE } from '../profiles/profile-sections.js';
import { buildFundingApplication, type DocumentProfile, type DocumentSources } from './funding-application-document.js';
import type { StoredApplicationDocument } from './funding-application-schemas.js';
import { IN_REVIEW } from './application-status.js';

type Reader = Db | Prisma.TransactionClient;
export type LenderMatch = Prisma.FundingMatchGetPayload<{ include: { product: true; lender: true } }>;

export interface ProfileForDocuments {
  profile: DocumentProfile;
  documents: NonNullable<DocumentSources['documents']>;
}

export async function loadProfileForDocuments(db: Reader, profileId: string): Promise<ProfileForDocuments> {
  const [profile, documents] = await Promise.all([
    db.profile.findUniqueOrThrow({ where: { id: profileId }, include: SECTIONS_INCLUDE }),
    db.document.findMany({ where: { profileId }, orderBy: { createdAt: 'asc' } }),
  ]);
  return { profile, documents };
}

/** The lender's matches of these product types in the funding search, first match first. */
export function lenderMatches(db: Reader, fundingSearchId: number, lenderId: number, productTypes: readonly string[]): Promise<LenderMatch[]> {
  return db.fundingMatch.findMany({
    where: { fundingSearchId, lenderId, productType: { in: productTypes as never[] } },
    include: { product: true, lender: true },
    orderBy: { id: 'asc' },
  });
}

export function applicationDocument(
  ctx: ServiceContext,
  input: ProfileForDocuments & {
    applicationId: number;
    grade: string | null;
    fundingSearch: DocumentSources['fundingSearch'];
    matches: [LenderMatch, ...LenderMatch[]];
  },
): StoredApplicationDocument {
  return buildFundingApplication({
    applicationId: input.applicationId,
    status: IN_REVIEW,
    profile: input.profile,
    creditGrade: input.grade,
    fundingSearch: input.fundingSearch,
    matches: input.matches.map((m) => ({
      id: m.id,
      productId: m.productId,
      productType: m.productType,
      status: m.status,
      instantOffer: m.product.instantOffer,
    })) as DocumentSources['matches'],
    // Only what the document shows of the lender: no secret of its row can end up in it.
    lender: { id: input.matches[0].lender.id, name: input.matches[0].lender.name, logo: input.matches[0].lender.logo, icon: input.matches[0].lender.icon },
    apiBaseUrl: `${ctx.auth.tokens.issuer}${LENDER_API_PATH}`,
    now: ctx.clock.now(),
    documents: input.documents,
  });
}
