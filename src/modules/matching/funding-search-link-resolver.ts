/** Thin adapter: the signed link to a profile's funding-search page (GraphQL's url-schemas/funding-search). */
import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import type { ServiceContext } from '../../kernel/context.js';
import { checkLater } from '../../kernel/validation.js';
import { profileUrl, ProfileUrl as ProfileUrlSchema, UrlSchemaQuery } from './funding-search-links.js';

const ProfileUrl = objectTypeFrom(ProfileUrlSchema);

@Resolver()
export class FundingSearchLinkResolver {
  @Query(() => ProfileUrl, { description: 'A signed link to the profile funding-search page (url-schemas/funding-search)' })
  async profileFundingSearchUrl(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<ProfileUrlSchema> {
    return { url: (await profileUrl(ctx, uuid, checkLater(UrlSchemaQuery, { type: 'funding-search' }, 'Request'))).url };
  }
}
