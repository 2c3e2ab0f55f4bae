/**
 * With DATABASE_URL set (CI), builds one template database per run (migrations + demo seed) that
 * every test file clones, so files run in parallel on isolated databases without re-seeding.
 * Without it, each file starts its own in-memory PGlite instead (test/support/test-database.ts).
 */
import type { TestProject } from 'vitest/node';
import { applyMigrations } from '../../src/infra/migrations.js';
import { openDatabase } from '../../src/infra/database.js';
import { seedDemoData } from '../../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from './postgres-admin.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    project.provide('templateDatabase', null);
    return;
  }
  const template = `fg_template_${process.pid}`;
  await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${template}`);
  await adminQuery(baseUrl, `CREATE DATABASE ${template}`);
  const url = databaseUrlFor(baseUrl, template);
  await applyMigrations(url);
  const db = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: 2, migrate: false });
  await seedDemoData(db.prisma);
  await db.close();
  project.provide('templateDatabase', template);
  return async () => {
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  };
}
