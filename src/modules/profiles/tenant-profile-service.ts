/**
 * A tenant's business profile (onboarding steps 5-6, Business V1 profile operations, Marketplace V2
 * /profile): set up from the company registry by registration number, read with its credit report,
 * and updated. One profile per tenant: a second set-up is a 409 (update it with PATCH or PUT).
 *
 * GET /profile answers the credit report envelope of spec 2.5 ({data, links, meta}) whose `data` is
 * the whole Business V1 profile: the credit report's fields (score, creditLimit, legalNotices) sit in
 * data.companyInformation, refreshed from the registry at each read. GET /profile/credit-report is
 * the announced dedicated endpoint: the report alone, or 422 when the company has none.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { companyInformation, registeredAddress, type CompanyInformationDto } from '../companies/company-information.js';
import type { RegistryCompany } from '../companies/company-registry.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { CheckedLater } from '../../kernel/validation.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { resolveTenantId, type TenantActor } from '../tenants/tenant-visibility.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { countryOfRegistrationNumber, creditReportOf, creditReportRefusal, type CreditReport } from './credit-report.js';
import { mergePatch } from './merge-patch.js';
import type { BusinessProfile, ProfileEnvelope, TenantProfilePatch, TenantProfileReplace, TenantProfileSetUp } from './profile-schemas.js';
import { readSections, writeSections } from './profile-sections.js';
import { visibleProfileWhere } from './profile-visibility.js';
import { profileByIdWhere, selectProfileRows, type ProfileRow } from './profile-reads.js';

export type { BusinessProfile, ProfileEnvelope };

/** What the registry states about the company, which a client's body cannot override. */
const REGISTRY_FACTS = ['name', 'type', 'registrationNumber', 'incorporatedAt', 'sector', 'score', 'creditLimit', 'legalNotices'] as const;

function registryFacts(info: CompanyInformationDto, withReport: boolean): Record<string, unknown> {
  const facts = Object.fromEntries(REGISTRY_FACTS.map((k) => [k, info[k]]).filter(([, v]) => v !== null && v !== undefined));
  if (!withReport) {
    delete facts.score;
    delete facts.creditLimit;
    delete facts.legalNotices;
  }
  return facts;
}

/** POST /profile {companyInformation: {registrationNumber, ...}, ...} → 201 the profile. */
export async function setUpTenantProfile(ctx: ServiceContext, input: CheckedLater<TenantProfileSetUp>): Promise<BusinessProfile> {
  const actor = requireAccess(ctx, 'tenantProfile.write');
  const tenantId = await resolveTenantId(ctx, actor);
  const body = input();
  const number = body.companyInformation.registrationNumber.toUpperCase();
  const countryCode = countryOfRegistrationNumber(number);
  const company = await ctx.companies.find(number, countryCode);
  if (!company) {
    throw new AppError('NOT_FOUND', `No company with registration number ${number} in the ${countryCode} registry`, [
      { pointer: '/companyInformation/registrationNumber', message: 'is not in the company registry' },
    ]);
  }
  const { companyInformation: given, financials, ...sections } = body;
  const registry = await companyInformation(ctx, company, 'full');
  const info = mergePatch({ ...registeredAddress(company), ...given }, registryFacts(registry, creditReportRefusal(company) === null)) as Record<
    string,
    unknown
  >;
  try {
    const id = await ctx.db.$transaction(async (tx) => {
      const row = await tx.profile.create({
        data: {
          tenantId,
          environment: ctx.environment,
          countryCode,
          registrationNumber: company.registrationNumber,
          companyType: company.type as never,
          sector: company.sector as never,
          companyInformation: info as Prisma.InputJsonValue,
          financials: (financials ?? {}) as Prisma.InputJsonValue,
        },
      });
      await writeSections(tx, row.id, sections);
      return row.id;
    });
    ctx.logger.info({ profileId: id, tenantId }, 'tenant profile set up');
    return toBusinessProfile(await loadBusinessProfileRow(ctx, id));
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadySetUp();
    throw err;
  }
}

/** GET /profile → the credit report envelope around the whole profile. */
export async function getTenantProfile(ctx: ServiceContext, self: string): Promise<ProfileEnvelope> {
  const actor = requireAccess(ctx, 'tenantProfile.read');
  const tenantId = await resolveTenantId(ctx, actor);
  const row = await findTenantProfileRow(ctx, actor, tenantId);
  const company = await registryCompanyOf(ctx, row);
  const refusal = company ? creditReportRefusal(company) : 'The company is not in the registry';
  const profile = toBusinessProfile(row);
  if (company && refusal === null) {
    const registry = await companyInformation(ctx, company, 'full');
    profile.companyInformation = { ...profile.companyInformation, ...registryFacts(registry, true) };
  }
  return {
    data: profile,
    links: { self },
    meta: { tenantId, creditReport: refusal === null ? { available: true } : { available: false, reason: refusal } },
  };
}

/** GET /profile/credit-report → the credit report of spec 2.5, or 422 saying why there is none. */
export async function getCreditReport(ctx: ServiceContext, self: string): Promise<CreditReport> {
  const actor = requireAccess(ctx, 'tenantProfile.read');
  const tenantId = await resolveTenantId(ctx, actor);
  return creditReportOfRow(ctx, await findTenantProfileRow(ctx, actor, tenantId), tenantId, self);
}

/**
 * The credit report of a tenant (422 when its company has none, 404 before its profile is set up).
 * @access internal: the tenant id comes from a look-up that established its visibility
 */
export async function tenantCreditReport(ctx: ServiceContext, tenantId: string, self: string): Promise<CreditReport> {
  const [row] = await selectProfileRows(ctx.db, (eb) => eb.and([eb('p.tenantId', '=', tenantId), eb('p.environment', '=', ctx.environment)]), {
    withTradeReferences: true,
    limit: 1,
  });
  if (!row) throw new AppError('NOT_FOUND', 'The tenant has no profile yet');
  return creditReportOfRow(ctx, row, tenantId, self);
}

async function creditReportOfRow(ctx: ServiceContext, row: ProfileRow, tenantId: string, self: string): Promise<CreditReport> {
  const company = await registryCompanyOf(ctx, row);
  if (!company) throw AppError.unprocessable("The profile's company is not in the registry, so there is no credit report");
  const refusal = creditReportRefusal(company);
  if (refusal) throw AppError.unprocessable(refusal);
  return creditReportOf(await companyInformation(ctx, company, 'full'), company, { ...row, tenantId }, self, ctx.clock.now());
}

/**
 * PATCH /profile: companyInformation and financials merge; the sections sent replace theirs.
 * PUT /profile: the whole profile is replaced; sections left out are emptied.
 * Either way the registry's facts stay, and the registration number cannot change (422).
 */
export async function updateTenantProfile(
  ctx: ServiceContext,
  input: CheckedLater<TenantProfilePatch | TenantProfileReplace>,
  mode: 'patch' | 'put',
): Promise<BusinessProfile> {
  const actor = requireAccess(ctx, 'tenantProfile.write');
  const tenantId = await resolveTenantId(ctx, actor);
  const row = await findTenantProfileRow(ctx, actor, tenantId);
  const body = input();
  const number = body.companyInformation?.registrationNumber;
  if (number !== undefined && number.toUpperCase() !== row.registrationNumber) {
    throw AppError.unprocessable('The registration number of a set-up profile cannot change', [
      { pointer: '/companyInformation/registrationNumber', message: `must stay ${row.registrationNumber}` },
    ]);
  }
  const company = await registryCompanyOf(ctx, row);
  const facts = company ? registryFacts(await companyInformation(ctx, company, 'full'), creditReportRefusal(company) === null) : {};
  const { companyInformation: givenInfo, financials, ...sections } = body;
  const info = mode === 'patch' ? mergePatch(row.companyInformation, givenInfo ?? {}) : (givenInfo ?? {});
  const nextFinancials = mode === 'patch' ? mergePatch(row.financials, financials ?? {}) : (financials ?? {});
  const nextSections =
    mode === 'patch' ? sections : { properties: [], assets: [], assetsForSecurity: [], merchantCashAdvance: [], tradeReferences: [], ...sections };
  await ctx.db.$transaction(async (tx) => {
    await tx.profile.update({
      where: { id: row.id },
      data: {
        companyInformation: mergePatch(info, facts) as Prisma.InputJsonValue,
        financials: nextFinancials as Prisma.InputJsonValue,
        updatedAt: ctx.clock.now(),
      },
    });
    await writeSections(tx, row.id, nextSections);
  });
  return toBusinessProfile(await loadBusinessProfileRow(ctx, row.id));
}

function alreadySetUp(): AppError {
  return AppError.conflict('The tenant already has a profile; change it with PATCH or PUT /profile');
}

/** The tenant's profile with its trade references (the tenant is one the caller acts on: resolveTenantId), in one typed SQL statement. */
async function findTenantProfileRow(ctx: ServiceContext, actor: TenantActor, tenantId: string): Promise<ProfileRow> {
  const [row] = await selectProfileRows(ctx.db, (eb) => eb.and([eb('p.tenantId', '=', tenantId), visibleProfileWhere(ctx, actor)(eb)]), {
    withTradeReferences: true,
    limit: 1,
  });
  if (!row) throw new AppError('NOT_FOUND', 'The tenant has no profile yet: set it up with POST /profile');
  return row;
}

/** The row a Business V1 profile is answered from (with its trade references, which a ProfileRecord does not carry), just written by this service. */
async function loadBusinessProfileRow(ctx: ServiceContext, id: string): Promise<ProfileRow> {
  const [row] = await selectProfileRows(ctx.db, profileByIdWhere(id), { withTradeReferences: true, limit: 1 });
  if (!row) throw AppError.notFound('Profile');
  return row;
}

async function registryCompanyOf(ctx: ServiceContext, row: { registrationNumber: string | null; countryCode: string }): Promise<RegistryCompany | null> {
  return row.registrationNumber ? ctx.companies.find(row.registrationNumber, row.countryCode) : null;
}

function toBusinessProfile(row: ProfileRow): BusinessProfile {
  return {
    id: row.id,
    companyInformation: (row.companyInformation ?? {}) as BusinessProfile['companyInformation'],
    financials: (row.financials ?? {}) as BusinessProfile['financials'],
    ...readSections(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
