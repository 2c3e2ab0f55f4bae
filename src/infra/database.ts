/**
 * The one database client of a process: Prisma over the `pg` driver adapter, pointed either at
 * DATABASE_URL or at the embedded PGlite server. Migrations are applied before the client is handed out.
 */
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { applyMigrations } from './migrations.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  connectionString: string;
  embedded: boolean;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Where the embedded database keeps its files when no databaseUrl is given ('memory://' for none). */
  dataDir: string;
  poolSize: number;
  migrate?: boolean;
  log?: (msg: string) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.log ?? (() => {});
  const embedded = options.databaseUrl ? undefined : await startEmbeddedPostgres(embeddedDir(options.dataDir));
  const connectionString = options.databaseUrl ?? embedded!.connectionString;
  if (embedded) log(`embedded PostgreSQL (PGlite) serving ${embeddedDir(options.dataDir)}`);
  try {
    if (options.migrate !== false) await applyMigrations(connectionString, log);
    // PGlite is one backend behind a multiplexer: a single pooled connection keeps
    // interactive transactions from interleaving with other statements.
    const max = embedded ? 1 : options.poolSize;
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) });
    await prisma.$connect();
    return {
      prisma,
      connectionString,
      embedded: Boolean(embedded),
      async close() {
        await prisma.$disconnect();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}

function embeddedDir(dataDir: string): string {
  return dataDir.startsWith('memory://') ? dataDir : path.join(dataDir, 'pg');
}
