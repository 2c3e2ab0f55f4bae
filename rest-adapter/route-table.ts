/**
 * The REST surface as data: each documented method and path → one domain operation.
 * Handlers are adapters of a line or two; what they call is what the GraphQL resolvers call.
 * `surface` says which credentials the path's API recognises (401 for others, before the handler);
 * what each operation then needs is the access table (src/domain/identity/access-policy.ts).
 */
import * as applications from '../src/domain/applications/business-application-service.js';
import * as cases from '../src/domain/cases/case-service.js';
import * as companies from '../src/domain/companies/company-service.js';
import type { ServiceContext } from '../src/domain/context.js';
import * as lenderApplications from '../src/domain/lender-api/lender-application-service.js';
import * as submission from '../src/domain/lender-api/submission-service.js';
import type { Surface } from '../src/domain/identity/access-policy.js';
import * as apiKeys from '../src/domain/identity/api-key-service.js';
import { login } from '../src/domain/identity/login-service.js';
import * as tokens from '../src/domain/identity/token-service.js';
import * as users from '../src/domain/identity/user-service.js';
import * as applying from '../src/domain/matching/apply-service.js';
import * as documents from '../src/domain/documents/document-service.js';
import type { DocumentContent, UploadedFile } from '../src/domain/documents/document-service.js';
import * as matching from '../src/domain/matching/matching-service.js';
import { toFundingSearchBody } from '../src/domain/matching/funding-search.js';
import * as profileLinks from '../src/domain/profiles/profile-links.js';
import * as questionnaires from '../src/domain/questionnaires/questionnaire-service.js';
import * as profiles from '../src/domain/profiles/profile-service.js';
import { toPublicProfile } from '../src/domain/profiles/profile-records.js';
import * as tenantProfiles from '../src/domain/profiles/tenant-profile-service.js';
import * as tenants from '../src/domain/tenants/tenant-service.js';
import { z } from 'zod';
import { APPLICATION_VARIANT_FIELDS, applicationBodySchema } from '../src/domain/applications/application-variants.js';
import { ContinueBody, ContinueUrlQuery } from '../src/domain/applications/business-application-service.js';
import { LookupInput, SearchInput } from '../src/domain/companies/company-service.js';
import { CreateApiKeyBody, CreateUserBody, LoginBody, UpdateUserBody } from '../src/domain/identity/identity-schemas.js';
import { PlatformRefreshBody, V1RefreshBody } from '../src/domain/identity/token-service.js';
import { Acknowledgement, ListQuery, Rejection } from '../src/domain/lender-api/lender-application-service.js';
import { OfferBody } from '../src/domain/lender-api/offer-schemas.js';
import { IntegratorApplicationDocument } from '../src/domain/lender-api/funding-application-schemas.js';
import { ApplicationSubmission, SelectionSubmission } from '../src/domain/lender-api/submission-schemas.js';
import { SelectedLenders } from '../src/domain/matching/review-selection.js';
import { MatchQuery } from '../src/domain/matching/matching-service.js';
import { SelectedLender } from '../src/domain/matching/selection-schemas.js';
import { PreselectedOffer } from '../src/domain/offers/preselected-offer-schemas.js';
import { UrlSchemaQuery } from '../src/domain/profiles/profile-links.js';
import { AnonymousProfileBody, CompanyInformationPatch, FinancialsPatch, TenantProfilePatch, TenantProfileReplace, TenantProfileSetUp } from '../src/domain/profiles/profile-schemas.js';
import { CURRENCY_SCHEMA, type JsonSchema } from '../src/domain/questionnaires/answer-schema.js';
import { CreateTenantBody, PageQuery, TenantDto, UpdateTenantBody } from '../src/domain/tenants/tenant-schemas.js';
import { linkedPageOf, pageWithLinks } from './pagination.js';
import { OPTIONAL_KEYS, withOptionalKeys, withoutNullKeys } from './rest-bodies.js';

export const BASES = {
  marketplaceV1: '/api/marketplace/v1',
  marketplaceV2: '/api/marketplace/v2',
  businessV1: '/api/business/v1',
  platform: '/api/platform/v1',
  lenderApi: '/api/platform/v1/funding',
} as const;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** Client address (for login throttling). */
  ip: string;
  /** Path and query as requested, for pagination links. */
  originalUrl: string;
  /** The uploaded file of a multipart route (`upload: 'file'`). */
  file?: UploadedFile;
  /** What the route's `authorizeUpload` returned, before the body was read. */
  uploadTarget?: unknown;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Express path with :params, including its base. */
  path: string;
  operationId: string;
  summary: string;
  successStatus: number;
  /** The API whose bearer tokens this path takes; `public` paths authenticate by other means. */
  surface: Surface | 'public';
  /** multipart/form-data with one file in the field "file". */
  upload?: 'file';
  /**
   * Required with `upload`: the operation's access decision and the target's visibility, from the
   * headers and path alone, run before any byte of the body is read (its result reaches `handle`
   * as `req.uploadTarget`).
   */
  authorizeUpload?(ctx: ServiceContext, req: RestRequest): Promise<unknown>;
  /**
   * The schemas the operation validates its input with and shapes its answer by: the OpenAPI
   * document (openapi-document.ts) is generated from them, so it cannot drift from the code.
   */
  query?: z.ZodType;
  /** Request headers the operation reads (credentials aside), documented as header parameters. */
  headers?: Array<{ name: string; description: string; schema: z.ZodType }>;
  body?: z.ZodType;
  /** A body validated by a JSON Schema rather than zod (the answer variants). */
  jsonSchemaBody?: () => JsonSchema;
  response?: z.ZodType;
  /** The answer is a file (FileDownload) of one of these content types, not JSON. */
  download?: readonly string[];
  /** The route may answer 302 (Redirect). */
  redirects?: true;
  /**
   * A GET that records something (reads never write otherwise): what it records and when, shown in
   * the OpenAPI operation (`x-records` and its description). test/access-table.test.ts holds every
   * other GET to writing nothing.
   */
  records?: { what: string; description: string };
  handle(ctx: ServiceContext, req: RestRequest): Promise<unknown>;
}

/** A handler's answer that is a redirect (302) rather than a body. */
export class Redirect {
  constructor(readonly location: string) {}
}

/** A handler's answer that is a file, streamed with its type and name. */
export class FileDownload {
  constructor(readonly file: DocumentContent) {}
}

/** POST /applications: one of the answer variants, selected by `type` (application-variants.ts validates it). */
function businessApplicationBodySchema(): JsonSchema {
  return {
    // `type` may be left out (business-all-funding-products), so a body can fit several variants: anyOf.
    anyOf: Object.keys(APPLICATION_VARIANT_FIELDS).map((type) => {
      const { $schema: _s, $id: _i, $defs: _d, ...variant } = applicationBodySchema(type) as { properties: Record<string, unknown> } & JsonSchema;
      return { ...variant, title: type, properties: { type: { const: type }, ...variant.properties }, minProperties: 1 };
    }),
    $defs: { Currency: CURRENCY_SCHEMA },
  };
}

/** Answers: each questionnaire has its own schema, served at …/json-schema and validated against there. */
function answersBodySchema(): JsonSchema {
  return { type: 'object', description: "The answers, keyed by answer key; the questionnaire's JSON Schema (GET …/questionnaires/{questionnaireId}/json-schema) validates them" };
}

function header(req: RestRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const tenantRoutes = (base: string, surface: Surface, prefix: string, withList: boolean): RouteDefinition[] => [
  {
    method: 'post',
    path: `${base}/tenants`,
    operationId: `${prefix}TenantController_create`,
    summary: 'Create a tenant (onboarding step 4)',
    body: CreateTenantBody,
    response: TenantDto,
    successStatus: 201,
    surface,
    handle: (ctx, req) => tenants.createTenant(ctx, req.body),
  },
  ...(withList
    ? [
        {
          method: 'get',
          path: `${base}/tenants`,
          operationId: `${prefix}TenantController_list`,
          summary: "List the account's tenants (offset/limit, with self/prev/next links)",
          query: PageQuery,
          response: linkedPageOf(TenantDto),
          successStatus: 200,
          surface,
          handle: async (ctx, req) => pageWithLinks(await tenants.listTenants(ctx, req.query), req.originalUrl),
        } satisfies RouteDefinition,
      ]
    : []),
];

const refreshRoute = (base: string, prefix: string, kinds: Parameters<typeof tokens.refreshPlatformToken>[2]): RouteDefinition => ({
  method: 'post',
  path: `${base}/auth/refresh-token`,
  operationId: `${prefix}AuthController_refreshToken`,
  summary: 'Exchange a single-use refresh token for a new token pair',
  body: PlatformRefreshBody,
  successStatus: 201,
  surface: 'public',
  handle: (ctx, req) => tokens.refreshPlatformToken(ctx, req.body, kinds),
});

const tenantAuthorizeRoute = (base: string, surface: Surface, prefix: string): RouteDefinition => ({
  method: 'post',
  path: `${base}/auth/tenants/authorize`,
  operationId: `${prefix}AuthController_authorizeTenant`,
  summary: 'Master (or platform) token + Service-tenant-id → tenant token',
  successStatus: 201,
  surface,
  handle: (ctx) => tokens.issueTenantToken(ctx),
});

/** The tenant's profile (onboarding 5-6, Business V1 profile operations, Marketplace V2 /profile). */
const tenantProfileRoutes = (base: string, surface: Surface, prefix: string, updateStatus: number, withPut: boolean): RouteDefinition[] => [
  {
    method: 'post',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_setUp`,
    summary: "Set up the tenant's profile from the company registry (onboarding step 5)",
    body: TenantProfileSetUp,
    successStatus: 201,
    surface,
    handle: async (ctx, req) => withoutNullKeys(await tenantProfiles.setUpTenantProfile(ctx, req.body), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'get',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_get`,
    summary: "The tenant's profile in the credit report envelope (onboarding step 6)",
    successStatus: 200,
    surface,
    handle: async (ctx) => withoutNullKeys(await tenantProfiles.getTenantProfile(ctx, `${base}/profile`), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'get',
    path: `${base}/profile/credit-report`,
    operationId: `${prefix}ProfileController_getCreditReport`,
    summary: 'The credit report alone (limited companies; otherwise 422)',
    successStatus: 200,
    surface,
    handle: async (ctx) => withoutNullKeys(await tenantProfiles.getCreditReport(ctx, `${base}/profile/credit-report`), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'patch',
    path: `${base}/profile`,
    operationId: `${prefix}ProfileController_update`,
    summary: 'Update the profile: companyInformation and financials merge, sections sent replace',
    body: TenantProfilePatch,
    successStatus: updateStatus,
    surface,
    handle: async (ctx, req) => withoutNullKeys(await tenantProfiles.updateTenantProfile(ctx, req.body, 'patch'), OPTIONAL_KEYS.profiles),
  },
  ...(withPut
    ? [
        {
          method: 'put',
          path: `${base}/profile`,
          operationId: `${prefix}ProfileController_replace`,
          summary: 'Replace the profile (sections left out are emptied; registry facts stay)',
          body: TenantProfileReplace,
          successStatus: updateStatus,
          surface,
          handle: async (ctx, req) => withoutNullKeys(await tenantProfiles.updateTenantProfile(ctx, req.body, 'put'), OPTIONAL_KEYS.profiles),
        } satisfies RouteDefinition,
      ]
    : []),
];

const platformRoutes: RouteDefinition[] = [
  {
    method: 'post',
    path: `${BASES.platform}/auth/login`,
    operationId: 'PlatformAuthController_login',
    summary: 'Platform login: email and password → login token (onboarding step 1)',
    body: LoginBody,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => login(ctx, req.body, req.ip),
  },
  {
    method: 'post',
    path: `${BASES.platform}/auth/token`,
    operationId: 'PlatformAuthController_token',
    summary: 'X-API-Key → platform token, or a tenant token with Service-tenant-id (onboarding step 3)',
    successStatus: 201,
    surface: 'public',
    handle: (ctx, req) => tokens.issuePlatformToken(ctx, header(req, 'x-api-key')),
  },
  refreshRoute(BASES.platform, 'Platform', ['PLATFORM', 'TENANT']),
  tenantAuthorizeRoute(BASES.platform, 'platform', 'Platform'),
  {
    method: 'post',
    path: `${BASES.platform}/api-key`,
    operationId: 'PlatformApiKeyController_create',
    summary: 'Create an API key; the key is in this response only (onboarding step 2)',
    body: CreateApiKeyBody,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.createApiKey(ctx, req.body),
  },
  {
    method: 'get',
    path: `${BASES.platform}/api-key`,
    operationId: 'PlatformApiKeyController_list',
    summary: "List the account's API keys, without their secrets",
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => apiKeys.listApiKeys(ctx),
  },
  {
    method: 'delete',
    path: `${BASES.platform}/api-key/:keyId`,
    operationId: 'PlatformApiKeyController_revoke',
    summary: 'Revoke an API key and its refresh tokens',
    successStatus: 204,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.revokeApiKey(ctx, req.params.keyId),
  },
  ...tenantRoutes(BASES.platform, 'platform', 'Platform', true),
  {
    method: 'get',
    path: `${BASES.platform}/tenants/:tenantId`,
    operationId: 'PlatformTenantController_get',
    summary: 'Read one tenant (an extension: the live platform lists and patches tenants but has no by-id read)',
    response: TenantDto,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => tenants.getTenant(ctx, req.params.tenantId),
  },
  {
    method: 'patch',
    path: `${BASES.platform}/tenants/:tenantId`,
    operationId: 'PlatformTenantController_update',
    summary: "Change a tenant's referenceId",
    body: UpdateTenantBody,
    response: TenantDto,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => tenants.updateTenant(ctx, req.params.tenantId, req.body),
  },
  {
    method: 'post',
    path: `${BASES.platform}/review-selections/:selectionId/submit`,
    operationId: 'PlatformReviewController_submit',
    summary: 'Staff: submit a reviewed selection to its lenders',
    response: SelectionSubmission,
    successStatus: 201,
    surface: 'platform',
    handle: (ctx, req) => submission.submitReviewedSelection(ctx, req.params.selectionId ?? ''),
  },
  {
    method: 'get',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_list',
    summary: "List the account's platform users",
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => users.listUsers(ctx),
  },
  {
    method: 'post',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_create',
    summary: 'Add a platform user to the account (admins)',
    body: CreateUserBody,
    successStatus: 201,
    surface: 'platform',
    handle: (ctx, req) => users.createUser(ctx, req.body),
  },
  {
    method: 'get',
    path: `${BASES.platform}/users/:userId`,
    operationId: 'PlatformUserController_get',
    summary: 'Read one platform user of the account',
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => users.getUser(ctx, req.params.userId),
  },
  {
    method: 'patch',
    path: `${BASES.platform}/users/:userId`,
    operationId: 'PlatformUserController_update',
    summary: 'Change a platform user (self: name, password; admins: anyone, role, disabled)',
    body: UpdateUserBody,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => users.updateUser(ctx, req.params.userId, req.body),
  },
];

const marketplaceV2Routes: RouteDefinition[] = [
  {
    method: 'post',
    path: `${BASES.marketplaceV2}/auth/authorize`,
    operationId: 'MarketplaceAuthController_authorize',
    summary: 'X-API-Key → master token with refresh token',
    successStatus: 201,
    surface: 'public',
    handle: (ctx, req) => tokens.issueMasterToken(ctx, header(req, 'x-api-key')),
  },
  refreshRoute(BASES.marketplaceV2, 'Marketplace', ['MASTER']),
  tenantAuthorizeRoute(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace'),
  ...tenantRoutes(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace', true),
  ...tenantProfileRoutes(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace', 200, false),
];

/** The client's decision on a lender's offer, on the integrator surfaces. */
const decisionRoutes = (base: string, surface: Surface, prefix: string): RouteDefinition[] => [
  {
    method: 'post',
    path: `${base}/lender-applications/:applicationId/resubmit`,
    operationId: `${prefix}LenderApplicationController_resubmit`,
    summary: 'After a Failed answer and a fix: send the application again (a new delivery, rebuilt from the profile)',
    response: IntegratorApplicationDocument,
    successStatus: 200,
    surface,
    handle: (ctx, req) => lenderApplications.resubmit(ctx, req.params.applicationId),
  },
  ...(['accept', 'decline'] as const).map((decision) => ({
    method: 'post',
    path: `${base}/lender-applications/:applicationId/${decision}`,
    operationId: `${prefix}LenderApplicationController_${decision}`,
    summary: `The client ${decision}s the current offer; the lender's update webhook is told`,
    response: IntegratorApplicationDocument,
    successStatus: 200,
    surface,
    handle: (ctx: ServiceContext, req: RestRequest) => lenderApplications.decideOnOffer(ctx, req.params.applicationId, decision),
  }) satisfies RouteDefinition),
];

const businessV1Routes: RouteDefinition[] = [
  ...decisionRoutes(BASES.businessV1, 'businessV1', 'Business'),
  ...tenantRoutes(BASES.businessV1, 'businessV1', 'Business', false),
  {
    method: 'post',
    path: `${BASES.businessV1}/applications`,
    operationId: 'ApplicationController_create',
    summary: "Create an application (body: the answer variant named by type); it fills the tenant's profile",
    jsonSchemaBody: businessApplicationBodySchema,
    successStatus: 201,
    surface: 'businessV1',
    handle: async (ctx, req) => applications.toResponse(await applications.createApplication(ctx, req.body)),
  },
  {
    method: 'get',
    path: `${BASES.businessV1}/applications/validate-continue-url`,
    operationId: 'ApplicationSignUpController_validateContinueUrl',
    summary: 'Whether a continue URL is ours, for this application, and unexpired',
    query: ContinueUrlQuery,
    successStatus: 200,
    surface: 'businessV1',
    handle: (ctx, req) => applications.validateContinueUrl(ctx, req.query),
  },
  {
    method: 'post',
    path: `${BASES.businessV1}/applications/:applicationId/continue-url`,
    operationId: 'ApplicationSignUpController_generateContinueUrl',
    summary: 'A signed, expiring URL where the client continues the application ({clickId?} kept for attribution)',
    body: ContinueBody,
    successStatus: 201,
    surface: 'businessV1',
    handle: (ctx, req) => applications.generateContinueUrl(ctx, req.params.applicationId, req.body),
  },
  {
    method: 'post',
    path: `${BASES.businessV1}/applications/:applicationId/submit`,
    operationId: 'ApplicationController_submit',
    summary: 'Send the application to one of its matched lenders ({lenderId, products}); the lender receives it by webhook',
    body: SelectedLender,
    response: ApplicationSubmission,
    successStatus: 201,
    surface: 'businessV1',
    handle: (ctx, req) => submission.submitBusinessApplication(ctx, req.params.applicationId, req.body),
  },
  {
    method: 'get',
    path: `${BASES.businessV1}/applications/:applicationId/matches`,
    operationId: 'ApplicationController_getMatches',
    summary: "The application's lender matches (spec 2.6 match list)",
    successStatus: 200,
    surface: 'businessV1',
    handle: async (ctx, req) => withoutNullKeys(await applications.getApplicationMatches(ctx, req.params.applicationId), OPTIONAL_KEYS.matches),
  },
  {
    method: 'get',
    path: `${BASES.businessV1}/applications/:applicationId/pre-selected`,
    operationId: 'ApplicationController_getPreselectedOffers',
    summary: 'Indicative instant offers of the matched products that can offer instantly',
    response: z.array(withOptionalKeys(PreselectedOffer, OPTIONAL_KEYS.preselectedOffers)),
    successStatus: 200,
    surface: 'businessV1',
    handle: async (ctx, req) => withoutNullKeys(await applications.getPreselectedOffers(ctx, req.params.applicationId), OPTIONAL_KEYS.preselectedOffers),
  },
  ...tenantProfileRoutes(BASES.businessV1, 'businessV1', 'Business', 201, true),
];

const marketplaceV1Routes: RouteDefinition[] = [
  ...decisionRoutes(BASES.marketplaceV1, 'marketplaceV1', ''),
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/companies/search/:searchTerm`,
    operationId: 'CompanyController_search',
    summary: 'Companies by name (exact, prefix, then inside the name) or registration number; 10 unless limit (1-100)',
    query: SearchInput,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await companies.searchCompanies(ctx, req.params.searchTerm, req.query), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/companies/:registrationNumber`,
    operationId: 'CompanyController_get',
    summary: 'One company of the registry as CompanyInformation',
    query: LookupInput,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await companies.getCompany(ctx, req.params.registrationNumber, req.query), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/auth/authorize`,
    operationId: 'AuthController_authorize',
    summary: 'api_key (query) → { jwt, refreshToken }',
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => tokens.authorizeMarketplaceV1(ctx, req.query.api_key),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/auth/refresh-token`,
    operationId: 'AuthController_refreshToken',
    summary: '{ refreshToken } → a new { jwt, refreshToken } (single use)',
    body: V1RefreshBody,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => tokens.refreshMarketplaceV1(ctx, req.body),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/anonymous`,
    operationId: 'ProfileController_createAnonymous',
    summary: 'Create a profile without an owner ({countryCode: GB|ZA}); claim it with set-ownership',
    body: AnonymousProfileBody,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(toPublicProfile(await profiles.createAnonymousProfile(ctx, req.body)), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/company`,
    operationId: 'ProfileController_patchCompany',
    summary: "Merge CompanyInformation into the profile's",
    body: CompanyInformationPatch,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await profiles.patchCompanyInformation(ctx, req.params.uuid, req.body), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/financials`,
    operationId: 'ProfileController_patchFinancials',
    summary: "Merge Financials into the profile's",
    body: FinancialsPatch,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.patchFinancials(ctx, req.params.uuid, req.body),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/documents`,
    operationId: 'DocumentController_upload',
    summary: 'Attach a document (multipart field "file": PDF, PNG, JPEG, CSV without formulas, XLSX or DOCX, at most 10 MB; 413 past it)',
    successStatus: 201,
    surface: 'marketplaceV1',
    upload: 'file',
    authorizeUpload: (ctx, req) => documents.authorizeDocumentUpload(ctx, req.params.uuid),
    handle: (ctx, req) => documents.attachDocumentTo(ctx, req.uploadTarget as documents.DocumentUploadTarget, req.file),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/documents`,
    operationId: 'DocumentController_list',
    summary: "The profile's documents (without their content)",
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => documents.listDocuments(ctx, req.params.uuid),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/url-schemas/:type`,
    operationId: 'ProfileController_urlSchema',
    summary: 'A signed, expiring link to the profile funding-search page: { url }, or a 302 to it with redirect=true',
    query: UrlSchemaQuery,
    redirects: true,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => {
      const link = await profileLinks.profileUrl(ctx, req.params.uuid, { ...req.query, type: req.params.type });
      return link.redirect ? new Redirect(link.url) : { url: link.url };
    },
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/matches/count`,
    operationId: 'FundingController_countMatches',
    summary: 'How many lender products match the profile (?productTypes= filters)',
    query: MatchQuery,
    response: z.number().int(),
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => matching.countMatches(ctx, req.params.uuid, req.query),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/matches/results`,
    operationId: 'FundingController_matchResults',
    summary: 'The FundingSearch: matches by likelihood then cost (?productTypes=, ?explain=true for the reasons)',
    query: MatchQuery,
    successStatus: 200,
    surface: 'marketplaceV1',
    records: { what: 'funding search', description: 'A search with new inputs is recorded (its id is what an apply refers to) and becomes the profile\'s latest; repeating the latest search writes nothing.' },
    handle: async (ctx, req) => toFundingSearchBody(await matching.matchResults(ctx, req.params.uuid, req.query)),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/funding/apply`,
    operationId: 'FundingController_apply',
    summary: "1-4 preferred lenders among the profile's matches → the review queue (optional Idempotency-Key)",
    body: SelectedLenders,
    headers: [{ name: 'Idempotency-Key', description: 'Replays the first answer to this key; the key with another selection is a 409', schema: applying.IdempotencyKey }],
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => toFundingSearchBody(await applying.applyToLenders(ctx, req.params.uuid, req.body, header(req, 'idempotency-key'))),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/cases/apply`,
    operationId: 'CaseController_apply',
    summary: "Open a non-funding case (debt recovery, grants, R&D tax, credit improvement) for what the profile's answers ask",
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await cases.applyForCase(ctx, req.params.uuid), OPTIONAL_KEYS.cases),
  },
  {
    method: 'put',
    path: `${BASES.marketplaceV1}/profiles/:uuid/move/:targetApiKey`,
    operationId: 'ProfileController_move',
    summary: "Move a master key's profile to another key of the account (targetApiKey = the key's keyPrefix)",
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.moveProfile(ctx, req.params.uuid, req.params.targetApiKey),
  },
  {
    method: 'patch',
    path: `${BASES.marketplaceV1}/profiles/:uuid/set-ownership`,
    operationId: 'ProfileController_setOwnership',
    summary: 'Make the calling key the owner of an anonymous profile',
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => profiles.setOwnership(ctx, req.params.uuid),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/blank`,
    operationId: 'ProfileController_createBlank',
    summary: 'Create an empty profile owned by the calling key',
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx) => withoutNullKeys(toPublicProfile(await profiles.createBlankProfile(ctx)), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid`,
    operationId: 'ProfileController_get',
    summary: 'Read a profile of the calling account',
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(toPublicProfile(await profiles.getProfile(ctx, req.params.uuid)), OPTIONAL_KEYS.profiles),
  },
];

const answersPath = `${BASES.marketplaceV1}/questionnaires/:questionnaireId/profiles/:profileId/answers`;

const questionnaireRoutes: RouteDefinition[] = [
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires`,
    operationId: 'QuestionnaireController_list',
    summary: 'The eleven questionnaires with their questions',
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx) => questionnaires.listQuestionnaires(ctx),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:id`,
    operationId: 'QuestionnaireController_get',
    summary: 'One questionnaire with its questions',
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => questionnaires.getQuestionnaire(ctx, req.params.id),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:questionnaireId/json-schema`,
    operationId: 'QuestionnaireController_jsonSchema',
    summary: 'The answer body as a JSON Schema (draft 2020-12), the one answers are validated with',
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => questionnaires.getAnswerSchema(ctx, req.params.questionnaireId),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:questionnaireId/profiles/:profileId/json-schema`,
    operationId: 'QuestionnaireController_profileJsonSchema',
    summary: "The same schema with the profile's current values as defaults",
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.getProfileAnswerSchema(ctx, req.params.questionnaireId, req.params.profileId),
  },
  {
    method: 'put',
    path: answersPath,
    operationId: 'AnswerController_put',
    summary: 'All answers (every required one); they land in the profile',
    jsonSchemaBody: answersBodySchema,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.putAnswers(ctx, req.params.questionnaireId, req.params.profileId, req.body),
  },
  {
    method: 'patch',
    path: answersPath,
    operationId: 'AnswerController_patch',
    summary: 'Some answers, merged into the stored ones',
    jsonSchemaBody: answersBodySchema,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.patchAnswers(ctx, req.params.questionnaireId, req.params.profileId, req.body),
  },
  {
    method: 'get',
    path: answersPath,
    operationId: 'AnswerController_get',
    summary: 'The stored answers',
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.getAnswers(ctx, req.params.questionnaireId, req.params.profileId),
  },
  {
    method: 'delete',
    path: answersPath,
    operationId: 'AnswerController_delete',
    summary: 'Removes the answers named by answerKey (repeatable) and what they put in the profile',
    query: questionnaires.DeleteAnswersQuery,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.deleteAnswers(ctx, req.params.questionnaireId, req.params.profileId, req.query.answerKey),
  },
];

const lenderApiRoutes: RouteDefinition[] = [
  {
    method: 'get',
    path: `${BASES.lenderApi}/applications`,
    operationId: 'LenderApplicationController_list',
    summary: "The calling lender's funding applications (optional ?reference=)",
    query: ListQuery,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.listLenderApplications(ctx, req.query),
  },
  {
    method: 'get',
    path: `${BASES.lenderApi}/applications/:id`,
    operationId: 'LenderApplicationController_get',
    summary: 'One funding application of the calling lender (another lender’s: 404)',
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.getLenderApplication(ctx, req.params.id),
  },
  {
    method: 'get',
    path: `${BASES.lenderApi}/v1/funding/search/:id/document/:documentId`,
    operationId: 'LenderDocumentController_get',
    summary: 'A document attached to the lender’s application, with its content type and name',
    download: documents.DOCUMENT_CONTENT_TYPES,
    successStatus: 200,
    surface: 'lenderApi',
    handle: async (ctx, req) => new FileDownload(await documents.lenderDocument(ctx, req.params.id, req.params.documentId)),
  },
  {
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/acknowledgement`,
    operationId: 'LenderApplicationController_acknowledge',
    summary: 'Acknowledge: a reference, a comment, or both (until a quote or rejection); 200 the updated application',
    body: Acknowledgement,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.acknowledge(ctx, req.params.id, req.body),
  },
  {
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/offer`,
    operationId: 'LenderApplicationController_offer',
    summary: 'An offer with exactly one product object; replaces the current one; 200 the updated application',
    body: OfferBody,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.makeOffer(ctx, req.params.id, req.body),
  },
  {
    method: 'post',
    path: `${BASES.lenderApi}/applications/:id/rejection`,
    operationId: 'LenderApplicationController_reject',
    summary: 'Reason Failed (fixable, resubmittable) or a terminal rejection (e.g. Ineligible); 200 the updated application',
    body: Rejection,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx, req) => lenderApplications.reject(ctx, req.params.id, req.body),
  },
];

// The lender API's base lies under the platform base: its routes go first so they are matched first.
export const ROUTES: RouteDefinition[] = [
  ...lenderApiRoutes,
  ...platformRoutes,
  ...marketplaceV2Routes,
  ...businessV1Routes,
  ...marketplaceV1Routes,
  ...questionnaireRoutes,
];
