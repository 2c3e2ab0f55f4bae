/**
 * Fetches the tenant's credit report the way any integrator does: GET {business_v1_base}/profile
 * with the tenant token as a bearer (no cookies), and turns every way it can fail into a WidgetError.
 */
import { widgetError, type WidgetError } from './widget-errors.js';

interface Money {
  code: string;
  value: number;
}
interface Notices {
  last12MonthsCount?: number;
  last12MonthsValue?: Money;
}

/** The part of GET /profile's data.companyInformation the widget shows. */
export interface CreditReportView {
  name?: string;
  type?: string;
  registrationNumber?: string;
  score?: {
    grade?: string;
    value?: number;
    industryAverageGrade?: string;
    changedAt?: string;
    lastAssessedAt?: string;
    previous?: { grade?: string };
  };
  creditLimit?: Money;
  legalNotices?: { company?: Notices; directors?: Notices };
}

interface ProfileEnvelope {
  data?: { companyInformation?: CreditReportView };
  meta?: { creditReport?: { available: boolean; reason?: string } };
}

interface Problem {
  detail?: string;
  code?: string;
  errors?: Array<{ pointer?: string }>;
}

/** Every kind of token this service issues but the tenant's, named for the developer's message. */
const OTHER_TOKEN_KINDS: Record<string, string> = {
  platform: 'a platform access token',
  master: 'a master token',
  marketplace_v1: 'a Marketplace V1 token',
  login: 'a platform login token',
  lender: 'a lender token',
  link: 'a signed page link',
};

const NOT_OURS = 'The access token is not a token of this service';

/**
 * The token's kind as it states itself (claim `tkn`). Read only to refuse a token that can never
 * work here with a clear message before any request; the API alone decides what a token may do.
 * One of our other kinds is WRONG_TOKEN_KIND; anything else (not a JWT, or a JWT without one of our
 * kinds: another service's) is TOKEN_INVALID, as the API itself would answer.
 */
function tokenKindProblem(token: string): WidgetError | null {
  const parts = token.split('.');
  if (parts.length !== 3) return widgetError('TOKEN_INVALID', `${NOT_OURS} (not a JWT)`);
  let kind: unknown;
  try {
    kind = (JSON.parse(atob(parts[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { tkn?: unknown } | null)?.tkn;
  } catch {
    return widgetError('TOKEN_INVALID', `${NOT_OURS} (not a JWT)`);
  }
  if (kind === 'tenant') return null;
  const name = typeof kind === 'string' ? OTHER_TOKEN_KINDS[kind] : undefined;
  if (!name) return widgetError('TOKEN_INVALID', `${NOT_OURS} (a JWT without one of its token kinds)`);
  return widgetError('WRONG_TOKEN_KIND', `The widget needs a tenant access token; this is ${name}`);
}

export type CreditReportOutcome = { ok: true; report: CreditReportView } | { ok: false; error: WidgetError };

/** `signal` aborts a load a newer one (a new token) or `destroy` has superseded; its outcome is then moot. */
export async function fetchCreditReport(apiOrigin: string, accessToken: string, signal?: AbortSignal): Promise<CreditReportOutcome> {
  const refused = tokenKindProblem(accessToken);
  if (refused) return { ok: false, error: refused };
  let res: Response;
  try {
    res = await fetch(`${apiOrigin}/api/business/v1/profile`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
      signal,
    });
  } catch {
    return { ok: false, error: widgetError('NETWORK_ERROR', 'The credit report service could not be reached') };
  }
  if (res.ok) {
    const body = (await res.json().catch(() => null)) as ProfileEnvelope | null;
    const report = body?.data?.companyInformation;
    const availability = body?.meta?.creditReport;
    if (!report || !availability) return { ok: false, error: widgetError('UNEXPECTED_RESPONSE', 'The credit report service answered in an unexpected form') };
    if (!availability.available) return { ok: false, error: widgetError('NOT_ELIGIBLE', availability.reason ?? 'This company has no credit report') };
    return { ok: true, report };
  }
  return { ok: false, error: await failureOf(res) };
}

async function failureOf(res: Response): Promise<WidgetError> {
  if (res.status >= 500) return widgetError('SERVER_ERROR', `The credit report service failed (HTTP ${res.status}); try again later`);
  const problem = ((await res.json().catch(() => null)) ?? {}) as Problem;
  const detail = problem.detail ?? `HTTP ${res.status}`;
  if (res.status === 401) return widgetError(/expired/i.test(detail) ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID', detail);
  if (res.status === 404) return widgetError('NO_PROFILE', detail);
  // A token that is not bound to one tenant cannot name it here (Service-tenant-id is required).
  if (res.status === 403 || (res.status === 400 && problem.errors?.some((e) => e.pointer === 'header:Service-tenant-id'))) {
    return widgetError('WRONG_TOKEN_KIND', detail);
  }
  return widgetError('UNEXPECTED_RESPONSE', detail);
}
