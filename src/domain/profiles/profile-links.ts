/**
 * Profile URL schemas (spec 4.1 rule 6): `GET /profiles/{uuid}/url-schemas/funding-search` hands out
 * a signed link to the page we serve showing the profile's funding search. The link names the
 * profile and expires after FUNDING_SEARCH_LINK_TTL_SECONDS, so it can be neither guessed nor
 * reused forever; anyone holding it within that time may open the page (it is meant to be shared
 * with the business owner), and nothing else.
 */
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';
import { requireAccess } from '../identity/access-policy.js';
import { loadProfile, type ProfileRecord } from './profile-records.js';
import { findVisibleProfileId } from './profile-visibility.js';

export const FUNDING_SEARCH_LINK_TTL_SECONDS = 3600;
export const URL_SCHEMA_TYPES = ['funding-search'] as const;

export const UrlSchemaQuery = z.object({
  type: z.enum(URL_SCHEMA_TYPES, { message: `must be one of ${URL_SCHEMA_TYPES.join(', ')}` }),
  redirect: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
});

export interface ProfileUrl {
  url: string;
  /** Whether the caller asked to be redirected there (redirect=true). */
  redirect: boolean;
}

export function fundingSearchPagePath(profileId: string): string {
  return `/app/funding-search/${profileId}`;
}

const linkSubject = (profileId: string) => `profile:${profileId}`;

/** GET /profiles/{uuid}/url-schemas/{type} (GraphQL profileFundingSearchUrl). */
export async function profileUrl(ctx: ServiceContext, uuid: unknown, query: unknown): Promise<ProfileUrl> {
  const actor = requireAccess(ctx, 'profiles.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const input = parseInput(UrlSchemaQuery, query ?? {}, 'Request');
  const token = await ctx.auth.tokens.signLink(linkSubject(profileId), FUNDING_SEARCH_LINK_TTL_SECONDS);
  const url = `${ctx.auth.tokens.issuer}${fundingSearchPagePath(profileId)}?token=${encodeURIComponent(token)}`;
  return { url, redirect: input.redirect === 'true' };
}

const PageInput = z.object({ uuid: z.uuid({ message: 'must be a uuid' }), token: z.string({ message: 'is required' }).min(1) });

/** What the funding-search page shows, once its link is verified. */
export interface FundingSearchPage {
  profile: ProfileRecord;
  expiresInSeconds: number;
}

export async function openFundingSearchPage(ctx: ServiceContext, uuid: unknown, token: unknown): Promise<FundingSearchPage> {
  const input = parseInput(PageInput, { uuid, token }, 'Link');
  await ctx.auth.tokens.verifyLink(input.token, linkSubject(input.uuid));
  // The verified link is the credential here: it was issued to a caller who could see the profile.
  const found = await ctx.db.profile.findFirst({ where: { id: input.uuid, environment: ctx.environment }, select: { id: true } });
  if (!found) throw AppError.notFound('Profile');
  return {
    profile: await loadProfile(ctx.db, found.id),
    expiresInSeconds: FUNDING_SEARCH_LINK_TTL_SECONDS,
  };
}
