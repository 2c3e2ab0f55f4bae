/**
 * Thin adapters: profile queries and mutations (mirroring the REST operations), and Tenant.profile.
 * Fields below a profile or tenant decide their own access row, batched over the parents of the request.
 */
import { GraphQLJSONObject } from 'graphql-scalars';
import type { z } from 'zod';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ServiceContext } from '../../src/domain/context.js';
import * as cases from '../../src/domain/cases/case-service.js';
import * as documents from '../../src/domain/documents/document-service.js';
import { profileUrl } from '../../src/domain/profiles/profile-links.js';
import * as profiles from '../../src/domain/profiles/profile-service.js';
import type { ProfileRecord } from '../../src/domain/profiles/profile-records.js';
import * as tenantProfiles from '../../src/domain/profiles/tenant-profile-service.js';
import { Case } from './case-types.js';
import { loadBatched } from '../shared/field-loaders.js';
import type * as schemas from '../../src/domain/profiles/profile-schemas.js';
import {
  Asset,
  AssetSecurity,
  BusinessProfile,
  CompanyInformationPatchInput,
  FinancialsPatchInput,
  MerchantCashAdvanceData,
  Person,
  Profile,
  ProfileDocument,
  ProfileLegacy,
  ProfileUrl,
  Property,
  Tenant,
  TenantProfileSetUpInput,
  TenantProfileUpdateInput,
} from './profile-types.js';

type Json = Record<string, unknown>;

@Resolver(() => Profile)
export class ProfileResolver {
  @Query(() => Profile)
  profile(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<ProfileRecord> {
    return profiles.getProfile(ctx, uuid);
  }

  @Query(() => ProfileUrl, { description: 'A signed link to the profile funding-search page (url-schemas/funding-search)' })
  async profileFundingSearchUrl(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<ProfileUrl> {
    return { url: (await profileUrl(ctx, uuid, { type: 'funding-search' })).url };
  }

  // The rest of the public profile (spec 2.2), from the record the profile was read as.
  @FieldResolver(() => ProfileLegacy)
  legacy(@Root() profile: ProfileRecord): ProfileLegacy {
    return profile.legacy;
  }

  @FieldResolver(() => GraphQLJSONObject, {
    description:
      'Free-form JSON: the questionnaires\' answers as spec 2.2 nests them (shared, recovery, termLoan, ...); which keys exist depends on the questionnaires answered, and their JSON Schemas (questionnaireJsonSchema) describe them',
  })
  eligibilityRequest(@Root() profile: ProfileRecord): Json {
    return profile.eligibilityRequest;
  }

  @FieldResolver(() => [Person])
  persons(@Root() profile: ProfileRecord): unknown[] {
    return profile.persons;
  }

  @FieldResolver(() => [Property])
  properties(@Root() profile: ProfileRecord): unknown[] {
    return profile.properties;
  }

  @FieldResolver(() => [Asset])
  assets(@Root() profile: ProfileRecord): unknown[] {
    return profile.assets;
  }

  @FieldResolver(() => [AssetSecurity])
  assetsForSecurity(@Root() profile: ProfileRecord): unknown[] {
    return profile.assetsForSecurity;
  }

  @FieldResolver(() => [MerchantCashAdvanceData])
  merchantCashAdvance(@Root() profile: ProfileRecord): unknown[] {
    return profile.merchantCashAdvance;
  }

  @Query(() => [ProfileDocument], {
    description:
      "A visible profile's documents, by uuid (GET …/documents): for callers holding profile:write alone. Profile.documents answers the same with its own row (profile:write) on a profile the caller reads",
  })
  profileDocuments(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<documents.DocumentDto[]> {
    return documents.listDocuments(ctx, uuid);
  }

  @FieldResolver(() => [ProfileDocument], { description: "The profile's documents (access row Profile.documents: profile:write)" })
  documents(@Root() profile: Profile, @Ctx() ctx: ServiceContext): Promise<documents.DocumentDto[]> {
    return loadBatched(ctx, 'Profile.documents', (ids) => documents.documentsOfProfiles(ctx, ids), profile.uuid);
  }

  @Mutation(() => ProfileDocument, { description: 'Attach a document (base64 content; PDF, PNG, JPEG, CSV, XLSX or DOCX, at most 10 MB)' })
  attachDocument(
    @Arg('profileId', () => ID) profileId: string,
    @Arg('fileName', () => String) fileName: string,
    @Arg('contentType', () => String) contentType: string,
    @Arg('contentBase64', () => String) contentBase64: string,
    @Ctx() ctx: ServiceContext,
  ): Promise<documents.DocumentDto> {
    return documents.attachDocument(ctx, profileId, { fileName, contentType, content: Buffer.from(contentBase64, 'base64') });
  }

  @FieldResolver(() => [Case], { description: "The profile's non-funding cases, with their state history (access row Profile.cases)" })
  cases(@Root() profile: Profile, @Ctx() ctx: ServiceContext): Promise<cases.CaseDto[]> {
    return loadBatched(ctx, 'Profile.cases', (ids) => cases.casesOfProfiles(ctx, ids), profile.uuid);
  }

  @Mutation(() => Case, { description: 'POST /profiles/{uuid}/cases/apply' })
  applyForCase(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<cases.CaseDto> {
    return cases.applyForCase(ctx, uuid);
  }

  @Mutation(() => Profile, { description: 'POST /profiles/blank' })
  createBlankProfile(@Ctx() ctx: ServiceContext): Promise<ProfileRecord> {
    return profiles.createBlankProfile(ctx);
  }

  @Mutation(() => Profile, { description: 'POST /profiles/anonymous' })
  createAnonymousProfile(@Arg('countryCode', () => String) countryCode: string, @Ctx() ctx: ServiceContext): Promise<ProfileRecord> {
    return profiles.createAnonymousProfile(ctx, { countryCode });
  }

  @Mutation(() => Profile, { description: 'PATCH /profiles/{uuid}/company: CompanyInformation (spec 2.1) merged in' })
  async patchProfileCompany(
    @Arg('uuid', () => ID) uuid: string,
    @Arg('input', () => CompanyInformationPatchInput) input: z.input<typeof schemas.CompanyInformationPatch>,
    @Ctx() ctx: ServiceContext,
  ): Promise<ProfileRecord> {
    return profiles.patchCompanyInformation(ctx, uuid, input);
  }

  @Mutation(() => Profile, { description: 'PATCH /profiles/{uuid}/financials: Financials (spec 2.1) merged in' })
  async patchProfileFinancials(
    @Arg('uuid', () => ID) uuid: string,
    @Arg('input', () => FinancialsPatchInput) input: z.input<typeof schemas.FinancialsPatch>,
    @Ctx() ctx: ServiceContext,
  ): Promise<ProfileRecord> {
    return profiles.patchFinancials(ctx, uuid, input);
  }

  @Mutation(() => Profile, { description: 'PATCH /profiles/{uuid}/set-ownership' })
  async setProfileOwnership(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<ProfileRecord> {
    return profiles.setOwnership(ctx, uuid);
  }

  @Mutation(() => Boolean, { description: 'PUT /profiles/{uuid}/move/{targetApiKey} (targetApiKey = keyPrefix)' })
  async moveProfile(
    @Arg('uuid', () => ID) uuid: string,
    @Arg('targetApiKey', () => String) targetApiKey: string,
    @Ctx() ctx: ServiceContext,
  ): Promise<boolean> {
    await profiles.moveProfile(ctx, uuid, targetApiKey);
    return true;
  }

  @Mutation(() => BusinessProfile, { description: 'POST /profile: set up the tenant profile (Business V1 profile body); returns it as stored' })
  setUpTenantProfile(
    @Arg('input', () => TenantProfileSetUpInput) input: z.input<typeof schemas.TenantProfileSetUp>,
    @Ctx() ctx: ServiceContext,
  ): Promise<tenantProfiles.BusinessProfile> {
    return tenantProfiles.setUpTenantProfile(ctx, input);
  }

  @Mutation(() => BusinessProfile, { description: 'PATCH /profile (replace: false) or PUT /profile (replace: true); returns the profile as stored' })
  updateTenantProfile(
    @Arg('input', () => TenantProfileUpdateInput) input: z.input<typeof schemas.TenantProfilePatch>,
    @Arg('replace', () => Boolean, { defaultValue: false }) replace: boolean,
    @Ctx() ctx: ServiceContext,
  ): Promise<tenantProfiles.BusinessProfile> {
    return tenantProfiles.updateTenantProfile(ctx, input, replace ? 'put' : 'patch');
  }
}

@Resolver(() => Tenant)
export class TenantProfileResolver {
  @FieldResolver(() => Profile, { nullable: true, description: "The tenant's business profile, once set up (access row Tenant.profile)" })
  profile(@Root() tenant: Tenant, @Ctx() ctx: ServiceContext): Promise<ProfileRecord | null> {
    return loadBatched(ctx, 'Tenant.profile', (ids) => profiles.profilesOfTenants(ctx, ids), tenant.id);
  }
}
