/**
 * The integrator console's tenants: a platform user searches and pages the account's tenants and
 * opens one (profile, credit report, applications, review selections). Each operation decides access
 * once (`consoleTenants.read`), then reads through the tenants, profiles and applications modules'
 * internal reads, bounded by the user's account as an API key of it would be (tenant-visibility.ts).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { findVisibleTenant, tenantScope } from '../tenants/tenant-visibility.js';
import { tenantProfiles } from '../profiles/profile-service.js';
import { tenantCreditReport } from '../profiles/tenant-profile-service.js';
import { profileApplications } from '../business-applications/business-application-service.js';
import { ConsoleTenantSearch, type ConsoleTenant, type ConsoleTenantDetail, type ConsoleTenantPage } from './console-tenant-schemas.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface TenantWithProfile {
  id: string;
  referenceId: string | null;
  createdDateTime: Date;
  profile: { registrationNumber: string | null; companyInformation: Prisma.JsonValue } | null;
}

const companyNameOf = (info: Prisma.JsonValue | undefined): string | null => {
  const name = info && typeof info === 'object' && !Array.isArray(info) ? (info as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : null;
};

function toConsoleTenant(row: TenantWithProfile): ConsoleTenant {
  return {
    id: row.id,
    referenceId: row.referenceId,
    companyName: companyNameOf(row.profile?.companyInformation),
    registrationNumber: row.profile?.registrationNumber ?? null,
    createdAt: row.createdDateTime.toISOString(),
  };
}

function searchWhere(search: string | undefined): Prisma.TenantWhereInput {
  if (!search) return {};
  const or: Prisma.TenantWhereInput[] = [
    { referenceId: { contains: search, mode: 'insensitive' } },
    { profile: { registrationNumber: search.toUpperCase() } },
    { profile: { companyInformation: { path: ['name'], string_contains: search } } },
  ];
  if (UUID.test(search)) or.push({ id: search.toLowerCase() });
  return { OR: or };
}

/** A page of the account's tenants, newest first, matching `search` when given. */
export async function searchConsoleTenants(ctx: ServiceContext, input: unknown): Promise<ConsoleTenantPage> {
  const actor = requireAccess(ctx, 'consoleTenants.read');
  const { search, offset, limit } = parseInput(ConsoleTenantSearch, input ?? {}, 'search');
  const where: Prisma.TenantWhereInput = { AND: [tenantScope(ctx, { kind: 'api_key', accountId: actor.accountId }), searchWhere(search)] };
  const [rows, total] = await Promise.all([
    ctx.db.tenant.findMany({
      where,
      orderBy: [{ createdDateTime: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
      select: { id: true, referenceId: true, createdDateTime: true, profile: { select: { registrationNumber: true, companyInformation: true } } },
    }),
    ctx.db.tenant.count({ where }),
  ]);
  return { items: rows.map(toConsoleTenant), total, offset, limit };
}

/** One tenant of the account with its profile, credit report, applications and review selections (404 for any other). */
export async function openConsoleTenant(ctx: ServiceContext, id: unknown): Promise<ConsoleTenantDetail> {
  const actor = requireAccess(ctx, 'consoleTenants.read');
  const tenant = await findVisibleTenant(ctx, { kind: 'api_key', accountId: actor.accountId }, id);
  const [profile] = await tenantProfiles(ctx, [tenant.id]);
  const summary = toConsoleTenant({
    ...tenant,
    profile: profile ? { registrationNumber: profile.registrationNumber, companyInformation: { name: profile.companyName } } : null,
  });
  if (!profile) {
    return {
      tenant: summary,
      profileId: null,
      countryCode: null,
      companyType: null,
      sector: null,
      creditReport: noReport('The tenant has no profile yet'),
      applications: [],
      selections: [],
    };
  }
  const [report, [applications = []], selections] = await Promise.all([
    creditReportOf(ctx, tenant.id),
    profileApplications(ctx, [profile.uuid]),
    ctx.db.reviewSelection.findMany({ where: { profileId: profile.uuid }, orderBy: { createdAt: 'desc' }, take: 50 }),
  ]);
  const info = profile.companyInformation;
  return {
    tenant: summary,
    profileId: profile.uuid,
    countryCode: profile.countryCode,
    companyType: info.type ?? null,
    sector: info.sector ?? null,
    creditReport: report,
    applications: applications.map((a) => ({ id: a.id, questionnaireId: a.questionnaireId, createdAt: a.createdAt })),
    selections: selections.map((s) => ({
      id: s.id,
      state: s.state,
      lenders: Array.isArray(s.selection) ? s.selection.length : 0,
      decisionReason: s.decisionReason,
      createdAt: s.createdAt.toISOString(),
    })),
  };
}

const noReport = (reason: string): ConsoleTenantDetail['creditReport'] => ({
  available: false,
  reason,
  grade: null,
  industryAverageGrade: null,
  creditLimit: null,
  legalNotices: null,
  source: null,
});

/** The report, or why there is none (the company unknown to the registry, or of a kind that has none). */
async function creditReportOf(ctx: ServiceContext, tenantId: string): Promise<ConsoleTenantDetail['creditReport']> {
  try {
    const report = await tenantCreditReport(ctx, tenantId, '/graphql');
    const company = report.data.companyInformation;
    const credit = report.meta.creditData;
    if (!credit.available) return { ...noReport(credit.reason) };
    const notices = company.legalNotices;
    const limit = company.creditLimit;
    return {
      available: true,
      reason: null,
      grade: company.score?.grade ?? null,
      industryAverageGrade: company.score?.industryAverageGrade ?? null,
      creditLimit: limit ? `${limit.value} ${limit.code}` : null,
      legalNotices: notices ? notices.company.last12MonthsCount + notices.directors.last12MonthsCount : null,
      source: credit.source,
    };
  } catch (err) {
    if (err instanceof AppError && (err.code === 'UNPROCESSABLE' || err.code === 'NOT_FOUND')) return noReport(err.message);
    throw err;
  }
}
