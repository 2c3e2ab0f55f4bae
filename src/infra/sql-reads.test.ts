/**
 * The typed reads run as named prepared statements on the pool Prisma shares: after a read, the
 * connection holds the statement (PostgreSQL parsed and planned it once), and the same text reuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, poolOf, readsOf, type Database } from './database.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

let testDb: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // One connection, so the statement cache looked at is the one the reads used.
  database = await openDatabase({ databaseUrl: testDb.url, dataDir: 'unused', poolSize: 1, migrate: false });
});

afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

describe('typed SQL reads', () => {
  it('send each statement as a named prepared statement, reused by the next call', async () => {
    const reads = readsOf(database.prisma);
    const tenantsOf = (environment: 'demo' | 'production') =>
      reads.selectFrom('tenant').select(['id', 'referenceId']).where('environment', '=', environment).orderBy('id').limit(5).execute();
    const first = await tenantsOf('demo');
    await tenantsOf('production');
    const expected = await database.prisma.tenant.findMany({
      where: { environment: 'demo' },
      select: { id: true, referenceId: true },
      orderBy: { id: 'asc' },
      take: 5,
    });
    expect(first).toEqual(expected);

    const { rows } = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(reads);
    const tenantStatements = rows.filter((row) => row.statement.includes('from "tenant"'));
    // Both calls share one text, so one name; the name is derived from the text alone.
    expect(tenantStatements).toHaveLength(1);
    expect(tenantStatements[0]!.name).toMatch(/^fg_[\w-]{20}$/);
  });

  it('share the pool with Prisma (no second set of connections)', () => {
    expect(poolOf(database.prisma).options.max).toBe(1);
    expect(poolOf(database.prisma).totalCount).toBeLessThanOrEqual(1);
  });
});
