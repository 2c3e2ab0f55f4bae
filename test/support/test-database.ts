/**
 * An isolated database for one test file: a clone of the run's template (migrations + demo data) on the
 * run's PostgreSQL server (the embedded one, or DATABASE_URL's).
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { adminQuery, databaseUrlFor } from './postgres-admin.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = inject('postgresUrl');
  const name = `fg_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  return {
    url: databaseUrlFor(baseUrl, name),
    drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
