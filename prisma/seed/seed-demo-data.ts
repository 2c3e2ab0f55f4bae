/**
 * Writes the demo data: the company registry and the lender catalogue. Idempotent: rows are keyed
 * by natural keys (country + registration number; environment + lender slug; lender + product type)
 * and existing ones are left alone, so a second run creates nothing.
 */
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { demoCompanies, type DemoCompany } from './demo-companies.js';
import { demoLenders } from './demo-lenders.js';

export interface SeedCounts {
  companies: number;
  lenders: number;
  products: number;
}

const BATCH = 500;
/** Demo lenders deliver nowhere until a real webhook URL is registered for them (port 0 never accepts). */
export const UNSET_WEBHOOK_URL = 'http://127.0.0.1:0/unset';

export function companyRow(c: DemoCompany) {
  return { ...c, nameLower: c.name.toLowerCase() };
}

export async function insertCompanies(db: PrismaClient, companies: Iterable<DemoCompany>, log: (msg: string) => void = () => {}): Promise<number> {
  let batch: DemoCompany[] = [];
  let written = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const result = await db.company.createMany({ data: batch.map(companyRow), skipDuplicates: true });
    written += result.count;
    batch = [];
    log(`companies: ${written} written`);
  };
  for (const company of companies) {
    batch.push(company);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return written;
}

export async function seedDemoData(db: PrismaClient, log: (msg: string) => void = () => {}): Promise<SeedCounts> {
  await insertCompanies(db, demoCompanies(), log);
  for (const lender of demoLenders()) {
    const { products, ...fields } = lender;
    const row = await db.lender.upsert({
      where: { environment_slug: { environment: 'demo', slug: lender.slug } },
      create: { ...fields, environment: 'demo', applicationUrl: UNSET_WEBHOOK_URL },
      update: {},
    });
    await db.lenderProduct.createMany({
      data: products.map((p) => ({ ...p, lenderId: row.id })),
      skipDuplicates: true,
    });
  }
  log('lenders and products written');
  const [companies, lenders, products] = await Promise.all([
    db.company.count(),
    db.lender.count({ where: { environment: 'demo' } }),
    db.lenderProduct.count({ where: { lender: { environment: 'demo' } } }),
  ]);
  return { companies, lenders, products };
}
