/**
 * Writes the deterministic demo data: the company registry and the lender catalogue.
 *
 * Idempotent: rows are keyed by natural keys (company: countryCode + registrationNumber; lender:
 * environment + slug; product: lender + productType) and inserted with ON CONFLICT DO NOTHING
 * (a bulk INSERT for companies, createMany skipDuplicates for lenders and products), so existing rows
 * are left alone and a second run creates nothing. Safe to run concurrently.
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
/** Companies per INSERT statement (array parameters: the bind-parameter count does not grow with it). */
const BATCH = 5_000;

/** Plain JSON documents (interfaces without index signatures) as Prisma JSON input. */
function json(value: object): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

/** A timestamp(3) literal (UTC, no zone), as Prisma stores DateTime. */
function timestamp(d: Date | null): string | null {
  return d === null ? null : d.toISOString().replace('T', ' ').replace('Z', '');
}

type Row = ReturnType<typeof companyRow>;
/** Columns of "company" written by the bulk insert: name, element SQL type, value. */
const COMPANY_COLUMNS: ReadonlyArray<readonly [column: string, sqlType: string, value: (r: Row) => unknown]> = [
  ['countryCode', 'text', (r) => r.countryCode],
  ['registrationNumber', 'text', (r) => r.registrationNumber],
  ['name', 'text', (r) => r.name],
  ['nameLower', 'text', (r) => r.nameLower],
  ['type', '"CompanyType"', (r) => r.type],
  ['sector', '"Sector"', (r) => r.sector],
  ['status', '"CompanyStatus"', (r) => r.status],
  ['vatStatus', '"VatStatus"', (r) => r.vatStatus],
  ['incorporatedAt', 'timestamp(3)', (r) => timestamp(r.incorporatedAt)],
  ['scoreValue', 'integer', (r) => r.scoreValue],
  ['previousScoreValue', 'integer', (r) => r.previousScoreValue],
  ['scoreChangedAt', 'timestamp(3)', (r) => timestamp(r.scoreChangedAt)],
  ['scoreLastAssessedAt', 'timestamp(3)', (r) => timestamp(r.scoreLastAssessedAt)],
  ['creditLimitValue', 'numeric', (r) => String(r.creditLimitValue)],
  ['creditLimitCurrency', 'text', (r) => r.creditLimitCurrency],
  ['employeesNumber', 'integer', (r) => r.employeesNumber],
  ['website', 'text', (r) => r.website],
  ['address', 'jsonb', (r) => JSON.stringify(r.address)],
  ['companyNoticesCount', 'integer', (r) => r.companyNoticesCount],
  ['companyNoticesValue', 'numeric', (r) => String(r.companyNoticesValue)],
  ['directorsNoticesCount', 'integer', (r) => r.directorsNoticesCount],
  ['directorsNoticesValue', 'numeric', (r) => String(r.directorsNoticesValue)],
  ['noticesCurrency', 'text', (r) => r.noticesCurrency],
  // Every demo score is invented: labelled so, so a credit report says it is demo data.
  ['creditSource', 'text', () => 'demo'],
  ['creditAsOf', 'timestamp(3)', (r) => timestamp(r.scoreLastAssessedAt)],
];

/**
 * One INSERT ... SELECT FROM unnest(<one array parameter per column>) ON CONFLICT DO NOTHING:
 * one bind parameter per column whatever the batch size. Measured on PostgreSQL 15: about 0.13 ms a row
 * (100,000 companies in about 13 s, mostly index maintenance in the database), against about 1.1 ms a
 * row for createMany, whose per-row work in the Prisma client dominates.
 */
const INSERT_COMPANIES_SQL = `
INSERT INTO "company" ("id", ${COMPANY_COLUMNS.map(([c]) => `"${c}"`).join(', ')}, "createdAt", "updatedAt")
SELECT gen_random_uuid(), ${COMPANY_COLUMNS.map(([c, type]) => (type.startsWith('"') ? `t."${c}"::text::${type}` : `t."${c}"`)).join(', ')}, now(), now()
FROM unnest(${COMPANY_COLUMNS.map(([, type], i) => `$${i + 1}::${type.startsWith('"') ? 'text' : type}[]`).join(', ')})
  AS t(${COMPANY_COLUMNS.map(([c]) => `"${c}"`).join(', ')})
ON CONFLICT ("countryCode", "registrationNumber") DO NOTHING`;

async function insertCompanyBatch(prisma: PrismaClient, batch: readonly DemoCompany[]): Promise<number> {
  const rows = batch.map(companyRow);
  const columns = COMPANY_COLUMNS.map(([, , value]) => rows.map(value));
  return prisma.$executeRawUnsafe(INSERT_COMPANIES_SQL, ...columns);
}

/**
 * Inserts companies in batches, skipping ones already present (by country + registration number).
 * Returns the number of rows actually inserted. Also meant for benchmarks:
 * `insertCompanies(prisma, demoCompanyStream(100_000))` adds 100,000 unique companies quickly.
 */
export async function insertCompanies(
  prisma: PrismaClient,
  companies: Iterable<DemoCompany>,
  log: (msg: string) => void = () => {},
  batchSize = BATCH,
): Promise<number> {
  let batch: DemoCompany[] = [];
  let seen = 0;
  let inserted = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    inserted += await insertCompanyBatch(prisma, batch);
    seen += batch.length;
    batch = [];
    log(`companies: ${seen} processed, ${inserted} inserted`);
  };
  for (const company of companies) {
    batch.push(company);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return inserted;
}

/** Inserts the demo lenders and their products (skipping existing ones). Returns rows inserted. */
export async function insertDemoLenders(prisma: PrismaClient, log: (msg: string) => void = () => {}): Promise<{ lenders: number; products: number }> {
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
