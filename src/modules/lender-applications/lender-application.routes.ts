/** The lender applications module's REST rows: submission to lenders, the client's decision on offers, and the Lender Application API. */
import type { ServiceContext } from '../../kernel/context.js';
import * as lenderApplications from './lender-application-service.js';
import * as submission from './submission-service.js';
import type { Surface } from '../../kernel/access-policy.js';
import { Acknowledgement, ListQuery, Rejection } from './lender-application-service.js';
import { OfferBody } from './offer-schemas.js';
import { FundingApplicationDocument, IntegratorApplicationDocument } from './funding-application-schemas.js';
import { ApplicationSubmission, SelectionSubmission } from './submission-schemas.js';
import { SelectedLender } from '../matching/selection-schemas.js';
import { z } from 'zod';
import { BASES, route, routeCheckedInOperation, type RestRequest, type RouteDefinition } from '../../kernel/rest/route-definition.js';

/** The client's decision on a lender's offer, on the integrator surfaces. */
const decisionRoutes = (base: string, surface: Surface, prefix: string): RouteDefinition[] => [
  {
    method: 'post',
    path: `${base}/lender-applications/:applicationId/resubmit`,
    operationId: `${prefix}LenderApplicationController_resubmit`,
    summary: 'After a Failed answer and a fix: send the application again (a new delivery, rebuilt from the profile)',
    response: IntegratorApplicationDocument,
    successStatus: 200,
    surface,
    handle: (ctx, req) => lenderApplications.resubmit(ctx, req.params.applicationId),
  },
  ...(['accept', 'decline'] as const).map((decision) => ({
    method: 'post',
    path: `${base}/lender-applications/:applicationId/${decision}`,
    operationId: `${prefix}LenderApplicationController_${decision}`,
    summary: `The client ${decision}s the current offer; the lender's update webhook is told`,
    response: IntegratorApplicationDocument,
    successStatus: 200,
    surface,
    handle: (ctx: ServiceContext, req: RestRequest) => lenderApplications.decideOnOffer(ctx, req.params.applicationId, decision),
  }) satisfies RouteDefinition),
];

export const lenderApplicationRoutes: RouteDefinition[] = [
  route({
    method: 'get',
    path: `${BASES.lenderApi}/applications`,
    operationId: 'LenderApplicationController_list',
    summary: "The calling lender's funding applications, oldest first, in pages (?limit=, ?after= the last id received; optional ?reference=)",
    query: ListQuery,
    response: z.array(FundingApplicationDocument),
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.listLenderApplications(ctx, req.query),
  }),
  {
    method: 'get',
    path: `${BASES.lenderApi}/applications/:id`,
    operationId: 'LenderApplicationController_get',
    summary: 'One funding application of the calling lender (another lender’s: 404)',
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.getLenderApplication(ctx, req.params.id),
  },
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/acknowledgement`,
    operationId: 'LenderApplicationController_acknowledge',
    summary: 'Acknowledge: a reference, a comment, or both (until a quote or rejection); 200 the updated application',
    body: Acknowledgement,
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.acknowledge(ctx, req.params.id, req.body),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/offer`,
    operationId: 'LenderApplicationController_offer',
    summary: 'An offer with exactly one product object; replaces the current one; 200 the updated application',
    body: OfferBody,
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.makeOffer(ctx, req.params.id, req.body),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/rejection`,
    operationId: 'LenderApplicationController_reject',
    summary: 'Reason Failed (fixable, resubmittable) or a terminal rejection (e.g. Ineligible); 200 the updated application',
    body: Rejection,
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.reject(ctx, req.params.id, req.body),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.businessV1}/applications/:applicationId/submit`,
    operationId: 'ApplicationController_submit',
    summary: 'Send the application to one of its matched lenders ({lenderId, products}); the lender receives it by webhook',
    body: SelectedLender,
    response: ApplicationSubmission,
    successStatus: 201,
    surface: 'businessV1',
    handle: (ctx, req) => submission.submitBusinessApplication(ctx, req.params.applicationId, req.body),
  }),
  {
    method: 'post',
    path: `${BASES.platform}/review-selections/:selectionId/submit`,
    operationId: 'PlatformReviewController_submit',
    summary: 'Staff: submit a reviewed selection to its lenders',
    response: SelectionSubmission,
    successStatus: 201,
    surface: 'platform',
    handle: (ctx, req) => submission.submitReviewedSelection(ctx, req.params.selectionId ?? ''),
  },
  ...decisionRoutes(BASES.businessV1, 'businessV1', 'Business'),
  ...decisionRoutes(BASES.marketplaceV1, 'marketplaceV1', ''),
];
