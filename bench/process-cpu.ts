/**
 * CPU accounting and core pinning for the benchmarks, from /proc (Linux). A server's CPU per
 * request is read from the kernel's own counters (utime + stime of the process and its
 * descendants), so it does not depend on how fast the load generator is or on what else the
 * machine runs: the figure that stays honest on a loaded machine, where req/s ratios drift toward 1.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

const clockTicksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface ProcStat {
  pid: number;
  command: string;
  parentPid: number;
  /** utime + stime, in ms. */
  cpuMs: number;
  /** When it started (clock ticks since boot): with the pid, names one process even after pid reuse. */
  startTicks: number;
}

/** /proc/<pid>/stat: the command is in parentheses and may contain spaces, so fields are counted after the last ')'. */
function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is field 3 (state): ppid is field 4, utime field 14, stime field 15, starttime field 22.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return {
      pid,
      command: text.slice(text.indexOf('(') + 1, close),
      parentPid: Number(fields[1]),
      cpuMs: (ticks * 1000) / clockTicksPerSecond,
      startTicks: Number(fields[19]),
    };
  } catch {
    return undefined; // exited meanwhile
  }
}

function allProcesses(): ProcStat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== undefined);
}

/** The process and every descendant (a distributed deployment's services, a server's workers). */
export function processTree(rootPid: number, processes = allProcesses()): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const p of processes) children.set(p.parentPid, [...(children.get(p.parentPid) ?? []), p]);
  const root = processes.find((p) => p.pid === rootPid);
  if (!root) return [];
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!.pid) ?? []));
  return tree;
}

/** Whether this exact process (pid and start time) is still running. */
export function isSameProcessRunning(pid: number, startTicks: number): boolean {
  return readStat(pid)?.startTicks === startTicks;
}

/** CPU time (ms) used so far by the process and its descendants. */
export function treeCpuMs(rootPid: number): number {
  return processTree(rootPid).reduce((sum, p) => sum + p.cpuMs, 0);
}

/**
 * CPU time (ms) used so far by every process running this command (`postgres`: the server and all
 * its backends, whoever started them; on an idle machine, what the bench's statements cost it).
 */
export function commandCpuMs(command: string): number {
  return allProcesses()
    .filter((p) => p.command === command)
    .reduce((sum, p) => sum + p.cpuMs, 0);
}

/** The pid of the process listening on a local TCP port (from /proc/net/tcp{,6} and the processes' sockets). */
export function pidListeningOn(port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is "ADDR:PORT"; state 0A is LISTEN; the inode is column 10.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(cols[9]!);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        const link = readlinkSync(`/proc/${name}/fd/${fd}`);
        if (link.startsWith('socket:[') && inodes.has(link.slice(8, -1))) return Number(name);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/**
 * Pinning: the load generator (this process) on core 0, the servers under test on core 1, so the
 * generator does not take the servers' CPU. Needs 2+ cores and `taskset` (util-linux); BENCH_PIN=0
 * turns it off. PostgreSQL is not pinned (a shared server; both sides of a ratio use it alike).
 */
export const pinning = (() => {
  if (process.env.BENCH_PIN === '0' || os.cpus().length < 2) return undefined;
  return spawnSync('taskset', ['--version'], { encoding: 'utf8' }).status === 0 ? { loadGeneratorCore: '0', serverCore: '1' } : undefined;
})();

function setAffinity(pid: number, core: string): void {
  // -a: every thread of the process (libuv's pool, V8's helpers), not only its main thread.
  spawnSync('taskset', ['-a', '-p', '-c', core, String(pid)], { stdio: 'ignore' });
}

/**
 * Pins the load generator for the duration of `measure`, then gives it every core back: processes
 * it starts in between (a server, an embedded PostgreSQL) inherit its affinity, and must not be
 * confined to the generator's core.
 */
export async function withPinnedLoadGenerator<T>(measure: () => Promise<T>): Promise<T> {
  if (!pinning) return measure();
  setAffinity(process.pid, pinning.loadGeneratorCore);
  try {
    return await measure();
  } finally {
    setAffinity(process.pid, `0-${os.cpus().length - 1}`);
  }
}

/** Pins a server and its descendants to the servers' core. */
export function pinServer(rootPid: number): void {
  if (pinning) for (const p of processTree(rootPid)) setAffinity(p.pid, pinning.serverCore);
}

/** Machine-wide busy CPU time so far (ms, all cores), from /proc/stat. */
function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user/nice).
  const [user, nice, system, , , irq, softirq, steal] = ticks as number[];
  return (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) / clockTicksPerSecond;
}

/** CPU used by the benchmark itself: this process's tree (load generator, servers) and PostgreSQL's processes. */
function ownCpuMs(): number {
  const processes = allProcesses();
  const ours = new Set(processTree(process.pid, processes).map((p) => p.pid));
  return processes.filter((p) => ours.has(p.pid) || p.command === 'postgres').reduce((sum, p) => sum + p.cpuMs, 0);
}

/**
 * What the rest of the machine used while a case ran, in cores: a machine counts as loaded when
 * others took more than LOADED_CORES of it. PostgreSQL counts as the bench's own (other users of the
 * same server are then not seen, which only makes "loaded" rarer).
 */
export const LOADED_CORES = Number(process.env.BENCH_LOADED_CORES ?? 0.25);
export function foreignLoadMeter(): { stop(): number } {
  const started = { at: performance.now(), machine: machineBusyMs(), own: ownCpuMs() };
  return {
    stop() {
      const elapsedMs = performance.now() - started.at;
      const foreignMs = machineBusyMs() - started.machine - (ownCpuMs() - started.own);
      return Math.max(0, foreignMs / elapsedMs);
    },
  };
}

/**
 * CPU time (ms) used so far by each process of a tree, named by its command line's last argument
 * (a distributed deployment's services: `service.js gateway`, `service.js tenants`, ...), so a
 * deployment's CPU per request can be split between its processes.
 */
export function cpuMsByProcess(rootPid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const p of processTree(rootPid)) {
    let name = p.command;
    try {
      const args = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      name = p.pid === rootPid ? 'supervisor' : (args.at(-1) ?? name);
    } catch {
      // exited meanwhile: its own command name
    }
    byName.set(name, (byName.get(name) ?? 0) + p.cpuMs);
  }
  return byName;
}
