/** Business V1 applications: where reading a profile's applications is decided (creation arrives with matching). */
import type { ServiceContext } from '../context.js';
import { requireAccess } from '../identity/access-policy.js';
import { visibleTo } from '../profiles/profile-service.js';

export interface BusinessApplicationSummary {
  id: string;
  type: string;
  createdAt: string;
}

export async function listProfileApplications(
  ctx: ServiceContext,
  profileUuid: string,
): Promise<BusinessApplicationSummary[]> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const rows = await ctx.db.businessApplication.findMany({
    where: { profileId: profileUuid, profile: { AND: [{ environment: ctx.environment }, visibleTo(actor)] } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, type: true, createdAt: true },
  });
  return rows.map((r) => ({ id: r.id, type: r.type, createdAt: r.createdAt.toISOString() }));
}
