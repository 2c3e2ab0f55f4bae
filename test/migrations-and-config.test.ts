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
