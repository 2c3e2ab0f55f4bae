/** The demo data seed runs on the first start of an empty demo database (and by `npm run db:seed`). */
import type { Db } from '../infra/database.js';
import { seedDemoData } from '../../prisma/seed/seed-demo-data.js';

export async function seedDemoDataIfEmpty(db: Db, log: (msg: string) => void): Promise<boolean> {
  const [companies, lenders] = await Promise.all([db.company.count(), db.lender.count()]);
  if (companies > 0 || lenders > 0) return false;
  log('empty demo database: seeding demo data');
  const counts = await seedDemoData(db, log);
  log(`seeded ${counts.companies} companies, ${counts.lenders} lenders, ${counts.products} products`);
  return true;
}
