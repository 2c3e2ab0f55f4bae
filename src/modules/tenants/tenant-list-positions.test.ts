/**
 * The tenants list's positions (migration 20261127170000_tenant_list_positions): every tenant of an
 * account is numbered 1, 2, 3, ... in its account's list per environment as it is created, and offset
 * pages seek by that number, their total being the last one. These tests hold the numbering right
 * where it can go wrong: creates racing in one account (through the REST route, as the least
 * privileged caller that may create and list), lists of other accounts and environments, bulk
 * inserts, filters narrower than a whole list, writes that would leave a gap, and the backfill.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readMigrations } from '../../infra/migrations.js';
import { adminQuery, databaseUrlFor } from '../../../test/support/postgres-admin.js';
import { bearer, createApiKey, platformToken, signUpIntegrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { countTenants, selectTenantsFromOffset } from './tenant-reads.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const db = () => app.runtime.database.prisma;

/**
 * A new account and a platform token of a key holding one unrelated scope: creating and listing
 * tenants take a platform or master token and no scope (access-policy.ts `tenants.create`, `tenants.list`).
 */
async function leastPrivilegedIntegrator(): Promise<{ accountId: string; token: string }> {
  const integrator = await signUpIntegrator(app);
  const key = await createApiKey(app, integrator.loginToken, { name: `tenants-${randomUUID()}`, scopes: ['scoring:read'] });
  return { accountId: integrator.accountId, token: (await platformToken(app, key.key)).access_token };
}

async function createTenant(token: string, referenceId: string): Promise<string> {
  const res = await postJson(`${app.url}/api/platform/v1/tenants`, { referenceId }, bearer(token));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

interface OffsetPage {
  data: Array<{ id: string }>;
  meta: { total: number; totalEntries: number; offset: number; limit: number };
}
async function offsetPage(token: string, offset: number, limit: number): Promise<OffsetPage> {
  const res = await fetch(`${app.url}/api/platform/v1/tenants?offset=${offset}&limit=${limit}`, { headers: bearer(token) });
  expect(res.status).toBe(200);
  return (await res.json()) as OffsetPage;
}

/** The account's tenants in an environment as the database numbered them. */
async function positionsOf(accountId: string, environment: 'demo' | 'production' = 'demo'): Promise<Array<{ id: string; position: number | null }>> {
  return db().tenant.findMany({ where: { accountId, environment }, select: { id: true, position: true }, orderBy: { position: 'asc' } });
}

/** Every offset page of `limit` and each one's total, read through the route. */
async function everyOffsetPage(token: string, limit: number, through: number): Promise<{ ids: string[]; totals: Set<number> }> {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let offset = 0; offset < through; offset += limit) {
    const page = await offsetPage(token, offset, limit);
    expect(page.meta).toMatchObject({ offset, limit, totalEntries: page.meta.total });
    totals.add(page.meta.total);
    ids.push(...page.data.map((t) => t.id));
  }
  return { ids, totals };
}

describe('creates racing in one account', () => {
  it('number 50 concurrent creates 1..50, and every offset page and total reads them exactly, apart from another account racing beside them', async () => {
    const [mine, theirs] = await Promise.all([leastPrivilegedIntegrator(), leastPrivilegedIntegrator()]);
    // Both accounts' creates interleaved, all in flight at once.
    const created = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        i % 8 < 5
          ? createTenant(mine.token, `race-${i}`).then((id) => ({ id, owner: 'mine' }))
          : createTenant(theirs.token, `race-${i}`).then((id) => ({ id, owner: 'theirs' })),
      ),
    );
    const ownedBy = (owner: string) => created.filter((c) => c.owner === owner).map((c) => c.id);
    expect(ownedBy('mine')).toHaveLength(50);

    for (const [integrator, count] of [
      [mine, 50],
      [theirs, 30],
    ] as const) {
      const numbered = await positionsOf(integrator.accountId);
      expect(numbered.map((t) => t.position)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(new Set(numbered.map((t) => t.id))).toEqual(new Set(ownedBy(integrator === mine ? 'mine' : 'theirs')));

      // Pages of 7 (the last one short), past the end, and a page straddling it.
      const { ids, totals } = await everyOffsetPage(integrator.token, 7, count);
      expect(ids).toEqual(numbered.map((t) => t.id));
      expect([...totals]).toEqual([count]);
      const past = await offsetPage(integrator.token, count, 7);
      expect(past.data).toEqual([]);
      expect(past.meta.total).toBe(count);
      const straddling = await offsetPage(integrator.token, count - 3, 7);
      expect(straddling.data.map((t) => t.id)).toEqual(numbered.slice(count - 3).map((t) => t.id));

      // Keyset pages read the same order from any tenant's cursor.
      const cursor = numbered[9]!.id;
      const res = await fetch(`${app.url}/api/platform/v1/tenants?after=${cursor}&limit=5`, { headers: bearer(integrator.token) });
      expect(((await res.json()) as OffsetPage).data.map((t) => t.id)).toEqual(numbered.slice(10, 15).map((t) => t.id));
    }
  });

  it('a failed create (a duplicate referenceId) leaves no gap: the next create takes the position it would have had', async () => {
    const integrator = await leastPrivilegedIntegrator();
    await createTenant(integrator.token, 'gap-0');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postJson(`${app.url}/api/platform/v1/tenants`, { referenceId: i % 2 ? 'gap-0' : `gap-${i + 1}` }, bearer(integrator.token)),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(409)]);
    await createTenant(integrator.token, 'gap-last');
    expect((await positionsOf(integrator.accountId)).map((t) => t.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await offsetPage(integrator.token, 6, 5)).data).toHaveLength(1);
    expect((await offsetPage(integrator.token, 0, 1)).meta.total).toBe(7);
  });
});

describe('lists', () => {
  it("are per environment: the account's tenants in another environment are numbered in their own list, and the list answered counts none of them", async () => {
    const integrator = await leastPrivilegedIntegrator();
    for (let i = 0; i < 3; i++) await createTenant(integrator.token, `env-demo-${i}`);
    // This deployment's environment is demo: the production tenants of the same account are written
    // as a production deployment on the same database would write them.
    await Promise.all(Array.from({ length: 4 }, () => db().tenant.create({ data: { accountId: integrator.accountId, environment: 'production' } })));
    await createTenant(integrator.token, 'env-demo-3');
    expect((await positionsOf(integrator.accountId, 'production')).map((t) => t.position)).toEqual([1, 2, 3, 4]);
    expect((await positionsOf(integrator.accountId, 'demo')).map((t) => t.position)).toEqual([1, 2, 3, 4]);
    const page = await offsetPage(integrator.token, 0, 100);
    expect(page.meta.total).toBe(4);
    expect(page.data.map((t) => t.id)).toEqual((await positionsOf(integrator.accountId, 'demo')).map((t) => t.id));
  });

  it('number a bulk INSERT ... SELECT on from the tenants there are, in the order of its rows', async () => {
    const integrator = await leastPrivilegedIntegrator();
    await createTenant(integrator.token, 'bulk-first');
    await db().$executeRawUnsafe(
      `INSERT INTO tenant (id, "accountId", "referenceId", "updatedDateTime") SELECT gen_random_uuid(), $1::uuid, 'bulk-' || i, now() FROM generate_series(1, 2000) i`,
      integrator.accountId,
    );
    const numbered = await db().tenant.findMany({
      where: { accountId: integrator.accountId },
      select: { referenceId: true, position: true },
      orderBy: { position: 'asc' },
    });
    expect(numbered.map((t) => t.position)).toEqual(Array.from({ length: 2001 }, (_, i) => i + 1));
    expect(numbered.map((t) => t.referenceId)).toEqual(['bulk-first', ...Array.from({ length: 2000 }, (_, i) => `bulk-${i + 1}`)]);
    const last = await offsetPage(integrator.token, 1995, 20);
    expect(last.meta.total).toBe(2001);
    expect(last.data).toHaveLength(6);
  });

  it('narrower than a whole list (a filter naming one tenant, as a tenant token sees): paged and counted over its own rows', async () => {
    const integrator = await leastPrivilegedIntegrator();
    for (let i = 0; i < 5; i++) await createTenant(integrator.token, `narrow-${i}`);
    const fourth = (await positionsOf(integrator.accountId))[3]!.id;
    const filter = { accountId: integrator.accountId, environment: 'demo' as const, id: fourth };
    expect((await selectTenantsFromOffset(db(), filter, 0, 20)).map((t) => t.id)).toEqual([fourth]);
    // Its position is 4, yet it is the only row of this filter: the page after offset 1 is empty.
    expect(await selectTenantsFromOffset(db(), filter, 1, 20)).toEqual([]);
    expect(await countTenants(db(), filter)).toBe(1);
    const elsewhere = { ...filter, accountId: (await leastPrivilegedIntegrator()).accountId };
    expect(await selectTenantsFromOffset(db(), elsewhere, 0, 20)).toEqual([]);
    expect(await countTenants(db(), elsewhere)).toBe(0);
  });

  it('an offset past any position is an empty page, not an error', async () => {
    const integrator = await leastPrivilegedIntegrator();
    await createTenant(integrator.token, 'far');
    for (const offset of [2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const page = await offsetPage(integrator.token, offset, 20);
      expect(page.data).toEqual([]);
      expect(page.meta.total).toBe(1);
    }
  });
});

describe('the database keeps positions 1..n', () => {
  it('replaces a position a writer gives, and refuses to move a listed tenant or delete it on its own', async () => {
    const integrator = await leastPrivilegedIntegrator();
    await createTenant(integrator.token, 'kept-0');
    const written = await db().tenant.create({ data: { accountId: integrator.accountId, environment: 'demo', position: 99 } });
    expect(written.position).toBe(2);
    const other = await leastPrivilegedIntegrator();
    for (const change of [{ position: 5 }, { environment: 'production' as const }, { accountId: other.accountId }]) {
      await expect(db().tenant.update({ where: { id: written.id }, data: change })).rejects.toThrow(/keeps its place in its account's tenant list/);
    }
    await expect(db().tenant.delete({ where: { id: written.id } })).rejects.toThrow(/keeps its place in its account's tenant list/);
    // Changing what is not its place is a write like any other.
    expect((await db().tenant.update({ where: { id: written.id }, data: { referenceId: 'kept-1' } })).position).toBe(2);
  });

  it("lets an account's deletion take its tenants and its lists with it", async () => {
    const integrator = await leastPrivilegedIntegrator();
    for (let i = 0; i < 3; i++) await createTenant(integrator.token, `gone-${i}`);
    await db().tenant.create({ data: { accountId: integrator.accountId, environment: 'production' } });
    await db().account.delete({ where: { id: integrator.accountId } });
    expect(await db().tenant.count({ where: { accountId: integrator.accountId } })).toBe(0);
    expect(await db().tenantList.count({ where: { accountId: integrator.accountId } })).toBe(0);
  });
});

describe('the migration', () => {
  const MIGRATION = '20261127170000_tenant_list_positions';
  const name = `fg_positions_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const url = databaseUrlFor(inject('postgresUrl'), name);
  beforeAll(() => adminQuery(inject('postgresUrl'), `CREATE DATABASE ${name}`));
  afterAll(() => adminQuery(inject('postgresUrl'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('numbers the tenants there are in the order the list showed them (createdDateTime, then id), per account and environment', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const migrations = await readMigrations();
      for (const m of migrations.filter((m) => m.name < MIGRATION)) await client.query(m.sql);
      const [a, b] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
      await client.query(`INSERT INTO account (id, name, "updatedAt") VALUES ($1, 'a', now()), ($2, 'b', now())`, [a, b]);
      // Inserted out of list order; two share a createdDateTime (the id orders them); one has no account.
      const rows: Array<[id: string, account: string | null, environment: string, created: string]> = [
        ['00000000-0000-4000-8000-000000000103', a, 'demo', '2026-01-03'],
        ['00000000-0000-4000-8000-000000000102', a, 'demo', '2026-01-02'],
        ['00000000-0000-4000-8000-000000000101', a, 'demo', '2026-01-02'],
        ['00000000-0000-4000-8000-000000000104', a, 'demo', '2026-01-01'],
        ['00000000-0000-4000-8000-000000000105', a, 'production', '2026-01-05'],
        ['00000000-0000-4000-8000-000000000106', b, 'demo', '2026-01-04'],
        ['00000000-0000-4000-8000-000000000107', null, 'demo', '2026-01-01'],
      ];
      for (const [id, account, environment, created] of rows) {
        await client.query(`INSERT INTO tenant (id, "accountId", environment, "createdDateTime", "updatedDateTime") VALUES ($1, $2, $3, $4, now())`, [
          id,
          account,
          environment,
          created,
        ]);
      }

      await client.query(migrations.find((m) => m.name === MIGRATION)!.sql);

      const numbered = await client.query<{ id: string; position: number | null }>(
        'SELECT id, position FROM tenant ORDER BY "accountId", environment, position',
      );
      expect(Object.fromEntries(numbered.rows.map((r) => [r.id.slice(-3), r.position]))).toEqual({
        '104': 1,
        '101': 2,
        '102': 3,
        '103': 4,
        '105': 1,
        '106': 1,
        '107': null,
      });
      const lists = await client.query('SELECT "accountId", environment::text FROM tenant_list ORDER BY 1, 2');
      expect(lists.rows).toEqual([
        { accountId: a, environment: 'demo' },
        { accountId: a, environment: 'production' },
        { accountId: b, environment: 'demo' },
      ]);
      // And the next tenant of a list takes the position after the backfilled ones.
      const next = await client.query<{ position: number }>(
        `INSERT INTO tenant (id, "accountId", "updatedDateTime") VALUES (gen_random_uuid(), $1, now()) RETURNING position`,
        [a],
      );
      expect(next.rows[0]!.position).toBe(5);
    } finally {
      await client.end();
    }
  });
});
