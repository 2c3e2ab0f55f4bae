/** The cases module's REST rows (Marketplace V1). */
import * as cases from './case-service.js';
import { Case, CaseDetails } from './case-schemas.js';
import { OPTIONAL_KEYS, withOptionalKeys, withoutNullKeys } from '../../kernel/rest/rest-bodies.js';
import { BASES, header, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { IDEMPOTENT_DESCRIPTION, idempotencyKeyHeader } from '../../infra/idempotent-answers.js';

/** The REST body of a case: its amount, owner and manager left out when it has none. */
const RestCase = withOptionalKeys(Case, OPTIONAL_KEYS.cases).extend({ details: withOptionalKeys(CaseDetails, OPTIONAL_KEYS.cases) });

export const caseRoutes: RouteDefinition[] = [
  route({
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/cases/apply`,
    operationId: 'CaseController_apply',
    summary: 'Open a non-funding case',
    description:
      "Opens a case for what the profile's answers ask that is not funding: debt recovery, grants, R&D tax claims or credit improvement (answer the matching introducer questionnaire first). A funding specialist then follows it. A profile whose answers ask for none of these is a 422. " +
      IDEMPOTENT_DESCRIPTION,
    access: 'cases.apply',
    response: RestCase,
    successStatus: 200,
    surface: 'marketplaceV1',
    headers: idempotencyKeyHeader('account'),
    handle: async (ctx, req) => withoutNullKeys(await cases.applyForCase(ctx, req.params.uuid, header(req, 'idempotency-key')), OPTIONAL_KEYS.cases),
  }),
];
