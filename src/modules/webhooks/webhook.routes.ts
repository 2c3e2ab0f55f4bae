/** The webhooks module's REST rows: the Lender Application API's view of a lender's own deliveries, redelivery, replay, events, endpoints, signing secret and test events. */
import { BASES, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import * as lenderDeliveries from './lender-deliveries.js';
import * as lenderEvents from './lender-events.js';
import * as endpointTest from './lender-endpoint-test.js';
import * as lenderEndpoints from './lender-endpoints.js';
import { LenderEndpoint, LenderEndpointChange, LenderEndpoints, MAX_OVERLAP_SECONDS, RotatedSigningSecret, SigningSecretRotation } from './lender-endpoint-schemas.js';
import { LenderEventPage, LenderEventQuery } from './lender-event-schemas.js';
import { DeliveryReplay, DeliveryReplayResult, DETAIL_ATTEMPTS, LenderDelivery, LenderDeliveryPage, LenderDeliveryQuery, MAX_REPLAY_DELIVERIES, MAX_REPLAY_RANGE_DAYS } from './lender-delivery-schemas.js';

export const webhookRoutes: RouteDefinition[] = [
  route({
    method: 'get',
    path: `${BASES.lenderApi}/deliveries`,
    operationId: 'LenderDeliveryController_list',
    summary: 'List your webhook deliveries',
    description:
      "The webhook deliveries made to the calling lender, newest first, each with the document it sent (its `apiProvider.authorizationToken` redacted), its latest attempts (your status, headers and body excerpt, latency, error, the headers sent with the signature redacted). Filters: `applicationId`, `status`. Pages: `first` (50 unless given, at most 200) and `after` = the previous page's `pageInfo.endCursor`.",
    access: 'lenderDeliveries.read',
    example: { summary: 'The failed deliveries, 20 at a time', query: { status: 'FAILED', first: 20 } },
    query: LenderDeliveryQuery,
    response: LenderDeliveryPage,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderDeliveries.listLenderDeliveries(ctx, req.query),
  }),
  route({
    method: 'get',
    path: `${BASES.lenderApi}/deliveries/:id`,
    operationId: 'LenderDeliveryController_get',
    summary: 'Get a delivery with its attempts',
    description: `One of your deliveries (by its \`webhook-id\`) with its latest ${DETAIL_ATTEMPTS} attempts, newest first: each with the headers it sent (the signature redacted) and what you answered (status, allow-listed headers, the first 2 KB of a textual body), its latency and error. Every attempt sent \`requestBody\` (its \`apiProvider.authorizationToken\` redacted). Another lender's delivery is a 404.`,
    access: 'lenderDeliveries.read',
    response: LenderDelivery,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderDeliveries.getLenderDelivery(ctx, req.params.id),
  }),
  route({
    method: 'post',
    path: `${BASES.lenderApi}/deliveries/replay`,
    operationId: 'LenderDeliveryController_replay',
    summary: 'Replay your deliveries',
    description: `Sends again, now and oldest first, every delivery that failed (\`{ "status": "FAILED" }\`: retrying or dead-lettered) or every delivery created in a time range (\`{ "from", "to" }\`, at most ${MAX_REPLAY_RANGE_DAYS} days; those still waiting for an attempt are left as they are). Each is a new attempt of the same \`webhook-id\`, on a fresh retry schedule. At most ${MAX_REPLAY_DELIVERIES} deliveries a call (\`more\` says when more matched) and ${lenderDeliveries.MAX_REPLAYS_PER_HOUR} calls an hour (then 429 with Retry-After); each call is recorded and audited. Answers how many were queued.`,
    access: 'lenderDeliveries.replay',
    example: { summary: 'Every failed delivery', body: { status: 'FAILED' } },
    body: DeliveryReplay,
    response: DeliveryReplayResult,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderDeliveries.replayLenderDeliveries(ctx, req.body),
  }),
  route({
    method: 'post',
    path: `${BASES.lenderApi}/deliveries/:id/redeliver`,
    operationId: 'LenderDeliveryController_redeliver',
    summary: 'Redeliver a delivery',
    description:
      'Sends one of your deliveries again now, whatever its status but PENDING (already waiting for its attempt) or one being attempted (409): a new attempt of the same `webhook-id` and body, on a fresh retry schedule. Answers the delivery. Another lender\'s delivery is a 404.',
    access: 'lenderDeliveries.replay',
    response: LenderDelivery,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderDeliveries.redeliverLenderDelivery(ctx, req.params.id),
  }),
  route({
    method: 'get',
    path: `${BASES.lenderApi}/events`,
    operationId: 'LenderEventController_list',
    summary: 'List your events',
    description:
      "Every created and updated event of the calling lender's applications, oldest first, each with the body its webhook carries (the funding application document) and the webhook's id, event type and sequence number: catch up after an outage, or work without webhooks. Pass the last `pageInfo.endCursor` you received as `after` (keep it when a page is empty): paging from any cursor returns each event exactly once. An event is listed once every database transaction that began before it has ended. Events are kept as long as their application.",
    access: 'lenderEvents.read',
    example: { summary: 'The first 100 events', query: { first: 100 } },
    query: LenderEventQuery,
    response: LenderEventPage,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderEvents.listLenderEvents(ctx, req.query),
  }),
  route({
    method: 'post',
    path: `${BASES.lenderApi}/endpoints/:kind/test`,
    operationId: 'LenderEndpointController_test',
    summary: 'Send yourself a test event',
    description:
      "Sends a test event now to your application URL (`kind` = `created`) or update URL (`updated`; your application URL when you gave none), signed as deliveries are (Standard Webhooks, with your current webhook secret and, during a rotation's overlap window, the previous one) with `webhook-event-type`, but no `webhook-sequence`; its body is `{ \"test\": true, \"type\", \"sentAt\" }`. Answers your status, the latency and any error (200 whatever you answered). Nothing is queued or retried.",
    access: 'lenderEndpoints.test',
    example: { summary: 'A test of your application URL', params: { kind: 'created' } },
    response: endpointTest.EndpointTestResult,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => endpointTest.sendTestEvent(ctx, req.params.kind),
  }),
  route({
    method: 'get',
    path: `${BASES.lenderApi}/endpoints`,
    operationId: 'LenderEndpointController_list',
    summary: 'List your webhook endpoints',
    description:
      'Your application URL (`created`) and update URL (`updated`; your application URL when you gave none), whether each is enabled, how many deliveries of each wait, and the status of your signing secret (never the secret).',
    access: 'lenderEndpoints.read',
    response: LenderEndpoints,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx) => lenderEndpoints.listLenderEndpoints(ctx),
  }),
  route({
    method: 'patch',
    path: `${BASES.lenderApi}/endpoints/:kind`,
    operationId: 'LenderEndpointController_update',
    summary: 'Change a webhook endpoint',
    description:
      "Changes the URL of your `created` or `updated` endpoint (held to the webhook URL policy: a refused URL is a 422 naming `/url`; `updated` with `url: null` sends updates to your application URL), and enables or disables it. A disabled endpoint's deliveries wait: no attempt is made or counted and none is dead-lettered; enabling it sends them at once, in order. A URL change re-aims every delivery of that kind not yet delivered (PENDING, FAILED, DEAD) at the new URL. Answers the endpoint.",
    access: 'lenderEndpoints.write',
    example: { summary: 'Hold your updates while you deploy', params: { kind: 'updated' }, body: { enabled: false } },
    body: LenderEndpointChange,
    response: LenderEndpoint,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderEndpoints.updateLenderEndpoint(ctx, req.params.kind, req.body),
  }),
  route({
    method: 'post',
    path: `${BASES.lenderApi}/webhook-secret/rotate`,
    operationId: 'LenderEndpointController_rotateSecret',
    summary: 'Rotate your webhook signing secret',
    description: `A new \`whsec_\` signing secret, shown this once. Until \`previousSecretValidUntil\` (\`overlapSeconds\` from now: a day unless given, at most ${MAX_OVERLAP_SECONDS}), every delivery and test event carries two signatures in \`webhook-signature\` (\`v1,<new> v1,<previous>\`, Standard Webhooks), so a receiver verifying with either secret accepts it while you install the new one. Rotating again during a window: the secret in use becomes the previous one, the older one stops signing.`,
    access: 'lenderSecrets.rotate',
    example: { summary: 'A rotation with an hour of overlap', body: { overlapSeconds: 3600 } },
    body: SigningSecretRotation,
    response: RotatedSigningSecret,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderEndpoints.rotateSigningSecret(ctx, req.body),
  }),
];
