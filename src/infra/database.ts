/**
 * The one database client of a process: Prisma over the `pg` driver adapter, pointed either at
 * DATABASE_URL or at the embedded PostgreSQL server of DATA_DIR. Migrations are applied before the
 * client is handed out.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Db } from '../kernel/context.js';
import { applyMigrations } from './migrations.js';
import { openEmbeddedServer, type EmbeddedRole, type EmbeddedServer } from './embedded-postgres.js';
import { createSqlReads, type SqlReads } from './sql-reads.js';

export type { Db } from '../kernel/context.js';

const pools = new WeakMap<Db, pg.Pool>();
const sqlReads = new WeakMap<Db, SqlReads>();

/**
 * The pg pool under a client from openDatabase, for the few statements that move bulk bytes: Prisma
 * passes Bytes values through base64 strings, several copies of every byte on the heap.
 */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('not a client made by openDatabase');
  return pool;
}

/**
 * The typed SQL reads (Kysely, src/infra/sql-reads.ts) on the pool under a client from openDatabase:
 * the hot reads every request or list page makes; Prisma keeps the writes.
 */
export function readsOf(db: Db): SqlReads {
  const reads = sqlReads.get(db);
  if (!reads) throw new Error('not a client made by openDatabase');
  return reads;
}

/** How long a request waits for a new connection to a server that does not answer. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface Database {
  prisma: PrismaClient;
  connectionString: string;
  /** On the embedded server of DATA_DIR (rather than DATABASE_URL). */
  embedded: boolean;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Where the embedded server keeps its files when no databaseUrl is given. */
  dataDir: string;
  /** An application owns the embedded server; the CLI shares one that runs (default: server). */
  embeddedRole?: EmbeddedRole;
  /** The embedded server, already being opened by the caller (bootEmbeddedServer); it is this client's to stop. */
  embeddedServer?: Promise<EmbeddedServer>;
  poolSize: number;
  migrate?: boolean;
  log?: (msg: string) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.log ?? (() => {});
  const embedded = options.databaseUrl
    ? undefined
    : await (options.embeddedServer ?? openEmbeddedServer(options.dataDir, { role: options.embeddedRole ?? 'server', log }));
  const connectionString = options.databaseUrl ?? embedded!.url();
  try {
    if (options.migrate !== false) await applyMigrations(connectionString, log);
    // A server that does not answer (a partition, a failover in progress) fails a request after
    // CONNECT_TIMEOUT_MS, as a 503, rather than holding it.
    const pool = new pg.Pool({ connectionString, max: options.poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    pool.on('connect', (client) => {
      queueQueries(client);
      // A connection lost while checked out (a restart or failover mid-query or mid-transaction):
      // its query fails, the request answers 503, and the pool drops the client when it is released.
      // Unhandled, pg's 'error' event on the client would end the process.
      client.on('error', (err) => log(`database: a connection was lost (${err.message}); the pool opens another when needed`));
    });
    // The pool re-emits an idle client's error (already logged above) and drops the client; the
    // listener must exist, or the event would end the process.
    pool.on('error', () => {});
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    pools.set(prisma, pool);
    sqlReads.set(prisma, createSqlReads(pool));
    // A first connection now, so a database that cannot be reached fails the start. Prisma's engine
    // (its query compiler in WebAssembly, ~40 ms to instantiate) loads on its first query instead:
    // the reads a first request makes go through the SQL reads, and a server warms Prisma once it listens.
    await pool.query('SELECT 1');
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

/**
 * Prisma's query interpreter loads the relations of one read in parallel, also inside an interactive
 * transaction, where they all go to the transaction's one connection: pg queues them but deprecates
 * it. Here each connection runs its queries one after another, in the order they were asked for.
 */
function queueQueries(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let tail: Promise<unknown> = Promise.resolve();
  client.query = ((...args: unknown[]) => {
    // Callback and submittable forms (not used by Prisma) keep pg's own behaviour.
    const first = args[0] as { submit?: unknown } | undefined;
    if (typeof args[args.length - 1] === 'function' || typeof first?.submit === 'function') return query(...args);
    const result = tail.then(() => query(...args));
    tail = result.catch(() => {});
    return result;
  }) as typeof client.query;
}
