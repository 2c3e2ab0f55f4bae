/**
 * `npm run bench -- status-change`: what one lender status change costs in process, the path that
 * feeds end-to-end webhook delivery (bench/delivery.ts: each acknowledgement POST commits its
 * status change and its APPLICATION_UPDATED delivery). The use cases are called directly, as the
 * REST route calls them, so HTTP, the token and logging are left out: node CPU per call
 * (process.cpuUsage, which also counts pg's and Prisma's work in this process) and the statements
 * each call sends to PostgreSQL (counted at pg's client), for acknowledgements and offers, on
 * applications carrying the document submission stores.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { recordResults } from './results.js';
import { loadConfig } from '../src/kernel/config.js';
import { acknowledge, makeOffer } from '../src/modules/lender-applications/lender-application-service.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { startRuntime } from '../src/processes/runtime.js';
import { insertDemoLenders } from '../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { storedApplicationDocument, termLoanOffer } from '../test/support/lender-applications.js';
import type { Prisma } from '../src/generated/prisma/client.js';
import type { OfferBody } from '../src/modules/lender-applications/offer-schemas.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const CALLS = Number(process.env.BENCH_STATUS_CHANGES ?? 400);
const WARM_UP = Math.min(100, Math.ceil(CALLS / 4));

/** Every statement any pg client of this process sends (Prisma's adapter, Kysely). */
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  statements++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const dbName = `fg_bench_status_change_${process.pid}`;
await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
try {
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const runtime = await startRuntime(
    loadConfig({}, { DATABASE_URL: url, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:1' } as never),
    { prepareDatabase: false },
  );
  try {
    const db = runtime.database.prisma;
    await insertDemoLenders(db);
    const lender = await db.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
    await db.lender.update({
      where: { id: lender.id },
      data: { applicationUrl: 'http://127.0.0.1:1/hook', updateUrl: null, authorizationTokenKey: 'fgak_bench-status-change' },
    });
    const profile = await db.profile.create({ data: { environment: 'demo' } });
    const ctx = runtime.contextFor({ actor: { kind: 'lender', lenderId: lender.id, clientId: 'bench', scopes: ['lender'] } }, 'bench-status-change');
    const payload = storedApplicationDocument({ lenderId: lender.id }) as unknown as Prisma.InputJsonValue;
    const applications = async (count: number) =>
      (
        await db.lenderApplication.createManyAndReturn({
          data: Array.from({ length: count }, () => ({ lenderId: lender.id, profileId: profile.id, status: 'In Review', payload })),
          select: { id: true },
        })
      ).map((a) => a.id);

    /** Calls `call` once per new application (after a warm-up), one at a time: CPU and statements per call. */
    async function measure(label: string, call: (id: number, i: number) => Promise<unknown>) {
      for (const [i, id] of (await applications(WARM_UP)).entries()) await call(id, -1 - i);
      const ids = await applications(CALLS);
      const counted = statements;
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (const [i, id] of ids.entries()) await call(id, i);
      const wallMs = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const result = {
        label,
        cpuMsPerCall: (used.user + used.system) / 1000 / CALLS,
        wallMsPerCall: wallMs / CALLS,
        statementsPerCall: (statements - counted) / CALLS,
      };
      console.log(
        `${label}: ${result.cpuMsPerCall.toFixed(2)} ms CPU, ${result.wallMsPerCall.toFixed(2)} ms wall, ${result.statementsPerCall.toFixed(1)} statements per call (${CALLS} calls)`,
      );
      return result;
    }

    const acknowledged = await measure('acknowledgement (In Review, status unchanged)', (id) => acknowledge(ctx, id, () => ({ reference: `R-${id}` })));
    const offered = await measure('offer (In Review -> Offered)', (id) => makeOffer(ctx, id, () => termLoanOffer(`O-${id}`) as OfferBody));
    // With an Idempotency-Key: the key claimed and the answer kept; then a repeat answered from it (the difference of the two).
    const keyed = await measure('acknowledgement with Idempotency-Key', (id) => acknowledge(ctx, id, () => ({ reference: `R-${id}` }), `K-${id}`));
    const replayed = await measure('acknowledgement with Idempotency-Key, then its repeat', async (id) => {
      await acknowledge(ctx, id, () => ({ reference: `R-${id}` }), `K-${id}`);
      await acknowledge(ctx, id, () => ({ reference: `R-${id}` }), `K-${id}`);
    });
    recordResults(
      'status-change',
      [acknowledged, offered, keyed, replayed].map((r) => ({
        case: `in process: ${r.label}`,
        cpuMsPerRequest: r.cpuMsPerCall,
        value: r.statementsPerCall,
        unit: 'statements per call',
        note: `${CALLS} calls one at a time, each on its own application with a stored document; node CPU of the use case (no HTTP), ${r.wallMsPerCall.toFixed(2)} ms wall per call`,
      })),
    );
  } finally {
    await runtime.close();
  }
} finally {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
