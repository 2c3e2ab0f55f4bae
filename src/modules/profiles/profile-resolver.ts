/**
 * Thin adapters: profile queries and mutations (mirroring the REST operations), and Tenant.profile.
 * Fields below a profile or tenant decide their own access row, batched over the parents of the request.
 */
import type { z } from 'zod';
import { Arg, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Kind, type GraphQLResolveInfo } from 'graphql';
import type { ServiceContext } from '../../kernel/context.js';
import * as profiles from './profile-service.js';
import type { ProfileRecord } from './profile-records.js';
import { checkLater, parseInput } from '../../kernel/validation.js';
import * as tenantProfiles from './tenant-profile-service.js';
import { loadBatched } from '../../infra/graphql/field-loaders.js';
import * as schemas from './profile-schemas.js';
import {
  BusinessProfile,
  CompanyInformationPatchInput,
  FinancialsPatchInput,
  Profile,
  Tenant,
  TenantProfileSetUpInput,
  TenantProfileUpdateInput,
} from './profile-types.js';

@Resolver(() => Profile)
export class ProfileResolver {
  @Query(() => Profile)
  profile(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<ProfileRecord> {
    return profiles.getProfile(ctx, uuid);
  }

  @Mutation(() => Profile, { description: 'POST /profiles/blank' })
  createBlankProfile(@Ctx() ctx: ServiceContext): Promise<ProfileRecord> {
    return profiles.createBlankProfile(ctx);
  }

  @Mutation(() => Profile, { description: 'POST /profiles/anonymous' })
  createAnonymousProfile(@Arg('countryCode', () => String) countryCode: string, @Ctx() ctx: ServiceContext): Promise<ProfileRecord> {
    return profiles.createAnonymousProfile(ctx, parseInput(schemas.AnonymousProfileBody, { countryCode }));
  }

  @Mutation(() => Profile, { description: 'PATCH /profiles/{uuid}/company: CompanyInformation (spec 2.1) merged in' })
  async patchProfileCompany(
    @Arg('uuid', () => ID) uuid: string,
    @Arg('input', () => CompanyInformationPatchInput) input: z.input<typeof schemas.CompanyInformationPatch>,
    @Ctx() ctx: ServiceContext,
  ): Promise<ProfileRecord> {
    return profiles.patchCompanyInformation(ctx, uuid, checkLater(schemas.CompanyInformationPatch, input));
  }

  @Mutation(() => Profile, { description: 'PATCH /profiles/{uuid}/financials: Financials (spec 2.1) merged in' })
  async patchProfileFinancials(
    @Arg('uuid', () => ID) uuid: string,
    @Arg('input', () => FinancialsPatchInput) input: z.input<typeof schemas.FinancialsPatch>,
    @Ctx() ctx: ServiceContext,
  ): Promise<ProfileRecord> {
    return profiles.patchFinancials(ctx, uuid, checkLater(schemas.FinancialsPatch, input));
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
    return tenantProfiles.setUpTenantProfile(ctx, checkLater(schemas.TenantProfileSetUp, input));
  }

  @Mutation(() => BusinessProfile, { description: 'PATCH /profile (replace: false) or PUT /profile (replace: true); returns the profile as stored' })
  updateTenantProfile(
    @Arg('input', () => TenantProfileUpdateInput) input: z.input<typeof schemas.TenantProfilePatch>,
    @Arg('replace', () => Boolean, { defaultValue: false }) replace: boolean,
    @Ctx() ctx: ServiceContext,
  ): Promise<tenantProfiles.BusinessProfile> {
    // The input type is PATCH's; PUT's one extra rule (companyInformation present) is TenantProfileReplace's.
    const body = replace ? checkLater(schemas.TenantProfileReplace, input) : checkLater(schemas.TenantProfilePatch, input);
    return tenantProfiles.updateTenantProfile(ctx, body, replace ? 'put' : 'patch');
  }
}

@Resolver(() => Tenant)
export class TenantProfileResolver {
  @FieldResolver(() => Profile, { nullable: true, description: "The tenant's business profile, once set up (access row Tenant.profile)" })
  profile(@Root() tenant: Tenant, @Ctx() ctx: ServiceContext, @Info() info: GraphQLResolveInfo): Promise<ProfileRecord | profiles.ProfileUuidOnly | null> {
    // `profile { uuid }` (the federated tenant read) reads the uuid column alone, not the profile and its sections.
    if (asksOnly(info, PROFILE_UUID_ONLY)) return loadBatched(ctx, 'Tenant.profile uuid', (ids) => profiles.profileUuidsOfTenants(ctx, ids), tenant.id);
    return loadBatched(ctx, 'Tenant.profile', (ids) => profiles.profilesOfTenants(ctx, ids), tenant.id);
  }
}

const PROFILE_UUID_ONLY = new Set(['uuid', '__typename']);

/** Whether every field asked below this one (in each place it is asked) is one of `fields`; a fragment counts as asking more. */
function asksOnly(info: GraphQLResolveInfo, fields: ReadonlySet<string>): boolean {
  return info.fieldNodes.every((node) =>
    (node.selectionSet?.selections ?? []).every((selection) => selection.kind === Kind.FIELD && fields.has(selection.name.value)),
  );
}
