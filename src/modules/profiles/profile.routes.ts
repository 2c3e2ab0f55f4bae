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

/** The tenant's profile (onboarding 5-6, Business V1 profile operations, Marketplace V2 /profile). */
const tenantProfileRoutes = (base: string, surface: Surface, prefix: string, updateStatus: number, withPut: boolean): RouteDefinition[] => [
  routeCheckedInOperation({
    method: 'post',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_setUp`,
    summary: "Set up the tenant's profile from the company registry (onboarding step 5)",
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
    summary: "The tenant's profile in the credit report envelope (onboarding step 6)",
    response: ProfileEnvelope,
    successStatus: 200,
    surface,
    handle: async (ctx) => withoutNullKeys(await tenantProfiles.getTenantProfile(ctx, `${base}/profile`), OPTIONAL_KEYS.profiles),
  }),
  route({
    method: 'get',
    path: `${base}/profile/credit-report`,
    operationId: `${prefix}ProfileController_getCreditReport`,
    summary: 'The credit report alone (limited companies; otherwise 422)',
    response: RestCreditReport,
    successStatus: 200,
    surface,
    handle: async (ctx) => withoutNullKeys(await tenantProfiles.getCreditReport(ctx, `${base}/profile/credit-report`), OPTIONAL_KEYS.profiles),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_update`,
    summary: 'Update the profile: companyInformation and financials merge, sections sent replace',
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
          summary: 'Replace the profile (sections left out are emptied; registry facts stay)',
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
    summary: 'Create a profile without an owner ({countryCode: GB|ZA}); claim it with set-ownership',
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
    summary: "Merge CompanyInformation into the profile's",
    body: CompanyInformationPatch,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await profiles.patchCompanyInformation(ctx, req.params.uuid, req.body), OPTIONAL_KEYS.profiles),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/financials`,
    operationId: 'ProfileController_patchFinancials',
    summary: "Merge Financials into the profile's",
    body: FinancialsPatch,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.patchFinancials(ctx, req.params.uuid, req.body),
  }),
  route({
    method: 'put',
    path: `${BASES.marketplaceV1}/profiles/:uuid/move/:targetApiKey`,
    operationId: 'ProfileController_move',
    summary: "Move a master key's profile to another key of the account (targetApiKey = the key's keyPrefix)",
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.moveProfile(ctx, req.params.uuid, req.params.targetApiKey),
  }),
  route({
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/set-ownership`,
    operationId: 'ProfileController_setOwnership',
    summary: 'Make the calling key the owner of an anonymous profile',
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.setOwnership(ctx, req.params.uuid),
  }),
  route({
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/blank`,
    operationId: 'ProfileController_createBlank',
    summary: 'Create an empty profile owned by the calling key',
    response: PublicProfile,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx) => withoutNullKeys(toPublicProfile(await profiles.createBlankProfile(ctx)), OPTIONAL_KEYS.profiles),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid`,
    operationId: 'ProfileController_get',
    summary: 'Read a profile of the calling account',
    response: PublicProfile,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(toPublicProfile(await profiles.getProfile(ctx, req.params.uuid)), OPTIONAL_KEYS.profiles),
  }),
];
