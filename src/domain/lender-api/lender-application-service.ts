/**
 * The Lender Application API's reads (spec 4.5): a lender sees only its own applications, each as
 * the funding application document (spec 2.7) last sent to it. Acknowledgements, offers and
 * rejections arrive with the lender application issue.
 */
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { requireAccess } from '../identity/access-policy.js';
import { parseInput } from '../validation.js';

const ListQuery = z.object({ reference: z.string().trim().min(1, 'must not be empty').max(255).optional() });

export async function listLenderApplications(ctx: ServiceContext, query: unknown): Promise<unknown[]> {
  const actor = requireAccess(ctx, 'lenderApplications.list');
  const { reference } = parseInput(ListQuery, query ?? {}, 'Query');
  const rows = await ctx.db.lenderApplication.findMany({
    where: { lenderId: actor.lenderId, lender: { environment: ctx.environment }, ...(reference ? { reference } : {}) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { payload: true },
  });
  return rows.map((r) => r.payload);
}
