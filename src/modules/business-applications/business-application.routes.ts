/** The business applications module's REST rows (Business V1 /applications). */
import * as applications from './business-application-service.js';
import { z } from 'zod';
import { APPLICATION_VARIANT_FIELDS, applicationBodySchema } from './application-variants.js';
import { ContinueBody, ContinueUrlQuery } from './business-application-service.js';
import { ContinueUrl, ContinueUrlCheck } from './business-application-schemas.js';
import { ApplicationMatchListBody, ApplicationResponse, toMatchListBody, toResponse } from './business-application.rest.js';
import { PreselectedOffer } from '../offers/preselected-offer-schemas.js';
import { CURRENCY_SCHEMA, type JsonSchema } from '../questionnaires/answer-schema.js';
import { OPTIONAL_KEYS, withOptionalKeys, withoutNullKeys } from '../../kernel/rest/rest-bodies.js';
import { BASES, route, routeCheckedInOperation, type RouteDefinition } from '../../kernel/rest/route-definition.js';

/** POST /applications: one of the answer variants, selected by `type` (application-variants.ts validates it). */
function businessApplicationBodySchema(): JsonSchema {
  return {
    // `type` may be left out (business-all-funding-products), so a body can fit several variants: anyOf.
    anyOf: Object.keys(APPLICATION_VARIANT_FIELDS).map((type) => {
      const { $schema: _s, $id: _i, $defs: _d, ...variant } = applicationBodySchema(type) as { properties: Record<string, unknown> } & JsonSchema;
      return { ...variant, title: type, properties: { type: { const: type }, ...variant.properties }, minProperties: 1 };
    }),
    $defs: { Currency: CURRENCY_SCHEMA },
  };
}

export const businessApplicationRoutes: RouteDefinition[] = [
  {
    method: 'post',
    path: `${BASES.businessV1}/applications`,
    operationId: 'ApplicationController_create',
    summary: "Create an application (body: the answer variant named by type); it fills the tenant's profile",
    jsonSchemaBody: businessApplicationBodySchema,
    response: ApplicationResponse,
    successStatus: 201,
    surface: 'businessV1',
    handle: async (ctx, req) => toResponse(await applications.createApplication(ctx, req.body)),
  },
  route({
    method: 'get',
    path: `${BASES.businessV1}/applications/validate-continue-url`,
    operationId: 'ApplicationSignUpController_validateContinueUrl',
    summary: 'Whether a continue URL is ours, for this application, and unexpired',
    query: ContinueUrlQuery,
    response: ContinueUrlCheck,
    successStatus: 200,
    surface: 'businessV1',
    handle: (ctx, req) => applications.validateContinueUrl(ctx, req.query),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.businessV1}/applications/:applicationId/continue-url`,
    operationId: 'ApplicationSignUpController_generateContinueUrl',
    summary: 'A signed, expiring URL where the client continues the application ({clickId?} kept for attribution)',
    body: ContinueBody,
    response: ContinueUrl,
    successStatus: 201,
    surface: 'businessV1',
    handle: (ctx, req) => applications.generateContinueUrl(ctx, req.params.applicationId, req.body),
  }),
  {
    method: 'get',
    path: `${BASES.businessV1}/applications/:applicationId/matches`,
    operationId: 'ApplicationController_getMatches',
    summary: "The application's lender matches (spec 2.6 match list)",
    response: ApplicationMatchListBody,
    successStatus: 200,
    surface: 'businessV1',
    handle: async (ctx, req) => toMatchListBody(await applications.getApplicationMatches(ctx, req.params.applicationId)),
  },
  {
    method: 'get',
    path: `${BASES.businessV1}/applications/:applicationId/pre-selected`,
    operationId: 'ApplicationController_getPreselectedOffers',
    summary: 'Indicative instant offers of the matched products that can offer instantly',
    response: z.array(withOptionalKeys(PreselectedOffer, OPTIONAL_KEYS.preselectedOffers)),
    successStatus: 200,
    surface: 'businessV1',
    handle: async (ctx, req) => withoutNullKeys(await applications.getPreselectedOffers(ctx, req.params.applicationId), OPTIONAL_KEYS.preselectedOffers),
  },
];
