/**
 * An isolated database for one test file: a clone of the run's template on the real PostgreSQL
 * (DATABASE_URL), or, without it, a fresh in-memory PGlite with migrations and demo data.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { startEmbeddedPostgres } from '../../src/infra/embedded-postgres.js';
import { applyMigrations } from '../../src/infra/migrations.js';
import { openDatabase } from '../../src/infra/database.js';
import { seedDemoData } from '../../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from './postgres-admin.js';

export interface TestDatabase {
  url: string;
  /** True when this is the embedded PGlite (one connection). */
  embedded: boolean;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  const template = inject('templateDatabase');
  if (baseUrl && template) {
    const name = `fg_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    await adminQuery(baseUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
    return {
      url: databaseUrlFor(baseUrl, name),
      embedded: false,
      drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  const embedded = await startEmbeddedPostgres('memory://');
  await applyMigrations(embedded.connectionString);
  const db = await openDatabase({ databaseUrl: embedded.connectionString, dataDir: 'unused', poolSize: 1, migrate: false });
  await seedDemoData(db.prisma);
  await db.prisma.$disconnect();
  return { url: embedded.connectionString, embedded: true, drop: () => embedded.stop() };
}
