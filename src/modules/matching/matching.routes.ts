/** The matching module's REST rows: a profile's matches, the link to its funding-search page, and applying to preferred lenders (Marketplace V1). */
import * as applying from './apply-service.js';
import * as matching from './matching-service.js';
import { FundingSearchBody, toFundingSearchBody } from './matching.rest.js';
import { z } from 'zod';
import { SelectedLenders } from './review-selection.js';
import { MatchQuery } from './matching-service.js';
import { BASES, header, Redirect, routeCheckedInOperation, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { profileUrl, ProfileUrl, UrlSchemaQuery } from './funding-search-links.js';

export const matchingRoutes: RouteDefinition[] = [
  routeCheckedInOperation({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/matches/count`,
    operationId: 'FundingController_countMatches',
    summary: 'How many lender products match the profile (?productTypes= filters)',
    query: MatchQuery,
    response: z.number().int(),
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => matching.countMatches(ctx, req.params.uuid, req.query),
  }),
  routeCheckedInOperation({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/matches/results`,
    operationId: 'FundingController_matchResults',
    summary: 'The FundingSearch: matches by likelihood then cost (?productTypes=, ?explain=true for the reasons)',
    query: MatchQuery,
    response: FundingSearchBody,
    successStatus: 200,
    surface: 'marketplaceV1',
    records: { what: 'funding search', description: 'A search with new inputs is recorded (its id is what an apply refers to) and becomes the profile\'s latest; repeating the latest search writes nothing.' },
    handle: async (ctx, req) => toFundingSearchBody(await matching.matchResults(ctx, req.params.uuid, req.query)),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/apply`,
    operationId: 'FundingController_apply',
    summary: "1-4 preferred lenders among the profile's matches → the review queue (optional Idempotency-Key)",
    body: SelectedLenders,
    headers: [{ name: 'Idempotency-Key', description: 'Replays the first answer to this key; the key with another selection is a 409', schema: applying.IdempotencyKey }],
    response: FundingSearchBody,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => toFundingSearchBody(await applying.applyToLenders(ctx, req.params.uuid, req.body, header(req, 'idempotency-key'))),
  }),
  routeCheckedInOperation({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/url-schemas/:type`,
    operationId: 'ProfileController_urlSchema',
    summary: 'A signed, expiring link to the profile funding-search page: { url }, or a 302 to it with redirect=true',
    query: UrlSchemaQuery,
    response: ProfileUrl,
    redirects: true,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => {
      const link = await profileUrl(ctx, req.params.uuid, req.query);
      return link.redirect ? new Redirect(link.url) : { url: link.url };
    },
  }),
];
