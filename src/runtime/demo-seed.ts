/**
 * Demo seeding at start (and by `npm run db:seed`): the demo data (registry, lender catalogue) goes
 * into an empty demo database only; the demo sign-in identities are ensured on every seeding start,
 * separately idempotent, so a database seeded before they existed gets them too.
 */
import type { Db } from '../infra/database.js';
import { seedDemoData } from '../../prisma/seed/seed-demo-data.js';
import { seedDemoIdentities } from '../../prisma/seed/demo-identities.js';

/** Returns whether the demo data was seeded (false when companies or lenders already existed). */
export async function seedDemoDataIfEmpty(db: Db, log: (msg: string) => void): Promise<boolean> {
  const seeded = await seedDataIfEmpty(db, log);
  await seedDemoIdentities(db, log);
  return seeded;
}

async function seedDataIfEmpty(db: Db, log: (msg: string) => void): Promise<boolean> {
  const [companies, lenders] = await Promise.all([db.company.count(), db.lender.count()]);
  if (companies > 0 || lenders > 0) return false;
  log('empty demo database: seeding demo data');
  const counts = await seedDemoData(db, log);
  log(`seeded ${counts.companies} companies, ${counts.lenders} lenders, ${counts.products} products`);
  return true;
}
