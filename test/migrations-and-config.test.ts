import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { loadConfig } from '../src/kernel/config.js';
import { applyMigrations, readMigrations } from '../src/infra/migrations.js';
import { adminQuery, databaseUrlFor } from './support/postgres-admin.js';

describe('the migration runner', () => {
  // An empty database (not a clone of the migrated template).
  const name = `fg_migrations_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const db = { connectionString: databaseUrlFor(inject('postgresUrl'), name) };
  beforeAll(() => adminQuery(inject('postgresUrl'), `CREATE DATABASE ${name}`));
  afterAll(() => adminQuery(inject('postgresUrl'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: db.connectionString });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  it("applies every committed migration once, with Prisma's own bookkeeping", async () => {
    const files = await readMigrations();
    expect(await applyMigrations(db.connectionString)).toEqual(files.map((f) => f.name));
    expect(await applyMigrations(db.connectionString)).toEqual([]);
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((f) => [f.name, f.checksum]));
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    const tables = await query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['tenant', 'profile', 'company', 'lender', 'webhook_delivery']));
  });

  it("compresses a search's reasons with lz4 where the server has it, and keeps pglz where it has not", async () => {
    const [server] = await query<{ lz4: boolean }>("SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'");
    const [column] = await query<{ compression: string }>(
      `SELECT attcompression AS compression FROM pg_attribute WHERE attrelid = 'funding_search'::regclass AND attname = 'matchReasons'`,
    );
    // 'l': lz4; '' : the server's default (pglz unless configured).
    expect(column!.compression).toBe(server!.lz4 ? 'l' : '');
  });

  it('refuses to start when an applied migration was edited afterwards', async () => {
    await query(`UPDATE "_prisma_migrations" SET checksum = 'edited'`);
    await expect(applyMigrations(db.connectionString)).rejects.toThrow(/was changed after it was applied/);
  });
});

describe('configuration', () => {
  it('has working defaults for the embedded single-process start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 4000, DATA_DIR: './.data', DEPLOY_ENV: 'demo', SEED_DEMO_DATA: true });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('never seeds demo data in production, even when asked', () => {
    expect(loadConfig({ DEPLOY_ENV: 'production', SEED_DEMO_DATA: 'true', AUTH_SIGNING_KEYS_FILE: '/keys.json' }).SEED_DEMO_DATA).toBe(false);
  });

  it('requires configured signing keys in production, and derives the issuer from PORT', () => {
    expect(() => loadConfig({ DEPLOY_ENV: 'production' })).toThrow(/AUTH_SIGNING_KEYS or AUTH_SIGNING_KEYS_FILE is required in production/);
    expect(loadConfig({ PORT: '4100' }).PUBLIC_URL).toBe('http://localhost:4100');
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).PUBLIC_URL).toBe('https://api.example.com');
  });

  it('fails fast naming every invalid key', () => {
    expect(() => loadConfig({ PORT: 'eighty', DEPLOY_ENV: 'staging' })).toThrow(/PORT[\s\S]*DEPLOY_ENV|DEPLOY_ENV[\s\S]*PORT/);
  });
});

describe('migration 20261207181000_lender_statuses_as_spec_names', () => {
  // A database migrated up to the migration before it, holding rows in the old names.
  const name = `fg_statuses_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const url = databaseUrlFor(inject('postgresUrl'), name);
  const MIGRATION = '20261207181000_lender_statuses_as_spec_names';
  let client: pg.Client;
  beforeAll(async () => {
    await adminQuery(inject('postgresUrl'), `CREATE DATABASE ${name}`);
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await adminQuery(inject('postgresUrl'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('moves Submitted and Acknowledged to In Review, keeping the first acknowledgement as acknowledgedAt, in applications, history and pending deliveries', async () => {
    const migrations = await readMigrations();
    for (const migration of migrations.filter((m) => m.name < MIGRATION)) await client.query(migration.sql);
    const [lender] = (
      await client.query<{ id: number }>(
        `INSERT INTO lender (name, slug, "applicationUrl", "updatedAt") VALUES ('Old Names Ltd', 'old-names', 'https://lender.invalid/a', now()) RETURNING id`,
      )
    ).rows;
    const [profile] = (await client.query<{ id: string }>(`INSERT INTO profile (id, "updatedAt") VALUES (gen_random_uuid(), now()) RETURNING id`)).rows;
    const application = async (status: string) =>
      (
        await client.query<{ id: number }>(
          `INSERT INTO lender_application ("lenderId", "profileId", status, "updatedAt") VALUES ($1, $2, $3, now()) RETURNING id`,
          [lender!.id, profile!.id, status],
        )
      ).rows[0]!.id;
    const [sent, acknowledged, offered] = [await application('Submitted'), await application('Acknowledged'), await application('Offered')];
    const history = async (id: number, moves: Array<[string | null, string, string]>) => {
      for (const [from, to, at] of moves) {
        await client.query(
          `INSERT INTO application_status_change (id, "lenderApplicationId", "fromStatus", "toStatus", "createdAt") VALUES (gen_random_uuid(), $1, $2, $3, $4)`,
          [id, from, to, at],
        );
      }
    };
    await history(sent, [[null, 'Submitted', '2026-11-01T10:00:00Z']]);
    await history(acknowledged, [
      [null, 'Submitted', '2026-11-01T10:00:00Z'],
      ['Submitted', 'Acknowledged', '2026-11-01T11:00:00Z'],
      ['Acknowledged', 'Acknowledged', '2026-11-01T12:00:00Z'],
    ]);
    await history(offered, [
      [null, 'Submitted', '2026-11-01T10:00:00Z'],
      ['Submitted', 'Acknowledged', '2026-11-01T13:00:00Z'],
      ['Acknowledged', 'Offered', '2026-11-01T14:00:00Z'],
    ]);
    const delivery = async (id: number, status: string) =>
      (
        await client.query<{ id: string }>(
          `INSERT INTO webhook_delivery (id, "lenderApplicationId", "lenderId", event, url, payload, status, "updatedAt") VALUES (gen_random_uuid(), $1, $2, 'APPLICATION_UPDATED', 'https://lender.invalid/u', $3, $4, now()) RETURNING id`,
          [id, lender!.id, JSON.stringify({ application: { id, status: 'Acknowledged' } }), status],
        )
      ).rows[0]!.id;
    const [pending, delivered] = [await delivery(acknowledged, 'PENDING'), await delivery(acknowledged, 'DELIVERED')];

    await client.query(migrations.find((m) => m.name === MIGRATION)!.sql);

    const rows = (
      await client.query<{ id: number; status: string; acknowledgedAt: Date | null }>('SELECT id, status, "acknowledgedAt" FROM lender_application ORDER BY id')
    ).rows;
    expect(rows.map((r) => [r.id, r.status, r.acknowledgedAt?.toISOString() ?? null])).toEqual([
      [sent, 'In Review', null],
      [acknowledged, 'In Review', '2026-11-01T11:00:00.000Z'],
      [offered, 'Offered', '2026-11-01T13:00:00.000Z'],
    ]);
    const moves = (
      await client.query<{ from: string | null; to: string }>(
        `SELECT "fromStatus" AS from, "toStatus" AS to FROM application_status_change WHERE "lenderApplicationId" = $1 ORDER BY "createdAt"`,
        [offered],
      )
    ).rows;
    expect(moves.map((m) => [m.from, m.to])).toEqual([
      [null, 'In Review'],
      ['In Review', 'In Review'],
      ['In Review', 'Offered'],
    ]);
    const statusOf = async (id: string) =>
      (await client.query<{ s: string }>(`SELECT payload -> 'application' ->> 'status' AS s FROM webhook_delivery WHERE id = $1`, [id])).rows[0]!.s;
    // What was delivered stays as it was sent; what is still to be sent carries the new name.
    expect({ pending: await statusOf(pending), delivered: await statusOf(delivered) }).toEqual({ pending: 'In Review', delivered: 'Acknowledged' });
  });
});
