/**
 * The served OpenAPI document passes the linters integrators use, as they ship: Redocly CLI with
 * `recommended-strict` (redocly.yaml) and Spectral with `spectral:oas` (.spectral.yaml), with no
 * error and no warning. Both run offline: telemetry and update checks are off.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryPath } from '../src/kernel/repository-root.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1', DISABLE_TELEMETRY: '1' };
const bin = (name: string) => repositoryPath('node_modules', '.bin', name);

let app: TestApp;
let dir: string;
let documentFile: string;

beforeAll(async () => {
  app = await startTestApp();
  const res = await fetch(`${app.url}/openapi.json`);
  expect(res.status).toBe(200);
  dir = await mkdtemp(path.join(tmpdir(), 'fg-openapi-lint-'));
  documentFile = path.join(dir, 'openapi.json');
  await writeFile(documentFile, await res.text());
});
afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The output of a linter that exits non-zero when it finds something: still its report. */
async function output(command: string, args: string[]): Promise<string> {
  try {
    return (await run(command, args, { cwd: repositoryPath(), env: OFFLINE, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string };
    if (!failed.stdout) throw new Error(`${command} failed: ${failed.stderr ?? String(err)}`);
    return failed.stdout;
  }
}

describe('the served OpenAPI document', () => {
  it('passes Redocly CLI (recommended-strict) with no error and no warning', async () => {
    const report = JSON.parse(await output(bin('redocly'), ['lint', documentFile, '--config', repositoryPath('redocly.yaml'), '--format', 'json'])) as {
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>;
    };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(problems).toEqual([]);
  });

  it('passes Spectral (spectral:oas) with no error and no warning', async () => {
    const report = JSON.parse(
      await output(bin('spectral'), ['lint', documentFile, '--ruleset', repositoryPath('.spectral.yaml'), '--format', 'json', '--quiet']),
    ) as Array<{
      code: string;
      severity: number;
      message: string;
      path: string[];
    }>;
    // Severity 0 is an error, 1 a warning (2 information and 3 hints are not counted).
    const problems = report
      .filter((p) => p.severity <= 1)
      .map((p) => `${p.severity === 0 ? 'error' : 'warning'} ${p.code}: ${p.message} at ${p.path.join('.')}`);
    expect(problems).toEqual([]);
  });
});
