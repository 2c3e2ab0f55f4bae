/**
 * The REST surface: the concatenation of the modules' rows, matched most specific path first, so
 * that the order modules are listed in never decides which row answers (the lender API's base lies
 * under the platform's, for one).
 */
import { businessApplicationRoutes } from '../../modules/business-applications/business-application.routes.js';
import { caseRoutes } from '../../modules/cases/case.routes.js';
import { companyRoutes } from '../../modules/companies/company.routes.js';
import { documentRoutes } from '../../modules/documents/document.routes.js';
import { identityRoutes } from '../../modules/identity/identity.routes.js';
import { lenderApplicationRoutes } from '../../modules/lender-applications/lender-application.routes.js';
import { matchingRoutes } from '../../modules/matching/matching.routes.js';
import { profileRoutes } from '../../modules/profiles/profile.routes.js';
import { questionnaireRoutes } from '../../modules/questionnaires/questionnaire.routes.js';
import { tenantRoutes } from '../../modules/tenants/tenant.routes.js';
import { webhookRoutes } from '../../modules/webhooks/webhook.routes.js';
import { servedPaths, type RouteDefinition } from '../../kernel/rest/route-definition.js';

export { BASES, FileDownload, Redirect, type RestRequest, type RouteDefinition } from '../../kernel/rest/route-definition.js';

/**
 * Literal segments before parameters, position by position: `/profiles/blank` is tried before
 * `/profiles/:uuid`. A stable sort, so rows of equal rank keep their module's order.
 */
function bySpecificity(a: Pick<RouteDefinition, 'path'>, b: Pick<RouteDefinition, 'path'>): number {
  const left = a.path.split('/');
  const right = b.path.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftParam = left[i]!.startsWith(':');
    const rightParam = right[i]!.startsWith(':');
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
  }
  return 0;
}

export const ROUTES: RouteDefinition[] = [
  ...identityRoutes,
  ...tenantRoutes,
  ...profileRoutes,
  ...companyRoutes,
  ...questionnaireRoutes,
  ...documentRoutes,
  ...caseRoutes,
  ...matchingRoutes,
  ...businessApplicationRoutes,
  ...lenderApplicationRoutes,
  ...webhookRoutes,
].sort(bySpecificity);

/** Every path each row answers at (servedPaths: a row of the lender API at both its bases), most specific first as ROUTES. */
export function servedRoutes(routes: readonly RouteDefinition[] = ROUTES): Array<{ route: RouteDefinition; path: string; operationId: string }> {
  return routes.flatMap((route) => servedPaths(route).map((served) => ({ route, ...served }))).sort(bySpecificity);
}
