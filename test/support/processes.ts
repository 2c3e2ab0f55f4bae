/** Running the system's real entry points as child processes, as a user would. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** The build's JavaScript of an entry, as its npm script runs it: `npm start` runs main.ts through start.ts (V8's code cache on). */
function compiledEntry(entry: string): string {
  const started = entry === 'src/processes/main.ts' ? 'src/processes/start.ts' : entry;
  return `dist/server/${started.replace(/\.ts$/, '.js')}`;
}

/**
 * Starts `node --import tsx <entry> [...args]` with exactly the given environment on top of PATH/HOME;
 * `compiled`: the build's JavaScript of that entry with plain node, as `npm start` runs it
 * (build it first with `buildServer()`).
 */
export function startEntry(entry: string, args: string[], env: Record<string, string>, options: { compiled?: boolean } = {}): RunningProcess {
  const nodeArgs = options.compiled ? [compiledEntry(entry)] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    // ENV_FILE: a developer's own .env in the checkout must not leak into the processes under test.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ENV_FILE: '/dev/null', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export async function waitForHealth(baseUrl: string, proc: RunningProcess, timeoutMs = 90_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`process exited (${proc.child.exitCode}):\n${proc.output()}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) return res.json();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${baseUrl} not healthy after ${timeoutMs} ms:\n${proc.output()}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** `npm run build` if the sources changed since the last one: the compiled server under dist/server. */
export function buildServer(): void {
  const result = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
}
