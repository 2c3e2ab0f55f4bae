/**
 * Loading the register from Companies House Basic Company Data: the published format (leading
 * spaces in the header, zero-padded and prefixed numbers, a malformed record), search by a word
 * inside the name and by a previous name, the registered office on lookup, a re-import that writes
 * only what changed, and an import killed mid-way that resumes where its last batch committed.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBasicCompanyData, type ImportProblem } from './register-import.js';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { startEntry } from '../../../test/support/processes.js';
import { SAMPLE_FILE, generatedNumber, writeBasicCompanyDataFile } from '../../../test/support/basic-company-data-file.js';

let app: TestApp;
let auth: Record<string, string>;
let dir: string;
beforeAll(async () => {
  app = await startTestApp();
  const me = await signUpIntegrator(app);
  auth = bearer((await marketplaceV1Token(app, me.apiKey)).jwt);
  dir = await mkdtemp(path.join(tmpdir(), 'fg-register-'));
});
afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const db = () => app.runtime.database.prisma;
const get = (p: string) => fetch(`${app.url}/api/marketplace/v1${p}`, { headers: auth });
const searchNumbers = async (term: string) => {
  const res = await get(`/companies/search/${encodeURIComponent(term)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as Array<{ number: string }>).map((hit) => hit.number);
};

describe('importing the sample file', () => {
  let problems: ImportProblem[] = [];
  beforeAll(async () => {
    problems = [];
    const summary = await importBasicCompanyData(db(), SAMPLE_FILE, { onProblem: (p) => problems.push(p) });
    expect(summary).toMatchObject({ recordsDone: 8, inserted: 6, changed: 0, unchanged: 0, rejected: 2, resumedAt: null });
  });

  it('reports each malformed record by its line and skips it', async () => {
    expect(problems).toEqual([
      { line: 5, message: '5 fields; a record has 55' },
      { line: 7, message: expect.stringContaining('CompanyNumber "12AB" is not a company number') },
    ]);
    expect(await db().company.count({ where: { registrationNumber: { in: ['09990001', '12AB'] } } })).toBe(0);
  });

  it('finds a company by a word inside its name and by a previous name', async () => {
    expect(await searchNumbers('orchard holdings')).toEqual(['00445566']);
    expect(await searchNumbers('fruit growers')).toEqual(['00445566']);
    expect(await searchNumbers('Quillmere')).toEqual(['SC612345']);
  });

  it('answers a lookup with the registered office, the mapped type and sector, and no invented credit data', async () => {
    const res = await get('/companies/00445566');
    expect(res.status).toBe(200);
    const company = await res.json();
    expect(company).toMatchObject({
      name: 'ZYLOPHANE ORCHARD HOLDINGS LIMITED',
      registrationNumber: '00445566',
      type: 'LIMITED_COMPANY',
      sector: 'AGRICULTURE',
      incorporatedAt: '1947-03-12T00:00:00.000Z',
      contactAddress: { simpleValue: '4 KINGFISHER WAY, EVESHAM, WORCESTERSHIRE, WR11 1AB', street: '4 KINGFISHER WAY', city: 'EVESHAM', province: 'WORCESTERSHIRE', postalCode: 'WR11 1AB' },
      score: null,
      creditLimit: null,
      legalNotices: null,
    });
    const scottish = await (await get('/companies/SC612345')).json();
    expect(scottish).toMatchObject({ sector: 'IT_RELATED', contactAddress: { street: 'C/O ABACUS ACCOUNTANTS, 21 CASTLE TERRACE' } });
    expect(await (await get('/companies/OC398877')).json()).toMatchObject({ type: 'LIMITED_LIABILITY_PARTNERSHIP', sector: 'PROFESSIONAL_SERVICES' });
    const stored = await db().company.findMany({
      where: { registrationNumber: { in: ['NI054321', '04111222', '07001234'] } },
      select: { registrationNumber: true, status: true, registerStatus: true, registerType: true, sector: true, registerSource: true, creditSource: true },
      orderBy: { registrationNumber: 'asc' },
    });
    expect(stored).toEqual([
      { registrationNumber: '04111222', status: 'DISSOLVED', registerStatus: 'dissolved', registerType: 'ltd', sector: 'HAULAGE', registerSource: 'companies-house-bulk', creditSource: null },
      { registrationNumber: '07001234', status: 'ACTIVE', registerStatus: 'active', registerType: 'private-limited-guarant-nsc', sector: 'CHARITIES', registerSource: 'companies-house-bulk', creditSource: null },
      { registrationNumber: 'NI054321', status: 'ACTIVE', registerStatus: 'active', registerType: 'ltd', sector: 'CONSTRUCTION', registerSource: 'companies-house-bulk', creditSource: null },
    ]);
  });

  it('writes nothing on a second import of the same file, and only the changes of a changed file', async () => {
    const again = await importBasicCompanyData(db(), SAMPLE_FILE);
    expect(again).toMatchObject({ inserted: 0, changed: 0, unchanged: 6, rejected: 2 });

    const before = await db().company.findUniqueOrThrow({ where: { countryCode_registrationNumber: { countryCode: 'GB', registrationNumber: 'OC398877' } }, select: { updatedAt: true } });
    const text = await readFile(SAMPLE_FILE, 'utf8');
    const changedFile = path.join(dir, 'changed.csv');
    const newRecord = text.split('\r\n')[2]!.replace('QUILLMERE SOFTWARE LTD', 'QUILLMERE LABS LTD').replace('SC612345', 'SC700001');
    await writeFile(changedFile, `${text.replace('4 KINGFISHER WAY', '6 KINGFISHER WAY')}${newRecord}\r\n`);
    const changed = await importBasicCompanyData(db(), changedFile);
    expect(changed).toMatchObject({ recordsDone: 9, inserted: 1, changed: 1, unchanged: 5, rejected: 2 });
    expect(await (await get('/companies/00445566')).json()).toMatchObject({ contactAddress: { street: '6 KINGFISHER WAY' } });
    const after = await db().company.findUniqueOrThrow({ where: { countryCode_registrationNumber: { countryCode: 'GB', registrationNumber: 'OC398877' } }, select: { updatedAt: true } });
    expect(after.updatedAt).toEqual(before.updatedAt);
  });
});

describe('npm run admin -- import-companies', () => {
  const admin = (args: string[]) => {
    const proc = startEntry('src/processes/cli/admin.ts', ['import-companies', ...args], { DATABASE_URL: app.database.url, DEPLOY_ENV: 'demo', LOG_LEVEL: 'silent' });
    let stdout = '';
    proc.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    return { proc, stdout: () => stdout };
  };
  const exit = (proc: ReturnType<typeof admin>['proc']) => new Promise<number | null>((resolve) => proc.child.once('close', (code) => resolve(code)));

  it('resumes an import killed mid-way from its last committed batch, and loads every record once', async () => {
    const count = 20_000;
    const file = path.join(dir, 'BasicCompanyData-part1.csv');
    await writeBasicCompanyDataFile(file, count);
    const inRange = () => db().company.count({ where: { registrationNumber: { gte: generatedNumber(0), lte: generatedNumber(count - 1) } } });

    const first = admin([file, '--batch-size', '100']);
    const fileRun = () => db().companyImport.findFirst({ where: { fileName: path.basename(file) }, select: { recordsDone: true, state: true } });
    for (let run = await fileRun(); (run?.recordsDone ?? 0) < 1000; run = await fileRun()) {
      expect(first.proc.child.exitCode, first.proc.output()).toBeNull();
      await new Promise((r) => setTimeout(r, 50));
    }
    first.proc.child.kill('SIGKILL');
    await exit(first.proc);
    const killed = await fileRun();
    expect(killed?.state).toBe('running');
    expect(killed!.recordsDone).toBeLessThan(count);
    expect(await inRange()).toBe(killed!.recordsDone);

    const second = admin([file, '--batch-size', '100']);
    expect(await exit(second.proc), second.proc.output()).toBe(0);
    expect(second.proc.output()).toContain(`Resuming the unfinished import of this file after record ${killed!.recordsDone}`);
    expect(second.proc.output()).toMatch(/import-companies: 20,000 records, [\d,]+\/s, 100% of the file/);
    const summary = JSON.parse(second.stdout());
    expect(summary).toMatchObject({ records: count, inserted: count, changed: 0, unchanged: 0, rejected: 0, resumedAt: killed!.recordsDone });
    expect(await inRange()).toBe(count);
  });

  it('refuses a file that is not Basic Company Data, writing nothing', async () => {
    const file = path.join(dir, 'other.csv');
    await writeFile(file, 'name,number\r\nACME,1\r\n');
    const run = admin([file]);
    expect(await exit(run.proc)).toBe(1);
    expect(run.proc.output()).toContain('is not a Basic Company Data file: the header has 2 columns; Basic Company Data has 55');
    const missing = admin([path.join(dir, 'absent.csv')]);
    expect(await exit(missing.proc)).toBe(2);
    expect(missing.proc.output()).toContain('absent.csv cannot be read');
  });
});
