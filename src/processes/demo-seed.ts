/**
 * Demo seeding at start (and by `npm run db:seed`), part by part: the company registry, the demo
 * lender catalogue (lenders and their products) and the demo sign-in users are each seeded when
 * missing, so a database that already holds something else (a lender registered before the first
 * start, say) still gets the rest. Every insert is idempotent (natural keys), so concurrent starts
 * are safe. The callers run it in demo only.
 */
import type { Db } from '../infra/database.js';
import { demoCompanyStream } from '../../prisma/seed/demo-companies.js';
import { demoLenders } from '../../prisma/seed/demo-lenders.js';
import { DEMO_COMPANY_COUNT, insertCompanies, insertDemoLenders } from '../../prisma/seed/seed-demo-data.js';
import { seedDemoIdentities } from '../../prisma/seed/demo-identities.js';

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
  const [companies, lendersAndUsers] = await Promise.all([seedCompanies(db), seedLendersThenIdentities(db)]);
  for (const part of [companies, ...lendersAndUsers]) {
    seeded.push(...part.seeded);
    present.push(...part.present);
  }

  log(`demo data: seeded ${seeded.join(', ') || 'nothing'}; already there: ${present.join(', ') || 'nothing'}`);
  return { seeded, present };
}

async function seedCompanies(db: Db): Promise<DemoSeedReport> {
  if ((await db.company.count()) > 0) return { seeded: [], present: ['companies'] };
  return { seeded: [`companies (${await insertCompanies(db, demoCompanyStream(DEMO_COMPANY_COUNT))})`], present: [] };
}

async function seedLendersThenIdentities(db: Db): Promise<DemoSeedReport[]> {
  const catalogue = demoLenders();
  const slugs = catalogue.map((l) => l.slug);
  const [lenders, products] = await Promise.all([
    db.lender.count({ where: { environment: 'demo', slug: { in: slugs } } }),
    db.lenderProduct.count({ where: { lender: { environment: 'demo', slug: { in: slugs } } } }),
  ]);
  let lenderPart: DemoSeedReport = { seeded: [], present: ['demo lenders and products'] };
  if (lenders < catalogue.length || products < catalogue.reduce((n, l) => n + l.products.length, 0)) {
    const inserted = await insertDemoLenders(db);
    lenderPart = { seeded: [`demo lenders (${inserted.lenders}) and products (${inserted.products})`], present: [] };
  }
  const users = await seedDemoIdentities(db);
  const userPart: DemoSeedReport = {
    seeded: users.created.length > 0 ? [`demo users (${users.created.join(', ')})`] : [],
    present: users.skipped.length > 0 ? [`demo users (${users.skipped.join(', ')})`] : [],
  };
  return [lenderPart, userPart];
}
