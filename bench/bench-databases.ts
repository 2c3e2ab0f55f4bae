/**
 * The databases benchmarks create on the PostgreSQL server: every one is named
 * `fg_bench_<what>_<pid of the bench process>`, so whoever outlives a bench (bench/run.ts, or the
 * bench itself at its next start) can tell its leftovers from a bench still running beside it.
 */
import pg from 'pg';

export const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function benchDatabases(): Promise<Array<{ name: string; pid: number }>> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'fg\\_bench\\_%'`);
    return rows.map((r) => ({ name: r.datname, pid: Number(/_(\d+)$/.exec(r.datname)?.[1] ?? NaN) }));
  } finally {
    await client.end();
  }
}

async function drop(names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  return names;
}

/** Drops the databases of the bench process `pid` (it has ended, or was stopped at its limit). */
export async function dropDatabasesOf(pid: number): Promise<string[]> {
  return drop((await benchDatabases()).filter((d) => d.pid === pid).map((d) => d.name));
}

/** Drops `fg_bench_<prefix>…` databases whose bench process is no longer running (leftovers of a killed run). */
export async function dropLeftoverDatabases(prefix = ''): Promise<string[]> {
  return drop((await benchDatabases()).filter((d) => d.name.startsWith(`fg_bench_${prefix}`) && (Number.isNaN(d.pid) || !isRunning(d.pid))).map((d) => d.name));
}
