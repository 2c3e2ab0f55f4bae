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

  if ((await db.company.count()) === 0) {
    seeded.push(`companies (${await insertCompanies(db, demoCompanyStream(DEMO_COMPANY_COUNT))})`);
  } else {
    present.push('companies');
  }

  const catalogue = demoLenders();
  const slugs = catalogue.map((l) => l.slug);
  const [lenders, products] = await Promise.all([
    db.lender.count({ where: { environment: 'demo', slug: { in: slugs } } }),
    db.lenderProduct.count({ where: { lender: { environment: 'demo', slug: { in: slugs } } } }),
  ]);
  if (lenders < catalogue.length || products < catalogue.reduce((n, l) => n + l.products.length, 0)) {
    const inserted = await insertDemoLenders(db);
    seeded.push(`demo lenders (${inserted.lenders}) and products (${inserted.products})`);
  } else {
    present.push('demo lenders and products');
  }

  const users = await seedDemoIdentities(db);
  if (users.created.length > 0) seeded.push(`demo users (${users.created.join(', ')})`);
  if (users.skipped.length > 0) present.push(`demo users (${users.skipped.join(', ')})`);

  log(`demo data: seeded ${seeded.join(', ') || 'nothing'}; already there: ${present.join(', ') || 'nothing'}`);
  return { seeded, present };
}
