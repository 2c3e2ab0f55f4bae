/**
 * One PostgreSQL server per run: DATA_DIR's embedded server (a throw-away DATA_DIR, no fsync) unless
 * DATABASE_URL names one (CI runs both). On it, one template database (migrations + demo seed) that
 * every test file clones, so files run in parallel on isolated databases without re-seeding.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbeddedServer, releaseAbandoned } from '../../src/infra/embedded-postgres.js';
import { applyMigrations } from '../../src/infra/migrations.js';
import { openDatabase } from '../../src/infra/database.js';
import { seedDemoData } from '../../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from './postgres-admin.js';
import { buildWebBundles } from '../../src/api/pages/web-bundles.js';
import { buildDocsAssets } from '../../src/api/rest/docs-assets.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL on the run's server with the right to create databases. */
    postgresUrl: string;
    templateDatabase: string;
  }
}

const TEST_DIR_PREFIX = 'fg-test-pg-';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Pages under test load the bundles built from this checkout's sources, and the reference
  // renderer's files as the build compresses them.
  await Promise.all([buildWebBundles(), buildDocsAssets()]);
  let baseUrl = process.env.DATABASE_URL;
  let stopServer = async (): Promise<void> => {};
  if (!baseUrl) {
    await removeAbandonedTestServers();
    const dataDir = await mkdtemp(path.join(tmpdir(), TEST_DIR_PREFIX));
    const server = await openEmbeddedServer(dataDir, { role: 'server', durable: false });
    baseUrl = server.url('postgres');
    stopServer = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const template = `fg_template_${process.pid}`;
  await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${template}`);
  await adminQuery(baseUrl, `CREATE DATABASE ${template}`);
  const url = databaseUrlFor(baseUrl, template);
  await applyMigrations(url);
  const db = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: 2, migrate: false });
  await seedDemoData(db.prisma);
  await db.close();
  project.provide('postgresUrl', baseUrl);
  project.provide('templateDatabase', template);
  return async () => {
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await stopServer();
  };
}

/** Servers of runs that were interrupted (their owner died) are stopped and their directories removed. */
async function removeAbandonedTestServers(): Promise<void> {
  const entries = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const entry of entries.filter((e) => e.startsWith(TEST_DIR_PREFIX))) {
    const dir = path.join(tmpdir(), entry);
    if (await releaseAbandoned(dir)) await rm(dir, { recursive: true, force: true });
  }
}
