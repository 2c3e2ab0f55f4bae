/**
 * The embedded default: PostgreSQL compiled to WebAssembly (PGlite), served on a loopback port over
 * the ordinary wire protocol, so the same `pg` driver, Prisma adapter and migrations serve both it
 * and a real PostgreSQL server.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  connectionString: string;
  stop(): Promise<void>;
}

/** dataDir 'memory://' keeps everything in memory (tests); any other value is a directory on disk. */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  // Extensions the migrations create must be bundled into the WebAssembly build here.
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    connectionString: `postgresql://postgres@${host}:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
