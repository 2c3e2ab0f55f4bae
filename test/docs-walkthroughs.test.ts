/**
 * The shell walkthroughs of the docs, run as a reader runs them (bash, curl, jq) against a started
 * demo server: each succeeds, twice in a row (unique names per run), and stops loudly at a refused call.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryPath } from '../src/kernel/repository-root.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
let app: TestApp;

/** The first ```sh block after a heading of a docs file. */
async function shellBlockAfter(file: string, heading: string): Promise<string> {
  const text = await readFile(repositoryPath('docs', file), 'utf8');
  const at = text.indexOf(heading);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at))?.[1];
  if (at < 0 || !block) throw new Error(`${file} has no sh block after ${heading}`);
  return block;
}

const bash = (script: string, env: Record<string, string>) => run('bash', ['-c', script], { env: { ...process.env, ...env }, timeout: 120_000 });

beforeAll(async () => {
  app = await startTestApp({ config: { SEED_DEMO_DATA: true } });
}, 240_000);
afterAll(() => app?.close());

describe('docs/integrators.md: a first integration', () => {
  it('runs twice in a row against a demo server, each run making its own key and tenant', { timeout: 240_000 }, async () => {
    const script = await shellBlockAfter('integrators.md', '## A first integration');
    const B = app.url.replace(/^http:\/\//, '');
    const first = await bash(script, { B });
    const second = await bash(script, { B });
    for (const { stdout } of [first, second]) {
      expect(stdout).toMatch(/"referenceId":"acme-\d+-\d+"/);
      expect(stdout).toContain('"tenants":{"total":');
    }
    const keys = await app.runtime.database.prisma.apiKey.count({ where: { name: { startsWith: 'my-integration-' } } });
    expect(keys).toBeGreaterThanOrEqual(2);
  });

  it('stops at the first refused call, with its problem body, rather than going on with null', { timeout: 120_000 }, async () => {
    const script = (await shellBlockAfter('integrators.md', '## A first integration')).replace('demo-integrator-password', 'wrong-password');
    const failed = await bash(script, { B: app.url.replace(/^http:\/\//, '') }).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).not.toBe(0);
    expect(failed!.stdout).not.toContain('"tenants"');
  });
});
