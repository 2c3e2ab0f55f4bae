/**
 * The account's request log (integrator console): its recent requests, newest first, filtered by
 * status, route, credential and request id. An account sees its own entries only, in its
 * environment (`requestLogScope`). Entries are written by the HTTP layer (request-log-recorder.ts)
 * and purged by the worker past REQUEST_LOG_RETENTION_DAYS (`purgeRequestLog`).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput } from '../../kernel/validation.js';
import { LOGGED_CREDENTIAL_KINDS, RequestLogFilter, type RequestLogEntry, type RequestLogPage } from './request-log-schemas.js';

/** The entries a viewer sees: its account's, in this deployment's environment. */
function requestLogScope(ctx: ServiceContext, viewer: { accountId: string }): Prisma.RequestLogEntryWhereInput {
  return { accountId: viewer.accountId, environment: ctx.environment };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function credentialWhere(credential: string): Prisma.RequestLogEntryWhereInput {
  if ((LOGGED_CREDENTIAL_KINDS as readonly string[]).includes(credential)) return { credentialKind: credential };
  if (!UUID.test(credential)) return { id: -1n };
  const id = credential.toLowerCase();
  return { OR: [{ apiKeyId: id }, { userId: id }, { tenantId: id }] };
}

const OUTCOMES: Record<NonNullable<RequestLogFilter['outcome']>, Prisma.IntFilter> = {
  SUCCEEDED: { lt: 400 },
  FAILED: { gte: 400 },
  CLIENT_ERROR: { gte: 400, lt: 500 },
  SERVER_ERROR: { gte: 500 },
};

export async function listRequestLog(ctx: ServiceContext, input: unknown): Promise<RequestLogPage> {
  const actor = requireAccess(ctx, 'requestLog.read');
  const filter = parseInput(RequestLogFilter, input ?? {}, 'filter');
  const conditions: Prisma.RequestLogEntryWhereInput[] = [requestLogScope(ctx, actor)];
  if (filter.status !== undefined) conditions.push({ status: filter.status });
  if (filter.outcome) conditions.push({ status: OUTCOMES[filter.outcome] });
  if (filter.route) conditions.push({ route: { contains: filter.route, mode: 'insensitive' } });
  if (filter.credential) conditions.push(credentialWhere(filter.credential));
  if (filter.requestId) conditions.push({ requestId: filter.requestId });
  if (filter.before) conditions.push({ id: { lt: BigInt(filter.before) } });
  const rows = await ctx.db.requestLogEntry.findMany({ where: { AND: conditions }, orderBy: { id: 'desc' }, take: filter.first + 1 });
  const nodes = rows.slice(0, filter.first).map(toEntry);
  return { nodes, endCursor: rows.length > filter.first ? nodes[nodes.length - 1]!.id : null };
}

type Row = Awaited<ReturnType<Db['requestLogEntry']['findMany']>>[number];

function toEntry(row: Row): RequestLogEntry {
  return {
    id: row.id.toString(),
    requestId: row.requestId,
    method: row.method,
    route: row.route,
    status: row.status,
    latencyMs: row.latencyMs,
    credentialKind: row.credentialKind,
    apiKeyId: row.apiKeyId,
    userId: row.userId,
    tenantId: row.tenantId,
    problem: row.problem === null ? null : JSON.stringify(row.problem),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Deletes the entries older than `retentionDays` (the worker, on a timer), a bounded batch per
 * statement so one purge never holds a long lock; answers how many went.
 * @access internal: the worker's housekeeping, no caller's data is read
 */
export async function purgeRequestLog(db: Db, now: Date, retentionDays: number, batch = 5_000): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let purged = 0;
  for (;;) {
    const deleted =
      await db.$executeRaw`DELETE FROM request_log_entry WHERE id IN (SELECT id FROM request_log_entry WHERE "createdAt" < ${cutoff} LIMIT ${batch})`;
    purged += deleted;
    if (deleted < batch) return purged;
  }
}
