/**
 * Writes the deterministic demo data: the company registry and the lender catalogue.
 *
 * Idempotent: rows are keyed by natural keys (company: countryCode + registrationNumber; lender:
 * environment + slug; product: lender + productType) and inserted with createMany skipDuplicates,
 * so existing rows are left alone and a second run creates nothing. Safe to run concurrently.
 */
import type { Prisma, PrismaClient } from '../../src/generated/prisma/client.js';
import { companyRow, demoCompanyStream, type DemoCompany } from './demo-companies.js';
import { demoLenders } from './demo-lenders.js';

export interface SeedCounts {
  /** Companies in the registry after seeding. */
  companies: number;
  /** Demo-environment lenders after seeding. */
  lenders: number;
  /** Products of demo-environment lenders after seeding. */
  products: number;
}

/** Number of demo companies seeded by default. */
export const DEMO_COMPANY_COUNT = 400;
/** 1,000 rows x 24 columns stays well below PostgreSQL's 65,535 bind parameters per statement. */
const BATCH = 1_000;

/** Plain JSON documents (interfaces without index signatures) as Prisma JSON input. */
function json(value: object): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

function companyInput(c: DemoCompany): Prisma.CompanyCreateManyInput {
  const row = companyRow(c);
  return { ...row, address: json(row.address) };
}

/**
 * Inserts companies in batches, skipping ones already present (by country + registration number).
 * Returns the number of rows actually inserted. Also used by benchmarks with `demoCompanyStream(100_000)`.
 */
export async function insertCompanies(
  prisma: PrismaClient,
  companies: Iterable<DemoCompany>,
  log: (msg: string) => void = () => {},
  batchSize = BATCH,
): Promise<number> {
  let batch: Prisma.CompanyCreateManyInput[] = [];
  let seen = 0;
  let inserted = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const result = await prisma.company.createMany({ data: batch, skipDuplicates: true });
    inserted += result.count;
    seen += batch.length;
    batch = [];
    log(`companies: ${seen} processed, ${inserted} inserted`);
  };
  for (const company of companies) {
    batch.push(companyInput(company));
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return inserted;
}

/** Inserts the demo lenders and their products (skipping existing ones). Returns rows inserted. */
export async function insertDemoLenders(
  prisma: PrismaClient,
  log: (msg: string) => void = () => {},
): Promise<{ lenders: number; products: number }> {
  const catalogue = demoLenders();
  const lenders = await prisma.lender.createMany({
    data: catalogue.map(({ products: _products, requiredFields, ...lender }) => ({
      ...lender,
      requiredFields: json(requiredFields),
      environment: 'demo' as const,
    })),
    skipDuplicates: true,
  });
  const rows = await prisma.lender.findMany({
    where: { environment: 'demo', slug: { in: catalogue.map((l) => l.slug) } },
    select: { id: true, slug: true },
  });
  const idBySlug = new Map(rows.map((r) => [r.slug, r.id]));
  const products = await prisma.lenderProduct.createMany({
    data: catalogue.flatMap((lender) => {
      const lenderId = idBySlug.get(lender.slug);
      if (lenderId === undefined) throw new Error(`demo lender ${lender.slug} missing after insert`);
      return lender.products.map((p): Prisma.LenderProductCreateManyInput => ({ ...p, requirements: json(p.requirements), lenderId }));
    }),
    skipDuplicates: true,
  });
  log(`lenders: ${lenders.count} inserted (${catalogue.length} in the catalogue), products: ${products.count} inserted`);
  return { lenders: lenders.count, products: products.count };
}

/** Seeds the demo registry and lender catalogue; returns the totals present afterwards. */
export async function seedDemoData(prisma: PrismaClient, log: (msg: string) => void = () => {}): Promise<SeedCounts> {
  await insertCompanies(prisma, demoCompanyStream(DEMO_COMPANY_COUNT), log);
  await insertDemoLenders(prisma, log);
  const [companies, lenders, products] = await Promise.all([
    prisma.company.count(),
    prisma.lender.count({ where: { environment: 'demo' } }),
    prisma.lenderProduct.count({ where: { lender: { environment: 'demo' } } }),
  ]);
  return { companies, lenders, products };
}
