/** The matching module's REST rows: a profile's matches, the link to its funding-search page, and applying to preferred lenders (Marketplace V1). */
import * as applying from './apply-service.js';
import * as matching from './matching-service.js';
import { FundingSearchBody, toFundingSearchBody } from './matching.rest.js';
import { z } from 'zod';
import { SelectedLenders } from './review-selection.js';
import { MatchQuery } from './matching-service.js';
import { BASES, header, Redirect, routeCheckedInOperation, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { profileUrl, ProfileUrl, UrlSchemaQuery } from './funding-search-links.js';
import { IDEMPOTENT_DESCRIPTION, idempotencyKeyHeader } from '../../infra/idempotent-answers.js';

export const matchingRoutes: RouteDefinition[] = [
  routeCheckedInOperation({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/matches/count`,
    operationId: 'FundingController_countMatches',
    summary: 'Count matches',
    description: 'How many lender products match the profile as it is now; `productTypes` (repeatable) counts only those product types. Records nothing.',
    access: 'funding.read',
    example: { summary: 'Term loans and invoice finance only', query: { productTypes: ['TERM_LOAN', 'INVOICE_FINANCE'] } },
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
    summary: 'Get matches',
    description:
      'The FundingSearch: the lender products that match the profile, by likelihood of acceptance, then cost. `productTypes` narrows it to those products; `explain=true` adds why each product matched or not. Its `id` is what applying refers to.',
    access: 'funding.read',
    example: { summary: 'Every product type, with the reasons', query: { explain: 'true' } },
    query: MatchQuery,
    response: FundingSearchBody,
    successStatus: 200,
    surface: 'marketplaceV1',
    records: {
      what: 'funding search',
      description:
        "A search with new inputs is recorded (its id is what an apply refers to) and becomes the profile's latest; repeating the latest search writes nothing.",
    },
    handle: async (ctx, req) => toFundingSearchBody(await matching.matchResults(ctx, req.params.uuid, req.query)),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/apply`,
    operationId: 'FundingController_apply',
    summary: 'Apply to preferred lenders',
    description:
      "Sends 1 to 4 preferred lenders (each with the matched products wanted) from the profile's latest matches to a funding specialist for review; nothing is sent to lenders yet and no credit check is made. More than 4, or a lender or product that does not match, is a 400. " +
      IDEMPOTENT_DESCRIPTION,
    access: 'funding.apply',
    example: {
      summary: 'Two preferred lenders from the matches (Fleetway Capital and Ledgerline Invoice Finance in the demo catalogue)',
      headers: { 'Idempotency-Key': 'acme-widgets-apply-2026-11-27' },
      body: [
        { lenderId: 2, products: ['TERM_LOAN'] },
        { lenderId: 4, products: ['INVOICE_FINANCE'] },
      ],
    },
    body: SelectedLenders,
    headers: idempotencyKeyHeader('account'),
    response: FundingSearchBody,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => toFundingSearchBody(await applying.applyToLenders(ctx, req.params.uuid, req.body, header(req, 'idempotency-key'))),
  }),
  routeCheckedInOperation({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/url-schemas/:type`,
    operationId: 'ProfileController_urlSchema',
    summary: "Get a link to the profile's funding search page",
    description:
      'A signed, expiring link to the page where the business sees its matches and applies (`type`: `funding-search`), as `{ url }`; with `redirect=true`, a 302 to it instead. Another type is a 400.',
    access: 'profiles.read',
    example: { params: { type: 'funding-search' }, query: { redirect: 'false' } },
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
