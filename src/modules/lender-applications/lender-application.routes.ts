/** The lender applications module's REST rows: submission to lenders, the client's decision on offers, and the Lender Application API. */
import type { ServiceContext } from '../../kernel/context.js';
import * as lenderApplications from './lender-application-service.js';
import * as submission from './submission-service.js';
import type { Surface } from '../../kernel/access-policy.js';
import { Acknowledgement, ApplicationTotals, ListFilter, ListQuery, Rejection } from './lender-application-service.js';
import { OfferBody } from './offer-schemas.js';
import { FundingApplicationDocument, IntegratorApplicationDocument } from './funding-application-schemas.js';
import { ApplicationSubmission, SelectionSubmission } from './submission-schemas.js';
import { SelectedLender } from '../matching/selection-schemas.js';
import { z } from 'zod';
import { BASES, header, route, routeCheckedInOperation, type RestRequest, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { IDEMPOTENT_DESCRIPTION, idempotencyKeyHeader } from '../../infra/idempotent-answers.js';
import { EXAMPLE_ACKNOWLEDGEMENT, EXAMPLE_OFFER, EXAMPLE_REJECTION } from './lender-application.examples.js';

/** The lender's answers take an Idempotency-Key, so a lender can retry one safely after a timeout. */
const IDEMPOTENCY_HEADER = idempotencyKeyHeader('lender');
const IDEMPOTENT = ` ${IDEMPOTENT_DESCRIPTION}`;
/** The integrator's submissions and decisions take one too, kept per account. */
const ACCOUNT_IDEMPOTENCY_HEADER = idempotencyKeyHeader('account');

/** The client's decision on a lender's offer, on the integrator surfaces. */
const decisionRoutes = (base: string, surface: Surface, prefix: string): RouteDefinition[] => [
  {
    method: 'post',
    path: `${base}/lender-applications/:applicationId/resubmit`,
    operationId: `${prefix}LenderApplicationController_resubmit`,
    summary: 'Resubmit a failed application',
    description:
      'After a lender answered `Failed` and the profile was fixed: sends the application to the lender again, its document rebuilt from the profile as it now is (a new webhook delivery). From any other status: 409. An application of a profile the caller cannot see is a 404.' +
      IDEMPOTENT,
    access: 'lenderApplications.decide',
    response: IntegratorApplicationDocument,
    successStatus: 200,
    surface,
    headers: ACCOUNT_IDEMPOTENCY_HEADER,
    handle: (ctx, req) => lenderApplications.resubmit(ctx, req.params.applicationId, header(req, 'idempotency-key')),
  },
  ...(['accept', 'decline'] as const).map(
    (decision) =>
      ({
        method: 'post',
        path: `${base}/lender-applications/:applicationId/${decision}`,
        operationId: `${prefix}LenderApplicationController_${decision}`,
        summary: decision === 'accept' ? "Accept a lender's offer" : "Decline a lender's offer",
        description: `The client's decision on the lender's current offer: the application becomes ${decision === 'accept' ? 'Client Accepted (with `acceptedAt`)' : 'Client Declined'} and the lender's update webhook is sent. A second decision, or an application without a current offer, is a 409; an application of a profile the caller cannot see is a 404.${IDEMPOTENT}`,
        access: 'lenderApplications.decide' as const,
        response: IntegratorApplicationDocument,
        successStatus: 200,
        surface,
        headers: ACCOUNT_IDEMPOTENCY_HEADER,
        handle: (ctx: ServiceContext, req: RestRequest) =>
          lenderApplications.decideOnOffer(ctx, req.params.applicationId, decision, header(req, 'idempotency-key')),
      }) satisfies RouteDefinition,
  ),
];

export const lenderApplicationRoutes: RouteDefinition[] = [
  route({
    method: 'get',
    path: `${BASES.lenderApi}/applications`,
    operationId: 'LenderApplicationController_list',
    summary: 'List your applications',
    description:
      "The calling lender's funding applications (spec 2.7 documents), oldest first unless `sort` says otherwise. Filters: `q` (a company name's start, a company number, your reference or an id), `status`, `receivedBefore`/`receivedAfter` (how long they have waited), `reference` (those you acknowledged with it); `GET …/applications/totals` counts what a filter matches. Pages: `limit` (50 unless given, at most 200), and `after` = the last id received for the next page (same filters and sort); fewer than `limit` is the last page.",
    access: 'lenderApplications.list',
    example: { summary: 'The first page of 50', query: { limit: 50 } },
    query: ListQuery,
    response: z.array(FundingApplicationDocument),
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.listLenderApplications(ctx, req.query),
  }),
  route({
    method: 'get',
    path: `${BASES.lenderApi}/applications/totals`,
    operationId: 'LenderApplicationController_totals',
    summary: 'Count your applications',
    description:
      "How many of the calling lender's applications the filters of `GET …/applications` match (`total`), and by status of those matching all but `status` (`byStatus`): the totals beside a list's pages.",
    access: 'lenderApplications.list',
    example: { summary: 'Waiting for an answer for more than 3 days', query: { status: 'In Review', receivedBefore: '2026-12-01T00:00:00Z' } },
    query: ListFilter,
    response: ApplicationTotals,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.countLenderApplications(ctx, req.query),
  }),
  {
    method: 'get',
    path: `${BASES.lenderApi}/applications/:id`,
    operationId: 'LenderApplicationController_get',
    summary: 'Get an application',
    description: "One funding application of the calling lender, with its status, current offer and history. Another lender's application is a 404.",
    access: 'lenderApplications.list',
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.getLenderApplication(ctx, req.params.id),
  },
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/acknowledgement`,
    operationId: 'LenderApplicationController_acknowledge',
    summary: 'Acknowledge an application',
    description: `Tells the client the application is being looked at: your reference, a comment (e.g. when to expect an answer), or both; a later acknowledgement replaces it. The status stays In Review (spec 3: an acknowledgement leaves it unchanged); the first acknowledgement's time is recorded. Once a quote or rejection was given: 409. Answers the updated application.${IDEMPOTENT}`,
    access: 'lenderApplications.respond',
    example: { summary: "Under review, with the lender's reference", body: EXAMPLE_ACKNOWLEDGEMENT },
    body: Acknowledgement,
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    headers: IDEMPOTENCY_HEADER,
    handle: (ctx, req) => lenderApplications.acknowledge(ctx, req.params.id, req.body, header(req, 'idempotency-key')),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/offer`,
    operationId: 'LenderApplicationController_offer',
    summary: 'Make an offer',
    description:
      'A quote or offer (`status` INDICATIVE or FINAL) with exactly one product object (`termLoan`, `invoiceFinance`, `merchantCashAdvance`, `assetFinance`, `tradeFinance` or `commercialProperty`) within the ranges of spec 8. Money fields take plain pounds (as the live platform documents them) or `{code, value}`; answers always give `{code, value}`. An offer posted again replaces the current one, whatever its `reference` (spec 4.5 note 2; earlier ones stay in the history), and goes to your update webhook. Answers the updated application.' +
      IDEMPOTENT,
    access: 'lenderApplications.respond',
    example: { summary: 'An indicative term loan of £150,000 over 24 months', body: EXAMPLE_OFFER },
    body: OfferBody,
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    headers: IDEMPOTENCY_HEADER,
    handle: (ctx, req) => lenderApplications.makeOffer(ctx, req.params.id, req.body, header(req, 'idempotency-key')),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/rejection`,
    operationId: 'LenderApplicationController_reject',
    summary: 'Reject or fail an application',
    description: `With \`reason\` \`Failed\`, the application failed on data, format or processing: the client may fix it and resubmit. Any other reason (documented: \`Ineligible\`) rejects it for good. Answers the updated application.${IDEMPOTENT}`,
    access: 'lenderApplications.respond',
    example: { summary: 'Failed: a field to correct', body: EXAMPLE_REJECTION },
    body: Rejection,
    response: FundingApplicationDocument,
    successStatus: 200,
    surface: 'lenderApi',
    headers: IDEMPOTENCY_HEADER,
    handle: (ctx, req) => lenderApplications.reject(ctx, req.params.id, req.body, header(req, 'idempotency-key')),
  }),
  routeCheckedInOperation({
    method: 'post',
    path: `${BASES.businessV1}/applications/:applicationId/submit`,
    operationId: 'ApplicationController_submit',
    summary: 'Submit an application to a lender',
    description:
      'Sends the application to one of its matched lenders (`lenderId`, with the matched `products` wanted): the lender receives the spec 2.7 document by webhook. A lender or product that does not match now, or fields the lender requires that the profile lacks (named), is a 422; nothing is sent.' +
      IDEMPOTENT,
    access: 'businessApplications.create',
    example: { summary: 'A term loan from Fleetway Capital (a lender of the demo catalogue)', body: { lenderId: 2, products: ['TERM_LOAN'] } },
    body: SelectedLender,
    response: ApplicationSubmission,
    successStatus: 201,
    surface: 'businessV1',
    headers: ACCOUNT_IDEMPOTENCY_HEADER,
    handle: (ctx, req) => submission.submitBusinessApplication(ctx, req.params.applicationId, req.body, header(req, 'idempotency-key')),
  }),
  {
    method: 'post',
    path: `${BASES.platform}/review-selections/:selectionId/submit`,
    operationId: 'PlatformReviewController_submit',
    summary: 'Submit a reviewed selection to its lenders',
    description:
      "Funding specialists: sends a selection from the review queue (a client's 1-4 preferred lenders, from `…/funding/apply` or a continue page) to its lenders, each as a lender application delivered by webhook.",
    access: 'reviews.submit',
    response: SelectionSubmission,
    successStatus: 201,
    surface: 'platform',
    handle: (ctx, req) => submission.submitReviewedSelection(ctx, req.params.selectionId ?? ''),
  },
  ...decisionRoutes(BASES.businessV1, 'businessV1', 'Business'),
  ...decisionRoutes(BASES.marketplaceV1, 'marketplaceV1', ''),
];
