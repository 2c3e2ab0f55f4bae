/** The cases module's REST rows (Marketplace V1). */
import * as cases from './case-service.js';
import { OPTIONAL_KEYS, withoutNullKeys } from '../../../rest-adapter/rest-bodies.js';
import { BASES, type RouteDefinition } from '../../../rest-adapter/route-definition.js';

export const caseRoutes: RouteDefinition[] = [
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/cases/apply`,
    operationId: 'CaseController_apply',
    summary: "Open a non-funding case (debt recovery, grants, R&D tax, credit improvement) for what the profile's answers ask",
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await cases.applyForCase(ctx, req.params.uuid), OPTIONAL_KEYS.cases),
  },
];
