/**
 * Every visibility rule that has more than one form says the same in each, over generated callers
 * (every token kind, accounts with and without rows, tenants, lenders, staff and not, both
 * environments) and generated rows, on PostgreSQL:
 *   - profiles: the Prisma filter (`visibleProfiles`) and the typed SQL reads' Kysely filter (`visibleProfileWhere`);
 *   - owned profiles: `ownedProfiles` and the event channels (`ownedProfileChannelOf` / `…ChannelsOf`),
 *     and owning is never more than seeing;
 *   - tenants: `tenantScope` as a Prisma filter and as the typed SQL reads' Kysely filter, and the tenant channels;
 *   - lender applications: `lenderApplicationScope` and the channels a change is published on;
 *   - the subscription fan-out's audience key leaves out only what no rule reads.
 * Each run inserts its rows in a transaction that is rolled back, so runs do not see each other's.
 *
 * Channels name ids that belong to one environment (accounts, tenants, lenders, applications), the
 * staff channel carries its environment: so "heard" is compared with "seen" over the rows of the
 * caller's environment.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../src/generated/prisma/client.js';
import type { DeployEnvironment, ServiceContext } from '../src/kernel/context.js';
import { visibilityKeyOf, type Actor, type AuthenticatedActor } from '../src/kernel/actor.js';
import {
  eventChannelOf,
  eventChannelsOf,
  lenderApplicationListScope,
  lenderApplicationScope,
  lenderApplicationSqlScope,
  type ApplicationViewer,
} from '../src/modules/lender-applications/lender-application-visibility.js';
import {
  ownedProfileChannelOf,
  ownedProfileChannelsOf,
  ownedProfiles,
  visibleProfiles,
  visibleProfileWhere,
  type ProfileOwnerViewer,
  type ProfileViewer,
} from '../src/modules/profiles/profile-visibility.js';
import { tenantChannelOf, tenantChannelsOf, tenantScope, type TenantViewer } from '../src/modules/tenants/tenant-visibility.js';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable } from 'kysely';
import type { DB } from '../src/infra/sql-reads.js';
import { openDatabase, readsOf, type Database } from '../src/infra/database.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const ENVIRONMENTS = ['demo', 'production'] as const satisfies readonly DeployEnvironment[];
const ACCOUNTS = 3;

let testDatabase: TestDatabase;
let database: Database;
/** Account ids (the last one names no account: a caller whose account has nothing). */
let accounts: string[];
/** One lender per environment. */
let lenders: Array<{ id: number; environment: DeployEnvironment }>;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await openDatabase({ databaseUrl: testDatabase.url, dataDir: '', poolSize: 2, migrate: false });
  const db = database.prisma;
  accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push((await db.account.create({ data: { name: `visibility ${i}`, environment: ENVIRONMENTS[i % 2] } })).id);
  accounts.push(randomUUID());
  lenders = [];
  for (const environment of ENVIRONMENTS) {
    const row = await db.lender.create({
      data: {
        environment,
        name: `Visibility ${environment}`,
        slug: `visibility-${randomUUID().slice(0, 8)}`,
        applicationUrl: 'https://lender.invalid/applications',
      },
    });
    lenders.push({ id: row.id, environment });
  }
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

// ------------------------------------------------------------------------------- generated rows

const environment = fc.constantFrom(...ENVIRONMENTS);
/** An account row (by index into `accounts`), or none as often as any one account: anonymous rows are what rules most often get wrong. */
const ownerAccount = fc.constantFrom(null, ...Array.from({ length: ACCOUNTS }, (_, i) => i));
const tenantPick = fc.constantFrom(null, null, 0, 1, 2, 3, 4);

interface WorldSpec {
  tenants: Array<{ account: number | null; environment: DeployEnvironment }>;
  profiles: Array<{ owner: number | null; tenant: number | null; environment: DeployEnvironment }>;
  applications: Array<{ lender: number; profile: number }>;
}

const worldSpec: fc.Arbitrary<WorldSpec> = fc.record({
  tenants: fc.array(fc.record({ account: ownerAccount, environment }), { maxLength: 5 }),
  profiles: fc.array(fc.record({ owner: ownerAccount, tenant: tenantPick, environment }), { maxLength: 8 }),
  applications: fc.array(fc.record({ lender: fc.nat({ max: ENVIRONMENTS.length - 1 }), profile: fc.nat({ max: 7 }) }), { maxLength: 8 }),
});

interface World {
  tenants: Array<{ id: string; accountId: string | null; environment: DeployEnvironment }>;
  profiles: Array<{
    id: string;
    ownerAccountId: string | null;
    tenantId: string | null;
    environment: DeployEnvironment;
    tenant: { accountId: string | null } | null;
  }>;
  applications: Array<{ id: number; lenderId: number; lender: { environment: DeployEnvironment }; profile: World['profiles'][number] }>;
}

async function insertWorld(tx: Prisma.TransactionClient, spec: WorldSpec): Promise<World> {
  const tenants: World['tenants'] = [];
  for (const t of spec.tenants) {
    const accountId = t.account === null ? null : accounts[t.account]!;
    tenants.push({ id: (await tx.tenant.create({ data: { accountId, environment: t.environment } })).id, accountId, environment: t.environment });
  }
  const profiles: World['profiles'] = [];
  const taken = new Set<string>();
  for (const p of spec.profiles) {
    // One profile per tenant: a second one for the same tenant is left without.
    const tenant = p.tenant === null ? undefined : tenants[p.tenant];
    const tenantId = tenant && !taken.has(tenant.id) ? tenant.id : null;
    if (tenantId) taken.add(tenantId);
    const ownerAccountId = p.owner === null ? null : accounts[p.owner]!;
    const row = await tx.profile.create({ data: { ownerAccountId, tenantId, environment: p.environment } });
    profiles.push({ id: row.id, ownerAccountId, tenantId, environment: p.environment, tenant: tenantId ? { accountId: tenant!.accountId } : null });
  }
  const applications: World['applications'] = [];
  for (const a of spec.applications) {
    const profile = profiles[a.profile % Math.max(profiles.length, 1)];
    if (!profile) break;
    const lender = lenders[a.lender]!;
    const row = await tx.lenderApplication.create({ data: { lenderId: lender.id, profileId: profile.id, status: 'In Review' } });
    applications.push({ id: row.id, lenderId: lender.id, lender: { environment: lender.environment }, profile });
  }
  return { tenants, profiles, applications };
}

// ----------------------------------------------------------------------------- generated callers

const KINDS = ['login', 'platform', 'master', 'tenant', 'marketplace_v1', 'lender'] as const;

/** What the callers of one run have in common; each run checks one caller of every kind (login both staff and not). */
interface CallerSpec {
  account: number;
  /** The tenant of a tenant token: one of the world's (by index), or none that exists. */
  tenant: number | null;
  lender: number;
  staff: boolean;
  environment: DeployEnvironment;
}

const callerSpec: fc.Arbitrary<CallerSpec> = fc.record({
  account: fc.nat({ max: ACCOUNTS }),
  tenant: tenantPick,
  lender: fc.nat({ max: ENVIRONMENTS.length - 1 }),
  staff: fc.boolean(),
  environment,
});

function callersOf(spec: CallerSpec, world: World): AuthenticatedActor[] {
  return [...KINDS.map((kind) => callerOf(kind, spec, world)), callerOf('login', { ...spec, staff: !spec.staff }, world)];
}

/** A caller as authenticate.ts builds it; a tenant token is of one of its account's tenants, as issued. */
function callerOf(kind: (typeof KINDS)[number], spec: CallerSpec, world: World): AuthenticatedActor {
  const accountId = accounts[spec.account]!;
  const credential = { apiKeyId: randomUUID(), scopes: [] as string[], refreshFamilyId: randomUUID() };
  switch (kind) {
    case 'login':
      return { kind: 'login', accountId, userId: randomUUID(), role: spec.staff ? 'STAFF' : 'MEMBER', sessionEpoch: 0, scopes: spec.staff ? ['staff'] : [] };
    case 'platform':
    case 'master':
    case 'marketplace_v1':
      return { kind, accountId, ...credential };
    case 'tenant': {
      const tenant = spec.tenant === null ? undefined : world.tenants[spec.tenant];
      return { kind: 'tenant', accountId: tenant?.accountId ?? accountId, tenantId: tenant?.id ?? randomUUID(), ...credential };
    }
    case 'lender':
      return { kind: 'lender', lenderId: lenders[spec.lender]!.id, clientId: randomUUID(), scopes: [] };
  }
}

/**
 * The typed SQL reads' query builder, compiling only: a Kysely form of a rule runs here inside the
 * world's rolled-back Prisma transaction, which the reads' own pool could not see.
 */
const sqlForms = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
function runCompiled<R>(tx: Prisma.TransactionClient, query: Compilable<R>): Promise<R[]> {
  const { sql, parameters } = query.compile();
  return tx.$queryRawUnsafe<R[]>(sql, ...parameters);
}

const contextIn = (environment: DeployEnvironment) => ({ environment }) as ServiceContext;
const sorted = <T>(values: Iterable<T>) => [...values].sort();

const isProfileViewer = (a: Actor): a is ProfileViewer => a.kind === 'marketplace_v1' || a.kind === 'platform' || a.kind === 'tenant';
const isProfileOwnerViewer = (a: Actor): a is ProfileOwnerViewer => isProfileViewer(a) || a.kind === 'master' || a.kind === 'login';
const isTenantViewer = (a: Actor): a is Extract<TenantViewer, { kind: 'platform' | 'master' | 'tenant' }> =>
  a.kind === 'platform' || a.kind === 'master' || a.kind === 'tenant';

/** Runs `check` on a generated world inside a transaction that is always rolled back. */
async function inWorld(spec: WorldSpec, check: (tx: Prisma.TransactionClient, world: World) => Promise<void>): Promise<void> {
  const rollback = new Error('rollback');
  await database.prisma
    .$transaction(
      async (tx) => {
        await check(tx, await insertWorld(tx, spec));
        throw rollback;
      },
      { timeout: 30_000 },
    )
    .catch((err: unknown) => {
      if (err !== rollback) throw err;
    });
}

const RUNS = { numRuns: 60 };

// --------------------------------------------------------------------------------------- rules

describe('each visibility rule says the same in every form it takes', () => {
  it('profiles: the Prisma filter and the SQL select the same rows; owning is never more than seeing', async () => {
    await fc.assert(
      fc.asyncProperty(worldSpec, callerSpec, async (spec, caller) => {
        await inWorld(spec, async (tx, world) => {
          const ctx = contextIn(caller.environment);
          const ids = world.profiles.map((p) => p.id);
          for (const actor of callersOf(caller, world).filter(isProfileViewer)) {
            const byPrisma = await tx.profile.findMany({ where: { AND: [{ id: { in: ids } }, visibleProfiles(ctx, actor)] }, select: { id: true } });
            const bySql = await runCompiled(
              tx,
              sqlForms
                .selectFrom('profile as p')
                .select('p.id')
                .where('p.id', 'in', ids.length ? ids : [randomUUID()])
                .where(visibleProfileWhere(ctx, actor)),
            );
            expect(sorted(bySql.map((r) => r.id)), actor.kind).toEqual(sorted(byPrisma.map((r) => r.id)));
            const owned = await tx.profile.findMany({ where: { AND: [{ id: { in: ids } }, ownedProfiles(ctx, actor)] }, select: { id: true } });
            const seen = new Set(byPrisma.map((r) => r.id));
            expect(
              owned.filter((r) => !seen.has(r.id)),
              actor.kind,
            ).toEqual([]);
          }
        });
      }),
      RUNS,
    );
  });

  it("owned profiles: the caller's channel is among a profile's channels exactly when the caller owns it", async () => {
    await fc.assert(
      fc.asyncProperty(worldSpec, callerSpec, async (spec, caller) => {
        await inWorld(spec, async (tx, world) => {
          const ctx = contextIn(caller.environment);
          const ids = world.profiles.map((p) => p.id);
          for (const actor of callersOf(caller, world).filter(isProfileOwnerViewer)) {
            const owned = await tx.profile.findMany({ where: { AND: [{ id: { in: ids } }, ownedProfiles(ctx, actor)] }, select: { id: true } });
            const channel = ownedProfileChannelOf(actor);
            const hearing = world.profiles.filter((p) => p.environment === caller.environment && ownedProfileChannelsOf(p).includes(channel));
            expect(sorted(hearing.map((p) => p.id)), actor.kind).toEqual(sorted(owned.map((r) => r.id)));
          }
        });
      }),
      RUNS,
    );
  });

  it('tenants: the Prisma filter, the SQL and the channels name the same tenants (API keys included)', async () => {
    await fc.assert(
      fc.asyncProperty(worldSpec, callerSpec, async (spec, caller) => {
        await inWorld(spec, async (tx, world) => {
          const ctx = contextIn(caller.environment);
          const ids = world.tenants.map((t) => t.id);
          const viewers: TenantViewer[] = [{ kind: 'api_key', accountId: accounts[caller.account]! }, ...callersOf(caller, world).filter(isTenantViewer)];
          for (const viewer of viewers) {
            const byPrisma = await tx.tenant.findMany({ where: { AND: [{ id: { in: ids } }, tenantScope(ctx, viewer)] }, select: { id: true } });
            const bySql = await runCompiled(
              tx,
              sqlForms
                .selectFrom('tenant')
                .select('id')
                .where((eb) => eb.and(tenantScope(ctx, viewer)))
                .where('id', 'in', ids.length ? ids : [randomUUID()]),
            );
            const channel = tenantChannelOf(viewer);
            const hearing = world.tenants.filter((t) => t.environment === caller.environment && tenantChannelsOf(t).includes(channel));
            expect(sorted(bySql.map((r) => r.id)), viewer.kind).toEqual(sorted(byPrisma.map((r) => r.id)));
            expect(sorted(hearing.map((t) => t.id)), viewer.kind).toEqual(sorted(byPrisma.map((r) => r.id)));
          }
        });
      }),
      RUNS,
    );
  });

  it('lender applications: a caller hears the changes of exactly the applications it reads', async () => {
    await fc.assert(
      fc.asyncProperty(worldSpec, callerSpec, async (spec, caller) => {
        await inWorld(spec, async (tx, world) => {
          const ctx = contextIn(caller.environment);
          const ids = world.applications.map((a) => a.id);
          for (const actor of callersOf(caller, world) as ApplicationViewer[]) {
            const seen = await tx.lenderApplication.findMany({
              where: { AND: [{ id: { in: ids } }, lenderApplicationScope(ctx, actor)] },
              select: { id: true },
            });
            const channel = eventChannelOf(ctx, actor);
            const hearing = world.applications.filter((a) => a.lender.environment === caller.environment && eventChannelsOf(a).includes(channel));
            expect(sorted(hearing.map((a) => a.id)), actor.kind).toEqual(sorted(seen.map((r) => r.id)));
          }
        });
      }),
      RUNS,
    );
  });

  it("lender applications: the typed SQL lists' scope (on the row's own environment, copied from its lender) selects the rows the Prisma filter does", async () => {
    await fc.assert(
      fc.asyncProperty(worldSpec, callerSpec, async (spec, caller) => {
        await inWorld(spec, async (tx, world) => {
          const ctx = contextIn(caller.environment);
          const ids = world.applications.map((a) => a.id);
          const reads = readsOf(database.prisma);
          for (const actor of callersOf(caller, world) as ApplicationViewer[]) {
            const byPrisma = await tx.lenderApplication.findMany({
              where: { AND: [{ id: { in: ids } }, lenderApplicationScope(ctx, actor)] },
              select: { id: true },
            });
            // Compiled here and run in the world's transaction (the typed reads' pool does not see it).
            const statement = reads
              .selectFrom('lender_application as la')
              .select('la.id')
              .where('la.id', 'in', ids.length ? ids : [0])
              .where(lenderApplicationSqlScope(lenderApplicationListScope(ctx, actor, reads)))
              .compile();
            const bySql = await tx.$queryRawUnsafe<Array<{ id: number }>>(statement.sql, ...statement.parameters);
            expect(sorted(bySql.map((r) => r.id)), actor.kind).toEqual(sorted(byPrisma.map((r) => r.id)));
          }
        });
      }),
      RUNS,
    );
  });

  it('the fan-out audience key leaves out only what no rule reads: another credential of the same identity sees and hears the same', async () => {
    await fc.assert(
      fc.asyncProperty(worldSpec, callerSpec, async (spec, caller) => {
        await inWorld(spec, async (tx, world) => {
          const ctx = contextIn(caller.environment);
          const applications = (a: Actor) =>
            tx.lenderApplication.findMany({
              where: { AND: [{ id: { in: world.applications.map((x) => x.id) } }, lenderApplicationScope(ctx, a as ApplicationViewer)] },
              select: { id: true },
            });
          const profiles = (a: ProfileViewer) =>
            tx.profile.findMany({ where: { AND: [{ id: { in: world.profiles.map((p) => p.id) } }, visibleProfiles(ctx, a)] }, select: { id: true } });
          for (const actor of callersOf(caller, world)) {
            // The same identity through another API key, refresh family, lender client or sign-in session.
            const other = {
              ...actor,
              ...('apiKeyId' in actor ? { apiKeyId: randomUUID(), refreshFamilyId: randomUUID() } : {}),
              ...('clientId' in actor ? { clientId: randomUUID() } : {}),
              ...('sessionEpoch' in actor ? { sessionEpoch: actor.sessionEpoch + 1 } : {}),
            } as AuthenticatedActor;
            expect(visibilityKeyOf(other, null, caller.environment)).toBe(visibilityKeyOf(actor, null, caller.environment));
            expect(sorted((await applications(other)).map((r) => r.id))).toEqual(sorted((await applications(actor)).map((r) => r.id)));
            expect(eventChannelOf(ctx, other as ApplicationViewer)).toBe(eventChannelOf(ctx, actor as ApplicationViewer));
            if (isProfileViewer(actor))
              expect(sorted((await profiles(other as ProfileViewer)).map((r) => r.id))).toEqual(sorted((await profiles(actor)).map((r) => r.id)));
            if (isTenantViewer(actor)) expect(tenantChannelOf(other as TenantViewer)).toBe(tenantChannelOf(actor));
          }
        });
      }),
      RUNS,
    );
  });
});
