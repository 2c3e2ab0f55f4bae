/**
 * Loading the register from Companies House Basic Company Data: the published format (leading
 * spaces in the header, zero-padded and prefixed numbers, a malformed record), zipped or not, search
 * by a word inside the name and by a previous name, the registered office on lookup, a re-import
 * that writes only what changed (dissolutions counted), a whole-register import that marks the
 * companies it no longer lists without deleting them, and, through the CLI as an operator runs it,
 * a 200,000-record file killed mid-way that resumes, with the importer's memory sampled throughout.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBasicCompanyData, type ImportProblem } from './register-import.js';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { startEntry } from '../../../test/support/processes.js';
import { SAMPLE_FILE, generatedNumber, writeBasicCompanyDataFile, writeZip } from '../../../test/support/basic-company-data-file.js';
import { readFileSync } from 'node:fs';

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
    expect(summary).toMatchObject({ recordsDone: 8, inserted: 6, changed: 0, unchanged: 0, rejected: 2, dissolved: 0, removed: 0, resumedAt: null });
  });

  it('reports each malformed record by its line and skips it', async () => {
    expect(problems).toEqual([
      { file: 'basic-company-data-sample.csv', line: 5, message: '5 fields; a record has 55' },
      { file: 'basic-company-data-sample.csv', line: 7, message: expect.stringContaining('CompanyNumber "12AB" is not a company number') },
    ]);
    expect(await db().company.count({ where: { registrationNumber: { in: ['09990001', '12AB'] } } })).toBe(0);
  });

  it('finds a company by a word inside its name and by a previous name', async () => {
    expect(await searchNumbers('orchard holdings')).toEqual(['00445566']);
    expect(await searchNumbers('holdings zylophane')).toEqual(['00445566']);
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
      contactAddress: {
        simpleValue: '4 KINGFISHER WAY, EVESHAM, WORCESTERSHIRE, WR11 1AB',
        street: '4 KINGFISHER WAY',
        city: 'EVESHAM',
        province: 'WORCESTERSHIRE',
        postalCode: 'WR11 1AB',
      },
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
      {
        registrationNumber: '04111222',
        status: 'DISSOLVED',
        registerStatus: 'dissolved',
        registerType: 'ltd',
        sector: 'HAULAGE',
        registerSource: 'companies-house-bulk',
        creditSource: null,
      },
      {
        registrationNumber: '07001234',
        status: 'ACTIVE',
        registerStatus: 'active',
        registerType: 'private-limited-guarant-nsc',
        sector: 'CHARITIES',
        registerSource: 'companies-house-bulk',
        creditSource: null,
      },
      {
        registrationNumber: 'NI054321',
        status: 'ACTIVE',
        registerStatus: 'active',
        registerType: 'ltd',
        sector: 'CONSTRUCTION',
        registerSource: 'companies-house-bulk',
        creditSource: null,
      },
    ]);
  });

  it('writes nothing on a second import of the same file, and only the changes of a changed file', async () => {
    const again = await importBasicCompanyData(db(), SAMPLE_FILE);
    expect(again).toMatchObject({ inserted: 0, changed: 0, unchanged: 6, rejected: 2 });

    const before = await db().company.findUniqueOrThrow({
      where: { countryCode_registrationNumber: { countryCode: 'GB', registrationNumber: 'OC398877' } },
      select: { updatedAt: true },
    });
    const text = await readFile(SAMPLE_FILE, 'utf8');
    const changedFile = path.join(dir, 'changed.csv');
    const newRecord = text.split('\r\n')[2]!.replace('QUILLMERE SOFTWARE LTD', 'QUILLMERE LABS LTD').replace('SC612345', 'SC700001');
    await writeFile(changedFile, `${text.replace('4 KINGFISHER WAY', '6 KINGFISHER WAY')}${newRecord}\r\n`);
    const changed = await importBasicCompanyData(db(), changedFile);
    expect(changed).toMatchObject({ recordsDone: 9, inserted: 1, changed: 1, unchanged: 5, rejected: 2 });
    expect(await (await get('/companies/00445566')).json()).toMatchObject({ contactAddress: { street: '6 KINGFISHER WAY' } });
    const after = await db().company.findUniqueOrThrow({
      where: { countryCode_registrationNumber: { countryCode: 'GB', registrationNumber: 'OC398877' } },
      select: { updatedAt: true },
    });
    expect(after.updatedAt).toEqual(before.updatedAt);

    // The register dissolves a company: the next file states it, and the import counts it.
    const dissolvedFile = path.join(dir, 'dissolved.csv');
    const lines = (await readFile(changedFile, 'utf8')).split('\r\n');
    lines[2] = lines[2]!.replace('"Active"', '"Dissolved"').replace('"United Kingdom",""', '"United Kingdom","30/11/2026"');
    await writeFile(dissolvedFile, lines.join('\r\n'));
    const dissolved = await importBasicCompanyData(db(), dissolvedFile);
    expect(dissolved).toMatchObject({ inserted: 0, changed: 1, dissolved: 1, unchanged: 6 });
    expect(await db().company.findFirstOrThrow({ where: { registrationNumber: 'SC612345' }, select: { status: true, registerStatus: true } })).toEqual({
      status: 'DISSOLVED',
      registerStatus: 'dissolved',
    });
  });

  it('reads the file zipped, as Companies House publishes it, reporting problems by entry and line', async () => {
    const zip = path.join(dir, 'BasicCompanyData-sample.zip');
    await writeZip(zip, [{ name: 'BasicCompanyData-sample.csv', data: readFileSync(SAMPLE_FILE) }]);
    const problems: ImportProblem[] = [];
    await db().company.deleteMany({ where: { registrationNumber: 'NI054321' } });
    const summary = await importBasicCompanyData(db(), zip, { onProblem: (p) => problems.push(p) });
    expect(summary).toMatchObject({ recordsDone: 8, inserted: 1, rejected: 2 });
    expect(problems.map((p) => `${p.file} ${p.line}`)).toEqual([
      'BasicCompanyData-sample.zip:BasicCompanyData-sample.csv 5',
      'BasicCompanyData-sample.zip:BasicCompanyData-sample.csv 7',
    ]);
    expect(await searchNumbers('fenwick tarn')).toEqual(['NI054321']);
  });
});

describe('a whole-register import (every part of one month)', () => {
  it('marks the companies the register no longer lists as removed and dissolved, keeps their rows, and clears the mark when they return', async () => {
    const part1 = path.join(dir, 'BasicCompanyData-2026-12-01-part1_2.csv');
    const part2 = path.join(dir, 'BasicCompanyData-2026-12-01-part2_2.csv');
    await writeBasicCompanyDataFile(part1, 300);
    // The second part lists companies 300..599 in a file of its own: the generator's first 600, minus the first 300.
    await writeBasicCompanyDataFile(part2, 600);
    const text = (await readFile(part2, 'utf8')).split('\r\n');
    await writeFile(part2, [text[0], ...text.slice(301)].join('\r\n'));
    const full = await importBasicCompanyData(db(), [part1, part2], { wholeRegister: true });
    const bulkBefore = await db().company.count({ where: { registerSource: 'companies-house-bulk', registerRemovedAt: null } });
    expect(full).toMatchObject({ recordsDone: 600, inserted: 600, removed: expect.any(Number) });

    // The next month's part 2 no longer lists companies 590..599.
    const shorter = path.join(dir, 'BasicCompanyData-2026-12-01-part2_2-next.csv');
    await writeFile(shorter, text.slice(0, 1).concat(text.slice(301, 591)).join('\r\n') + '\r\n');
    const next = await importBasicCompanyData(db(), [part1, shorter], { wholeRegister: true });
    expect(next).toMatchObject({ recordsDone: 590, inserted: 0, changed: 0, unchanged: 590, removed: bulkBefore - 590 });
    const gone = await db().company.findMany({
      where: { registrationNumber: { gte: generatedNumber(590), lte: generatedNumber(599) } },
      select: { status: true, registerRemovedAt: true },
    });
    expect(gone).toHaveLength(10);
    expect(gone.every((c) => c.status === 'DISSOLVED' && c.registerRemovedAt instanceof Date)).toBe(true);
    expect(await db().companyImportSeen.count()).toBe(0);

    const back = await importBasicCompanyData(db(), [part1, part2], { wholeRegister: true });
    expect(back).toMatchObject({ inserted: 0, changed: 10, removed: 0 });
    expect(
      await db().company.count({
        where: { registrationNumber: { gte: generatedNumber(590), lte: generatedNumber(599) }, status: 'ACTIVE', registerRemovedAt: null },
      }),
    ).toBe(10);
    // The CLI's test below counts the generated numbers it loads.
    await db().company.deleteMany({ where: { registrationNumber: { gte: generatedNumber(0), lte: generatedNumber(599) } } });
  });
});

describe('npm run admin -- import-companies', () => {
  // A JavaScript heap capped far below the files' size: an import that held what it read would not finish.
  const admin = (args: string[]) => {
    const proc = startEntry('src/processes/cli/admin.ts', ['import-companies', ...args], {
      DATABASE_URL: app.database.url,
      DEPLOY_ENV: 'demo',
      LOG_LEVEL: 'silent',
      NODE_OPTIONS: '--max-old-space-size=96',
    });
    let stdout = '';
    proc.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    return { proc, stdout: () => stdout };
  };
  const exit = (proc: ReturnType<typeof admin>['proc']) => new Promise<number | null>((resolve) => proc.child.once('close', (code) => resolve(code)));

  it('imports 200,000 records with progress in bounded memory, resumes after a kill, and a changed file applies only its changes', async () => {
    const count = 200_000;
    const file = path.join(dir, 'BasicCompanyData-part1.csv');
    const changedFile = path.join(dir, 'BasicCompanyData-part1-next.csv');
    await writeBasicCompanyDataFile(file, count);
    await writeBasicCompanyDataFile(changedFile, count, { variant: 1 });
    const range = { gte: generatedNumber(0), lte: generatedNumber(count - 1) };
    // The demo template's invented companies whose numbers fall in the generated range make way.
    await db().company.deleteMany({ where: { registrationNumber: range } });
    const inRange = () => db().company.count({ where: { registrationNumber: range } });
    // The importer's resident memory, read from /proc every 200 ms while it runs.
    const sampleRss = (pid: number, into: number[]) =>
      setInterval(() => {
        try {
          const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
          if (kb) into.push(kb / 1024);
        } catch {
          // the process has ended
        }
      }, 200);

    const first = admin([file]);
    const firstRss: number[] = [];
    const firstSampler = sampleRss(first.proc.child.pid!, firstRss);
    const fileRun = () => db().companyImport.findFirst({ where: { fileName: path.basename(file) }, select: { recordsDone: true, state: true } });
    for (let run = await fileRun(); (run?.recordsDone ?? 0) < 60_000; run = await fileRun()) {
      expect(first.proc.child.exitCode, first.proc.output()).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
    }
    first.proc.child.kill('SIGKILL');
    await exit(first.proc);
    clearInterval(firstSampler);
    const killed = await fileRun();
    expect(killed?.state).toBe('running');
    expect(killed!.recordsDone).toBeLessThan(count);
    expect(await inRange()).toBe(killed!.recordsDone);

    const second = admin([file]);
    const secondRss: number[] = [];
    const secondSampler = sampleRss(second.proc.child.pid!, secondRss);
    expect(await exit(second.proc), second.proc.output()).toBe(0);
    clearInterval(secondSampler);
    expect(second.proc.output()).toContain(`Resuming the unfinished import of these files after record ${killed!.recordsDone}`);
    expect(second.proc.output()).toMatch(/import-companies: 200,000 records, [\d,]+\/s, 100% of the file, ETA 0:00/);
    const summary = JSON.parse(second.stdout());
    expect(summary).toMatchObject({ records: count, inserted: count, changed: 0, unchanged: 0, rejected: 0, resumedAt: killed!.recordsDone });
    expect(await inRange()).toBe(count);

    // Bounded: with the JavaScript heap capped at 96 MB the runs complete (an import holding what it
    // read would not), and the resident set stays below a fixed bound while each run reads at least
    // 60,000 records of a file of about 100 MB. Off the heap the resident set still creeps late in a
    // run (tens of MB), so this is a bound, not a flatness check.
    for (const samples of [firstRss, secondRss]) {
      expect(samples.length).toBeGreaterThan(10);
      expect(Math.max(...samples), `RSS samples (MB): ${samples.map(Math.round).join(' ')}`).toBeLessThan(384);
    }

    const third = admin([changedFile]);
    expect(await exit(third.proc), third.proc.output()).toBe(0);
    expect(JSON.parse(third.stdout())).toMatchObject({
      records: count,
      inserted: 0,
      changed: count / 1000,
      unchanged: count - count / 1000,
      rejected: 0,
      resumedAt: null,
    });
  }, 1_200_000);

  it('refuses a file that is not Basic Company Data, writing nothing', async () => {
    const file = path.join(dir, 'other.csv');
    await writeFile(file, 'name,number\r\nACME,1\r\n');
    const run = admin([file]);
    expect(await exit(run.proc)).toBe(1);
    expect(run.proc.output()).toContain('is not a Basic Company Data file: the header has 2 columns; Basic Company Data has 55');
    const missing = admin([path.join(dir, 'absent.csv')]);
    expect(await exit(missing.proc)).toBe(2);
    expect(missing.proc.output()).toContain('absent.csv cannot be read');
  }, 180_000);
});
