/**
 * Demo seeding at start (and by `npm run db:seed`), part by part: the company registry, the demo
 * lender catalogue (lenders and their products) and the demo sign-in users are each seeded when
 * missing, so a database that already holds something else (a lender registered before the first
 * start, say) still gets the rest. Every insert is idempotent (natural keys), so concurrent starts
 * are safe. The callers run it in demo only.
 */
import { readsOf, type Db } from '../infra/database.js';
import { demoCompanyStream } from '../../prisma/seed/demo-companies.js';
import { demoLenders, type DemoLender } from '../../prisma/seed/demo-lenders.js';
import { DEMO_COMPANY_COUNT, insertCompanies, insertDemoLenders } from '../../prisma/seed/seed-demo-data.js';
import { DEMO_CREDENTIALS, seedDemoIdentities } from '../../prisma/seed/demo-identities.js';

export interface DemoSeedReport {
  /** The parts written by this call, with what was written. */
  seeded: string[];
  /** The parts found already there. */
  present: string[];
}

export async function seedMissingDemoData(db: Db, log: (msg: string) => void): Promise<DemoSeedReport> {
  const seeded: string[] = [];
  const present: string[] = [];
  // The company registry shares no table with the lenders and identities: it is written meanwhile,
  // so a first start waits for the longer of the two rather than their sum.
  const catalogue = demoLenders();
  const found = await demoDataPresent(db, catalogue);
  const [companies, lendersAndUsers] = await Promise.all([seedCompanies(db, found), seedLendersThenIdentities(db, catalogue, found)]);
  for (const part of [companies, ...lendersAndUsers]) {
    seeded.push(...part.seeded);
    present.push(...part.present);
  }

  log(`demo data: seeded ${seeded.join(', ') || 'nothing'}; already there: ${present.join(', ') || 'nothing'}`);
  return { seeded, present };
}

const DEMO_USER_EMAILS: string[] = Object.values(DEMO_CREDENTIALS).map((identity) => identity.email);

interface DemoDataPresent {
  companies: boolean;
  demoLenders: number;
  demoProducts: number;
  demoUsers: number;
}

/**
 * What of the demo data is there, in one statement through the SQL reads: on every start after the
 * first, everything is, and nothing more is sent (through Prisma, these checks were four statements
 * compiled in WebAssembly, about 60 ms of a 1 s start).
 */
async function demoDataPresent(db: Db, catalogue: DemoLender[]): Promise<DemoDataPresent> {
  const slugs = catalogue.map((l) => l.slug);
  const row = await readsOf(db)
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('company').select('company.id')).as('companies'),
      eb
        .selectFrom('lender')
        .where('lender.environment', '=', 'demo')
        .where('lender.slug', 'in', slugs)
        .select((c) => c.fn.countAll<string>().as('n'))
        .as('demoLenders'),
      eb
        .selectFrom('lender_product')
        .innerJoin('lender', 'lender.id', 'lender_product.lenderId')
        .where('lender.environment', '=', 'demo')
        .where('lender.slug', 'in', slugs)
        .select((c) => c.fn.countAll<string>().as('n'))
        .as('demoProducts'),
      eb
        .selectFrom('platform_user')
        .where('platform_user.email', 'in', DEMO_USER_EMAILS)
        .select((c) => c.fn.countAll<string>().as('n'))
        .as('demoUsers'),
    ])
    .executeTakeFirstOrThrow();
  return { companies: Boolean(row.companies), demoLenders: Number(row.demoLenders), demoProducts: Number(row.demoProducts), demoUsers: Number(row.demoUsers) };
}

async function seedCompanies(db: Db, found: DemoDataPresent): Promise<DemoSeedReport> {
  if (found.companies) return { seeded: [], present: ['companies'] };
  return { seeded: [`companies (${await insertCompanies(db, demoCompanyStream(DEMO_COMPANY_COUNT))})`], present: [] };
}

async function seedLendersThenIdentities(db: Db, catalogue: DemoLender[], found: DemoDataPresent): Promise<DemoSeedReport[]> {
  let lenderPart: DemoSeedReport = { seeded: [], present: ['demo lenders and products'] };
  if (found.demoLenders < catalogue.length || found.demoProducts < catalogue.reduce((n, l) => n + l.products.length, 0)) {
    const inserted = await insertDemoLenders(db);
    lenderPart = { seeded: [`demo lenders (${inserted.lenders}) and products (${inserted.products})`], present: [] };
  }
  // Each missing user is checked again as it is created (another process may be seeding too).
  const users = found.demoUsers < DEMO_USER_EMAILS.length ? await seedDemoIdentities(db) : { created: [], skipped: DEMO_USER_EMAILS };
  const userPart: DemoSeedReport = {
    seeded: users.created.length > 0 ? [`demo users (${users.created.join(', ')})`] : [],
    present: users.skipped.length > 0 ? [`demo users (${users.skipped.join(', ')})`] : [],
  };
  return [lenderPart, userPart];
}
