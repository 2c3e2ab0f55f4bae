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
import { BASES, header, route, routeCheckedInOperation, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { IDEMPOTENCY_KEY_TTL_HOURS, IDEMPOTENT_DESCRIPTION, idempotencyKeyHeader } from '../../infra/idempotent-answers.js';
import { ACME_APPLICATION, EXAMPLE_CONTINUE_BODY } from './business-application.examples.js';

const TENANT_CREDENTIALS = 'Send a tenant token, or a platform token with `Service-tenant-id` naming the tenant.';

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
    summary: 'Create an application',
    description: `A funding application of the tenant's business: one of eleven variants selected by \`type\` (a questionnaire id; \`business-all-funding-products\` unless given), each with its own fields, every field optional but at least one. A field outside the variant is a 400 naming it; nothing is stored. The fields the questionnaire asks fill the tenant's profile like answers (the profile is created if the tenant has none); the company facts come from the profile. Then read its matches and pre-selected offers, and submit it to a lender or send the client its continue URL. ${TENANT_CREDENTIALS}\n\nCompatibility: the answer's \`type\` is \`introducer-all-funding-products\`, as spec 2.6 shows, whatever was sent. With \`Idempotency-Key\`, a retry of the same request (after a timeout) answers the application the first one made, storing nothing (for ${IDEMPOTENCY_KEY_TTL_HOURS} hours); the key with another request is a 422.`,
    access: 'businessApplications.create',
    example: { summary: 'ACME WIDGETS LIMITED asks for £150,000 over 24 months', body: ACME_APPLICATION },
    jsonSchemaBody: businessApplicationBodySchema,
    response: ApplicationResponse,
    successStatus: 201,
    surface: 'businessV1',
    headers: idempotencyKeyHeader('account'),
    handle: async (ctx, req) => toResponse(await applications.createApplication(ctx, req.body, header(req, 'idempotency-key'))),
  },
  route({
    method: 'get',
    path: `${BASES.businessV1}/applications/validate-continue-url`,
    operationId: 'ApplicationSignUpController_validateContinueUrl',
    summary: 'Check a continue URL',
    description: `Whether a continue URL (from \`POST …/continue-url\`) is one of ours, untampered, unexpired and not revoked, and which application it opens. Not one of our continue URLs: 400; tampered, expired or revoked (its API key, or the application's links): 403; an application of a tenant the caller does not see: 404. ${TENANT_CREDENTIALS}`,
    access: 'businessApplications.read',
    example: {
      query: {
        continueUrl:
          'https://funding-gateway.example/app/applications/3f6c1a52-8d0e-4b7e-9a41-2c5d7e8f9b10/continue?token=eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl',
      },
    },
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
    summary: 'Get a continue URL',
    description: `A signed link, valid 7 days, to a page this server serves where the client reviews the application, sees its matches and pre-selected offers, and chooses 1-4 lenders, which go to the funding specialists' review queue. \`clickId\` is stored for attribution. The link ends sooner when the API key behind the caller's token is revoked or expires, or when the application's links are revoked (\`DELETE …/continue-url\`). ${TENANT_CREDENTIALS} ${IDEMPOTENT_DESCRIPTION}`,
    access: 'businessApplications.create',
    example: { summary: 'From a newsletter campaign', body: EXAMPLE_CONTINUE_BODY },
    body: ContinueBody,
    response: ContinueUrl,
    successStatus: 201,
    surface: 'businessV1',
    headers: idempotencyKeyHeader('account'),
    handle: (ctx, req) => applications.generateContinueUrl(ctx, req.params.applicationId, req.body, header(req, 'idempotency-key')),
  }),
  route({
    method: 'delete',
    path: `${BASES.businessV1}/applications/:applicationId/continue-url`,
    operationId: 'ApplicationSignUpController_revokeContinueUrls',
    summary: 'Revoke the continue URLs',
    description: `Ends every continue link of the application made until now (a link sent to the wrong person, or one the client no longer needs): its page and \`validate-continue-url\` refuse it with 403. A new link can be made at once, and works. An application of a tenant the caller does not see: 404. ${TENANT_CREDENTIALS}`,
    access: 'continueLinks.revoke',
    successStatus: 204,
    surface: 'businessV1',
    handle: (ctx, req) => applications.revokeContinueUrls(ctx, req.params.applicationId),
  }),
  {
    method: 'get',
    path: `${BASES.businessV1}/applications/:applicationId/matches`,
    operationId: 'ApplicationController_getMatches',
    summary: "Get an application's matches",
    description: `The lender products the application matches (spec 2.6): each lender with its logo, price band, response time and the documents it asks for; the product, its fees, the likelihood of acceptance, and whether it can make an instant offer. Another tenant's application is a 404. ${TENANT_CREDENTIALS}`,
    access: 'businessApplications.read',
    response: ApplicationMatchListBody,
    successStatus: 200,
    surface: 'businessV1',
    handle: async (ctx, req) => toMatchListBody(await applications.getApplicationMatches(ctx, req.params.applicationId)),
  },
  {
    method: 'get',
    path: `${BASES.businessV1}/applications/:applicationId/pre-selected`,
    operationId: 'ApplicationController_getPreselectedOffers',
    summary: "Get an application's pre-selected offers",
    description: `An indicative offer (\`PRE_SELECTED\`, \`INSTANT_OFFER\`, valid 30 days) for each matched product that can offer instantly: the amount and term asked for within the product's ranges, its rate by the likelihood of acceptance, repayments, APR and fees. Another tenant's application is a 404. ${TENANT_CREDENTIALS}`,
    access: 'businessApplications.read',
    response: z.array(withOptionalKeys(PreselectedOffer, OPTIONAL_KEYS.preselectedOffers)),
    successStatus: 200,
    surface: 'businessV1',
    handle: async (ctx, req) => withoutNullKeys(await applications.getPreselectedOffers(ctx, req.params.applicationId), OPTIONAL_KEYS.preselectedOffers),
  },
];
