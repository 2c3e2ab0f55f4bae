/**
 * README's lender onboarding walkthrough, run as written (bash, curl, jq, the admin CLI and the lender
 * simulator) against a fresh deployment: the application reaches the simulator, which offers.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from './support/processes.js';
import { eventually } from './support/lender-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MARKER = '<!-- lender-walkthrough:';

/** The shell block after the marker, with the deployment's address and the simulator's port set to this test's. */
async function walkthroughScript(baseUrl: string, simulatorPort: number): Promise<string> {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(MARKER)))?.[1];
  if (!block) throw new Error('README has no lender walkthrough block');
  expect(block).toMatch(/^B=\S+ /m);
  expect(block).toMatch(/^SIM_PORT=\d+ /m);
  return `set -euo pipefail\n${block.replace(/^B=\S+/m, `B=${baseUrl}`).replace(/^SIM_PORT=\d+/m, `SIM_PORT=${simulatorPort}`)}`;
}

let app: TestApp;
beforeAll(async () => {
  // As `npm start` on a fresh clone: demo data seeded, the demo users among it.
  app = await startTestApp({ config: { SEED_DEMO_DATA: true } });
});
afterAll(() => app?.close());

it('delivers the application to the simulator, which answers with an offer', { timeout: 180_000 }, async () => {
  const script = await walkthroughScript(app.url, await freePort());
  // Its own process group, so the simulator it leaves running in the background is stopped with it.
  const shell = spawn('bash', ['-c', script], {
    cwd: new URL('..', import.meta.url),
    detached: true,
    env: { ...process.env, DATABASE_URL: app.database.url, PUBLIC_URL: app.url, DEPLOY_ENV: 'demo', ENV_FILE: '/nonexistent/.env', LOG_LEVEL: 'warn' },
  });
  let output = '';
  shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const code = await new Promise<number | null>((resolve) => shell.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('"applications":[{"lenderId":');
    expect(output).toContain('"event":"created"');
    expect(output).toMatch(/"call":"\/applications\/\d+\/offer","status":200/);
    const lender = await app.runtime.database.prisma.lender.findFirstOrThrow({ where: { name: 'Walkthrough Lender' }, include: { products: true } });
    expect(lender.products.map((p) => p.productType)).toEqual(['TERM_LOAN']);
    const application = await eventually(
      () => app.runtime.database.prisma.lenderApplication.findFirstOrThrow({ where: { lenderId: lender.id } }),
      (a) => a.status === 'Offered',
    );
    expect(application.status).toBe('Offered');
  } finally {
    try {
      process.kill(-shell.pid!, 'SIGTERM');
    } catch {
      // the group has already ended
    }
  }
});
