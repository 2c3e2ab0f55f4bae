/**
 * Business profiles: where reading a profile is decided. The profiles issue adds creation,
 * patches, ownership and the credit report here.
 */
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';

export interface ProfileSummary {
  uuid: string;
  tenantId: string | null;
  countryCode: string;
  registrationNumber: string | null;
  companyName: string | null;
  createdAt: string;
  updatedAt: string;
}

interface ProfileRow {
  id: string;
  tenantId: string | null;
  countryCode: string;
  registrationNumber: string | null;
  companyInformation: unknown;
  createdAt: Date;
  updatedAt: Date;
}

function toSummary(row: ProfileRow): ProfileSummary {
  const info = (row.companyInformation ?? {}) as { name?: unknown };
  return {
    uuid: row.id,
    tenantId: row.tenantId,
    countryCode: row.countryCode,
    registrationNumber: row.registrationNumber,
    companyName: typeof info.name === 'string' ? info.name : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const ProfileUuid = z.uuid({ message: 'must be a uuid' });

export async function getProfile(ctx: ServiceContext, uuid: unknown): Promise<ProfileSummary> {
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const row = await ctx.db.profile.findFirst({ where: { id, environment: ctx.environment } });
  if (!row) throw AppError.notFound('Profile');
  return toSummary(row);
}

/** The tenant's one profile, or null before it is set up. */
export async function findTenantProfile(ctx: ServiceContext, tenantId: string): Promise<ProfileSummary | null> {
  const row = await ctx.db.profile.findFirst({ where: { tenantId, environment: ctx.environment } });
  return row ? toSummary(row) : null;
}
