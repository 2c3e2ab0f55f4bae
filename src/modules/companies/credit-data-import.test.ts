/**
 * Credit data from a named source or none: a company loaded from the register has no credit data,
 * so its credit report says so and names no grade; a bureau's delivery file imported under the
 * bureau's name gives it a score, limit and notices, and the report names the source and its date.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBasicCompanyData } from './register-import.js';
import { NO_CREDIT_DATA } from '../profiles/credit-report.js';
import { bearer, createTenant, platformToken, signUpIntegrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { startEntry } from '../../../test/support/processes.js';
import { SAMPLE_FILE } from '../../../test/support/basic-company-data-file.js';

const BUREAU_FILE = fileURLToPath(new URL('./fixtures/credit-data-sample.csv', import.meta.url));

let app: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  await importBasicCompanyData(app.runtime.database.prisma, SAMPLE_FILE);
  const me = await signUpIntegrator(app);
  const tenant = await createTenant(app, me.platformToken);
  auth = bearer((await platformToken(app, me.apiKey, tenant.id)).access_token);
  const res = await fetch(`${app.url}/api/business/v1/profile`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ companyInformation: { registrationNumber: '00445566' } }),
  });
  expect(res.status).toBe(201);
  // Profile set-up copies the registered office as the contact address the body did not give.
  expect((await res.json()).companyInformation.contactAddress).toEqual({
    simpleValue: '4 KINGFISHER WAY, EVESHAM, WORCESTERSHIRE, WR11 1AB',
    street: '4 KINGFISHER WAY',
    city: 'EVESHAM',
    province: 'WORCESTERSHIRE',
    postalCode: 'WR11 1AB',
  });
});
afterAll(() => app?.close());

const creditReport = async () => {
  const res = await fetch(`${app.url}/api/business/v1/profile/credit-report`, { headers: auth });
  expect(res.status).toBe(200);
  return res.json();
};

describe('the credit report of a company from the register', () => {
  it('says there is no credit data and names no grade', async () => {
    const report = await creditReport();
    expect(report.meta.creditData).toEqual({ available: false, reason: NO_CREDIT_DATA });
    expect(report.data.companyInformation).toMatchObject({ name: 'ZYLOPHANE ORCHARD HOLDINGS LIMITED', score: null, creditLimit: null, legalNotices: null });
    expect(JSON.stringify(report)).not.toMatch(/"grade"\s*:/);
  });

  it('names the bureau and the date once its delivery file is imported; bad and unknown records are reported by line', async () => {
    const proc = startEntry('src/processes/cli/admin.ts', ['import-credit-data', BUREAU_FILE, '--source', 'Example Bureau'], {
      DATABASE_URL: app.database.url,
      DEPLOY_ENV: 'demo',
      LOG_LEVEL: 'silent',
    });
    let stdout = '';
    proc.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => proc.child.once('close', resolve));
    expect(code, proc.output()).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ file: BUREAU_FILE, source: 'Example Bureau', records: 3, updated: 1, rejected: 2 });
    expect(proc.output()).toContain('line 3: score "101" must be a whole number from 0 to 100 (skipped)');
    expect(proc.output()).toContain('line 4: GB 99999997 is not in the company register (skipped)');

    const report = await creditReport();
    expect(report.meta.creditData).toEqual({ available: true, source: 'Example Bureau', asOf: '2026-11-30T00:00:00.000Z', demo: false });
    expect(report.data.companyInformation).toMatchObject({
      score: { grade: 'B', lastAssessedAt: '2026-11-30T00:00:00.000Z' },
      creditLimit: { code: 'GBP', value: 25000 },
      legalNotices: { company: { last12MonthsCount: 1, last12MonthsValue: { code: 'GBP', value: 1200.5 } }, directors: { last12MonthsCount: 0 } },
    });
    const scottish = await app.runtime.database.prisma.company.findFirstOrThrow({
      where: { registrationNumber: 'SC612345' },
      select: { scoreValue: true, creditSource: true },
    });
    expect(scottish).toEqual({ scoreValue: null, creditSource: null });
  });
});
