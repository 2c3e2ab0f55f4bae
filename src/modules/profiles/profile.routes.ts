/** The profiles module's REST rows: the tenant's profile (Business V1, Marketplace V2) and Marketplace V1 profiles. */
import type { Surface } from '../../kernel/access-policy.js';
import * as profiles from './profile-service.js';
import { PublicProfile, RestCreditReport, toPublicProfile } from './profile.rest.js';
import * as tenantProfiles from './tenant-profile-service.js';
import {
  AnonymousProfileBody,
  BusinessProfile,
  CompanyInformationPatch,
  FinancialsPatch,
  ProfileEnvelope,
  TenantProfilePatch,
  TenantProfileReplace,
  TenantProfileSetUp,
} from './profile-schemas.js';
import { OPTIONAL_KEYS, withoutNullKeys } from '../../kernel/rest/rest-bodies.js';
import { BASES, routeCheckedInOperation, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { COMPANY_PATCH, FINANCIALS_PATCH, TENANT_PROFILE_PATCH, TENANT_PROFILE_REPLACE, TENANT_PROFILE_SET_UP } from './profile.examples.js';

const TENANT_CREDENTIALS = 'Send a tenant token, or a platform token with `Service-tenant-id` naming the tenant (a master token is refused with 403).';

/** The tenant's profile (onboarding 5-6, Business V1 profile operations, Marketplace V2 /profile). */
const tenantProfileRoutes = (base: string, surface: Surface, prefix: string, updateStatus: number, withPut: boolean): RouteDefinition[] => [
  routeCheckedInOperation({
    method: 'post',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_setUp`,
    summary: "Set up a tenant's profile",
    description: `Onboarding step 5: creates the tenant's business profile from its company registration number. The registry's facts (name, type, incorporation, sector, score, credit limit, legal notices) are taken from the registry and win over the body's; the rest of the body is stored. An unknown number is a 404 naming \`/companyInformation/registrationNumber\`, and a tenant that has a profile already is a 409 (change it with PATCH or PUT). ${TENANT_CREDENTIALS}`,
    access: 'tenantProfile.write',
    example: { summary: 'ACME WIDGETS LIMITED, company number 09876543', body: TENANT_PROFILE_SET_UP },
    body: TenantProfileSetUp,
    response: BusinessProfile,
    successStatus: 201,
    surface,
    handle: async (ctx, req) => withoutNullKeys(await tenantProfiles.setUpTenantProfile(ctx, req.body), OPTIONAL_KEYS.profiles),
  }),
  route({
    method: 'get',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_get`,
    summary: "Get a tenant's profile and credit report",
    description: `Onboarding step 6: the whole profile in the credit report envelope (\`data\`, \`links\`, \`meta\`), its score, credit limit and legal notices read from the registry at each call. \`meta.creditReport\` says whether a credit report (and the credit widget) is available: only for a limited company with a valid registration number. No profile yet is a 404. ${TENANT_CREDENTIALS}`,
    access: 'tenantProfile.read',
    response: ProfileEnvelope,
    successStatus: 200,
    surface,
    handle: async (ctx) => withoutNullKeys(await tenantProfiles.getTenantProfile(ctx, `${base}/profile`), OPTIONAL_KEYS.profiles),
  }),
  route({
    method: 'get',
    path: `${base}/profile/credit-report`,
    operationId: `${prefix}ProfileController_getCreditReport`,
    summary: "Get a tenant's credit report",
    description: `The credit report of spec 2.5 alone: the company's name, type, sector, number, score (grade, changes), credit limit and legal notices. A company that is not a limited company with a well-formed registration number has none: 422 saying why. ${TENANT_CREDENTIALS}\n\nCompatibility: the dedicated endpoint the live platform announces; its \`GET /profile\` serves the same data.`,
    access: 'tenantProfile.read',
    response: RestCreditReport,
    successStatus: 200,
    surface,
    handle: async (ctx) => withoutNullKeys(await tenantProfiles.getCreditReport(ctx, `${base}/profile/credit-report`), OPTIONAL_KEYS.profiles),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_update`,
    summary: "Update a tenant's profile",
    description: `Changes part of the profile: \`companyInformation\` and \`financials\` are merged into the stored ones, each list section sent (properties, assets, assetsForSecurity, merchantCashAdvance, tradeReferences) replaces the stored list; the registry's facts stay. An empty body is a 400. ${TENANT_CREDENTIALS}`,
    access: 'tenantProfile.write',
    example: { summary: 'New figures and a trade reference', body: TENANT_PROFILE_PATCH },
    body: TenantProfilePatch,
    response: BusinessProfile,
    successStatus: updateStatus,
    surface,
    handle: async (ctx, req) => withoutNullKeys(await tenantProfiles.updateTenantProfile(ctx, req.body, 'patch'), OPTIONAL_KEYS.profiles),
  }),
  ...(withPut
    ? [
        routeCheckedInOperation({
          method: 'put',
          path: `${base}/profile`,
          operationId: `${prefix}ProfileController_replace`,
          summary: "Replace a tenant's profile",
          description: `Replaces the whole profile: sections left out are emptied, the registry's facts stay. ${TENANT_CREDENTIALS}`,
          access: 'tenantProfile.write',
          example: { summary: 'The profile with its factory and a machine', body: TENANT_PROFILE_REPLACE },
          body: TenantProfileReplace,
          response: BusinessProfile,
          successStatus: updateStatus,
          surface,
          handle: async (ctx, req) => withoutNullKeys(await tenantProfiles.updateTenantProfile(ctx, req.body, 'put'), OPTIONAL_KEYS.profiles),
        }),
      ]
    : []),
];

export const profileRoutes: RouteDefinition[] = [
  ...tenantProfileRoutes(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace', 200, false),
  ...tenantProfileRoutes(BASES.businessV1, 'businessV1', 'Business', 201, true),
  route({
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/anonymous`,
    operationId: 'ProfileController_createAnonymous',
    summary: 'Create an anonymous profile',
    description:
      'Creates an empty profile that no API key owns yet, for a business in the United Kingdom (`GB`) or South Africa (`ZA`); an API key claims it later with `PATCH …/set-ownership`.',
    access: 'profiles.create',
    example: { summary: 'A UK business', body: { countryCode: 'GB' } },
    body: AnonymousProfileBody,
    response: PublicProfile,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(toPublicProfile(await profiles.createAnonymousProfile(ctx, req.body)), OPTIONAL_KEYS.profiles),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/company`,
    operationId: 'ProfileController_patchCompany',
    summary: "Update a profile's company information",
    description:
      "Merges the CompanyInformation sent into the profile's (at least one property; unknown properties are a 400). A profile of another account is a 404.",
    access: 'profiles.write',
    example: { summary: 'Website, head count, VAT status and the main contact', body: COMPANY_PATCH },
    body: CompanyInformationPatch,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await profiles.patchCompanyInformation(ctx, req.params.uuid, req.body), OPTIONAL_KEYS.profiles),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/financials`,
    operationId: 'ProfileController_patchFinancials',
    summary: "Update a profile's financials",
    description:
      "Merges the Financials sent into the profile's (at least one property): annual figures as currency amounts, trading history, debtors. A profile of another account is a 404.",
    access: 'profiles.write',
    example: { summary: 'The latest filed accounts', body: FINANCIALS_PATCH },
    body: FinancialsPatch,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.patchFinancials(ctx, req.params.uuid, req.body),
  }),
  route({
    method: 'put',
    path: `${BASES.marketplaceV1}/profiles/:uuid/move/:targetApiKey`,
    operationId: 'ProfileController_move',
    summary: 'Move a profile to another API key',
    description:
      'Moves a profile created with a master key to another API key of the account, named by its public `keyPrefix` (`key_…`, from `GET /api/platform/v1/api-key`) or, as the live platform documents it, the key itself. Only the master key that owns the profile may move it (else 403); an unknown target is a 404.',
    access: 'profiles.move',
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.moveProfile(ctx, req.params.uuid, req.params.targetApiKey),
  }),
  route({
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/set-ownership`,
    operationId: 'ProfileController_setOwnership',
    summary: 'Claim an anonymous profile',
    description:
      "Makes the calling API key the owner of an anonymous profile (from `POST …/profiles/anonymous`). Claiming a profile the account owns already changes nothing; another account's profile is a 404.",
    access: 'profiles.claim',
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.setOwnership(ctx, req.params.uuid),
  }),
  route({
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/blank`,
    operationId: 'ProfileController_createBlank',
    summary: 'Create a profile',
    description: 'Creates an empty profile owned by the calling API key; fill it by answering a questionnaire or with `PATCH …/company` and `…/financials`.',
    access: 'profiles.create',
    response: PublicProfile,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx) => withoutNullKeys(toPublicProfile(await profiles.createBlankProfile(ctx)), OPTIONAL_KEYS.profiles),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid`,
    operationId: 'ProfileController_get',
    summary: 'Get a profile',
    description:
      'The profile (spec 2.2): company information, financials, persons, properties, assets, the eligibility request its answers make, and its legacy ids. A profile of another account is a 404.',
    access: 'profiles.read',
    response: PublicProfile,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(toPublicProfile(await profiles.getProfile(ctx, req.params.uuid)), OPTIONAL_KEYS.profiles),
  }),
];
