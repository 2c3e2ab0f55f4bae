/**
 * DATA_DIR/server.json: which deployment serves from this DATA_DIR, and at what public URL. Written
 * by `npm start` (and the distributed supervisor) once it listens, removed when it stops. The admin
 * CLI reads it: credentials it prints (a lender's token `audience`, the token endpoint) must name the
 * URL of the server that will check them, not one derived from the CLI's own environment (its
 * PORT/PUBLIC_URL may differ from the server's, and the token endpoint refuses another audience).
 *
 * A record counts only while its process is alive and its URL answers /health, and only for a CLI
 * on the same database (the embedded one in this DATA_DIR, or the same DATABASE_URL, compared by
 * digest so the file holds no password).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeployEnvironment } from '../kernel/context.js';
import type { Logger } from '../infra/logger.js';

export const RUNNING_SERVER_FILE = 'server.json';

export interface RunningServerRecord {
  pid: number;
  /** Where it listens (e.g. http://127.0.0.1:4000). */
  url: string;
  /** Its PUBLIC_URL: the token issuer and the base of the audiences it accepts. */
  publicUrl: string;
  environment: DeployEnvironment;
  /** `embedded`, or a digest of its DATABASE_URL. */
  database: string;
  startedAt: string;
}

/** How a process names its database in the record: equal for two processes only when they share it. */
export function databaseIdentity(databaseUrl: string | undefined): string {
  return databaseUrl ? `sha256:${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 32)}` : 'embedded';
}

/**
 * Writes the record (atomically); the returned function removes it, unless another process has
 * replaced it since. A DATA_DIR that cannot be written (e.g. read-only in a container) only costs
 * the CLI its hint: the server runs on, with a warning.
 */
export async function recordRunningServer(
  dataDir: string,
  record: Omit<RunningServerRecord, 'pid' | 'startedAt'>,
  logger: Pick<Logger, 'warn'>,
): Promise<() => Promise<void>> {
  const file = path.resolve(dataDir, RUNNING_SERVER_FILE);
  const full: RunningServerRecord = { pid: process.pid, startedAt: new Date().toISOString(), ...record };
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temporary, `${JSON.stringify(full, null, 2)}\n`, { mode: 0o644 });
    await rename(temporary, file);
  } catch (err) {
    logger.warn({ err, file }, 'could not record this server in DATA_DIR: the admin CLI will not find its public URL (it uses PUBLIC_URL)');
    return async () => {};
  }
  return async () => {
    const current = await readRecord(file);
    if (current?.pid === process.pid) await rm(file, { force: true });
  };
}

/**
 * The server serving from this DATA_DIR on the given database, when one runs: its process is alive
 * and its URL answers. Null otherwise (no record, a stale one, another database).
 */
export async function runningServerOf(dataDir: string, database: string): Promise<RunningServerRecord | null> {
  const record = await readRecord(path.resolve(dataDir, RUNNING_SERVER_FILE));
  if (!record || record.database !== database || !isAlive(record.pid)) return null;
  try {
    await fetch(new URL('/health', record.url), { signal: AbortSignal.timeout(2_000) });
    return record;
  } catch {
    // Not answering (a stale record whose pid was reused, or a server stopping): not the deployment's URL.
    return null;
  }
}

async function readRecord(file: string): Promise<RunningServerRecord | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
  const record = parsed as Partial<RunningServerRecord> | null;
  if (
    !record ||
    typeof record.pid !== 'number' ||
    typeof record.url !== 'string' ||
    typeof record.publicUrl !== 'string' ||
    typeof record.database !== 'string'
  )
    return null;
  return record as RunningServerRecord;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
