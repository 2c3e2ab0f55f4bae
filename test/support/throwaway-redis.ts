/**
 * A Redis server of the test's own (`redis-server` on a free port, nothing saved), which the test
 * may stop and start again: a Redis outage without touching the Redis other tests share.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './processes.js';
import { redisAnswers } from './redis-availability.js';

export interface ThrowawayRedis {
  url: string;
  /** Stops the server (SIGKILL: as a crash or a lost host would, with no goodbye to its clients). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** Whether `redis-server` can be run here. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while (!(await redisAnswers(url))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url, stop, start };
}
