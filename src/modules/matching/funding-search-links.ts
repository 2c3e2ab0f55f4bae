/**
 * Profile URL schemas (spec 4.1 rule 6): `GET /profiles/{uuid}/url-schemas/funding-search` hands out
 * a signed link to the page we serve showing the profile's funding search. The link names the
 * profile and expires after FUNDING_SEARCH_LINK_TTL_SECONDS (sooner if the API key behind the
 * token that made it is revoked or expires), so it can be neither guessed nor reused forever; anyone holding it within that time may open the page (it is meant to be shared
 * with the business owner), and nothing else.
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput, type CheckedLater } from '../../kernel/validation.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { findRecordedSearch, matchProfileById, toFundingSearchResult, type FundingSearchResult } from './funding-search.js';
import { loadProfile, type ProfileRecord } from '../profiles/profile-records.js';
import { findVisibleProfileId, linkedProfile } from '../profiles/profile-visibility.js';
import { assertLinkKeyStands } from '../identity/link-standing.js';

const FUNDING_SEARCH_LINK_TTL_SECONDS = 3600;
export const URL_SCHEMA_TYPES = ['funding-search'] as const;

export const UrlSchemaQuery = z.object({
  type: z.enum(URL_SCHEMA_TYPES, { message: `must be one of ${URL_SCHEMA_TYPES.join(', ')}` }),
  redirect: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
});

/** A signed, expiring link to the profile funding-search page: REST's `{ url }` and GraphQL's ProfileUrl. */
export const ProfileUrl = z
  .strictObject({ url: z.url() })
  .meta({ id: 'ProfileUrl', description: 'A signed, expiring link to the profile funding-search page' });
export type ProfileUrl = z.infer<typeof ProfileUrl>;

export interface FundingSearchLink extends ProfileUrl {
  /** Whether the caller asked to be redirected there (redirect=true). */
  redirect: boolean;
}

function fundingSearchPagePath(profileId: string): string {
  return `/app/funding-search/${profileId}`;
}

const linkSubject = (profileId: string) => `profile:${profileId}`;

/** GET /profiles/{uuid}/url-schemas/{type} (GraphQL profileFundingSearchUrl). */
export async function profileUrl(ctx: ServiceContext, uuid: unknown, query: CheckedLater<z.output<typeof UrlSchemaQuery>>): Promise<FundingSearchLink> {
  const actor = requireAccess(ctx, 'profiles.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const input = query();
  // The link names the key behind the caller's token: it ends when that key is revoked or expires.
  const token = await ctx.auth.tokens.signLink(linkSubject(profileId), FUNDING_SEARCH_LINK_TTL_SECONDS, { key: actor.apiKeyId });
  const url = `${ctx.auth.tokens.issuer}${fundingSearchPagePath(profileId)}?token=${encodeURIComponent(token)}`;
  return { url, redirect: input.redirect === 'true' };
}

const PageInput = z.object({ uuid: z.uuid({ message: 'must be a uuid' }), token: z.string({ message: 'is required' }).min(1) });

export interface ProductFees {
  arrangementFees: number;
  earlyRepaymentFees: number;
  exitFees: number;
}

/** What the funding-search page shows, once its link is verified. */
export interface FundingSearchPage {
  profile: ProfileRecord;
  expiresInSeconds: number;
  /** The profile's current funding search: the matches GET .../funding/matches/results lists, with the explanation. */
  search: FundingSearchResult;
  /** Fees (percent) of each matched product, by product id. */
  feesByProductId: Record<number, ProductFees>;
  /** Lender names of the products that did not match, by lender id. */
  lenderNames: Record<number, string>;
  /** The applications sent to lenders for this profile, newest first. */
  applications: Array<{ id: number; lender: string; product: string | null; status: string; updatedAt: string }>;
}

/** @access signed-link: the verified page link is the credential (issued to a caller who saw the profile) */
export async function openFundingSearchPage(ctx: ServiceContext, uuid: unknown, token: unknown): Promise<FundingSearchPage> {
  const input = parseInput(PageInput, { uuid, token }, 'Link');
  await assertLinkKeyStands(ctx, await ctx.auth.tokens.verifyLink(input.token, linkSubject(input.uuid)));
  // The verified link is the credential here: it was issued to a caller who could see the profile.
  const found = await ctx.db.profile.findFirst({ where: linkedProfile(ctx, input.uuid), select: { id: true } });
  if (!found) throw AppError.notFound('Profile');
  // A page view is a read: the search is matched afresh and recorded by nothing (its id shows once the API recorded it).
  const [profile, matching, applications] = await Promise.all([
    loadProfile(ctx.db, found.id),
    matchProfileById(ctx, found.id, { reasons: true, explain: true }),
    ctx.db.lenderApplication.findMany({
      where: { profileId: found.id },
      orderBy: { createdAt: 'desc' },
      select: { id: true, status: true, updatedAt: true, lender: { select: { name: true } }, fundingMatch: { select: { productType: true } } },
    }),
  ]);
  const recorded = await findRecordedSearch(ctx, matching);
  const search = { ...toFundingSearchResult(matching, true), ...(recorded ? { id: recorded.id } : {}) };
  const feesByProductId = Object.fromEntries(
    search.matches.map((m) => {
      const product = matching.catalogue.productById.get(m.productId)!;
      return [m.productId, { arrangementFees: product.arrangementFeePct, earlyRepaymentFees: product.earlyRepaymentFeePct, exitFees: product.exitFeePct }];
    }),
  );
  const lenderNames = Object.fromEntries([...matching.catalogue.lenders].map(([id, lender]) => [id, lender.name]));
  return {
    profile,
    expiresInSeconds: FUNDING_SEARCH_LINK_TTL_SECONDS,
    search,
    feesByProductId,
    lenderNames,
    applications: applications.map((a) => ({
      id: a.id,
      lender: a.lender.name,
      product: a.fundingMatch?.productType ?? null,
      status: a.status,
      updatedAt: a.updatedAt.toISOString(),
    })),
  };
}
