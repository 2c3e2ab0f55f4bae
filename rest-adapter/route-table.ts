/**
 * The REST surface: the concatenation of the modules' rows, matched most specific path first, so
 * that the order modules are listed in never decides which row answers (the lender API's base lies
 * under the platform's, for one).
 */
import { businessApplicationRoutes } from '../src/domain/applications/business-application.routes.js';
import { caseRoutes } from '../src/domain/cases/case.routes.js';
import { companyRoutes } from '../src/domain/companies/company.routes.js';
import { documentRoutes } from '../src/domain/documents/document.routes.js';
import { identityRoutes } from '../src/domain/identity/identity.routes.js';
import { lenderApplicationRoutes } from '../src/domain/lender-api/lender-application.routes.js';
import { matchingRoutes } from '../src/domain/matching/matching.routes.js';
import { profileRoutes } from '../src/domain/profiles/profile.routes.js';
import { questionnaireRoutes } from '../src/domain/questionnaires/questionnaire.routes.js';
import { tenantRoutes } from '../src/domain/tenants/tenant.routes.js';
import type { RouteDefinition } from './route-definition.js';

export { BASES, FileDownload, Redirect, type HttpMethod, type RestRequest, type RouteDefinition } from './route-definition.js';

/**
 * Literal segments before parameters, position by position: `/profiles/blank` is tried before
 * `/profiles/:uuid`. A stable sort, so rows of equal rank keep their module's order.
 */
export function bySpecificity(a: RouteDefinition, b: RouteDefinition): number {
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
].sort(bySpecificity);
