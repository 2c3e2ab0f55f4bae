/**
 * The single-purpose CLIs answer `--help` with their usage and exit 0 before opening anything, and
 * an unknown flag with one line and the usage (exit 2): pointed at a database that does not exist
 * and a data directory that must not appear, a write attempt would fail or leave a trace.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startEntry } from './support/processes.js';

const CLIS = [
  { entry: 'src/processes/cli/migrate.ts', usage: /usage: npm run db:migrate/ },
  { entry: 'src/processes/cli/seed.ts', usage: /usage: npm run db:seed/ },
  { entry: 'src/processes/cli/lender-simulator.ts', usage: /usage: npm run lender-simulator -- \[--scenario/ },
];

async function run(entry: string, args: string[], dataDir: string): Promise<{ code: number | null; output: string }> {
  const proc = startEntry(entry, args, { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/never_opened', DATA_DIR: dataDir });
  const [code] = (await once(proc.child, 'exit')) as [number | null];
  return { code, output: proc.output() };
}

describe.each(CLIS)('$entry', ({ entry, usage }) => {
  it('--help prints the usage and exits 0 without opening a database or writing', async () => {
    const dataDir = path.join(tmpdir(), `fg-cli-help-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const { code, output } = await run(entry, ['--help'], dataDir);
    expect(code).toBe(0);
    expect(output).toMatch(usage);
    expect(output).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+/);
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('an unknown flag is one line naming it and the usage, exit 2 (no stack trace)', async () => {
    const dataDir = path.join(tmpdir(), `fg-cli-bad-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const { code, output } = await run(entry, ['--no-such-flag'], dataDir);
    expect(code).toBe(2);
    expect(output).toMatch(/Unknown option '--no-such-flag'/);
    expect(output).toMatch(usage);
    expect(output).not.toMatch(/\n\s+at /);
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);
});
