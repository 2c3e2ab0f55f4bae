/**
 * Writes register facts into the `company` table, a batch per statement: new companies inserted,
 * changed ones (their digest differs) updated, unchanged ones not touched. Credit data columns are
 * never written here: they belong to the credit-data source. Also the bookkeeping of register
 * imports (company_import), so an interrupted import resumes where its last batch committed.
 */
import type { Db } from '../../infra/database.js';
import { registerDigest, type RegisterFacts, type RegisterSource } from './register-facts.js';

export interface BatchOutcome {
  inserted: number;
  changed: number;
  unchanged: number;
}

/** One statement: every column travels as one array, rows are rebuilt by unnest. */
const UPSERT_SQL = `
  INSERT INTO company AS c (
    "id", "countryCode", "registrationNumber", "name", "nameLower", "type", "sector", "status", "incorporatedAt", "address",
    "registerSource", "registerType", "registerStatus", "sicCodes", "previousNames", "previousNamesLower", "registerDigest",
    "updatedAt")
  SELECT gen_random_uuid(), t.country, t.number, t.name, lower(t.name), t.type::"CompanyType", t.sector::"Sector", t.status::"CompanyStatus",
    t.incorporated::timestamp(3), t.address::jsonb, $13, t.register_type, t.register_status,
    coalesce(string_to_array(nullif(t.sic, ''), E'\\n'), ARRAY[]::text[]),
    coalesce(string_to_array(nullif(t.previous, ''), E'\\n'), ARRAY[]::text[]),
    lower(t.previous), t.digest, now()
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
              $9::text[], $10::text[], $11::text[], $12::text[], $14::text[])
    AS t(country, number, name, type, sector, status, incorporated, address, register_type, register_status, sic, previous, digest)
  ON CONFLICT ("countryCode", "registrationNumber") DO UPDATE SET
    "name" = EXCLUDED."name", "nameLower" = EXCLUDED."nameLower", "type" = EXCLUDED."type", "sector" = EXCLUDED."sector",
    "status" = EXCLUDED."status", "incorporatedAt" = EXCLUDED."incorporatedAt", "address" = EXCLUDED."address",
    "registerSource" = EXCLUDED."registerSource", "registerType" = EXCLUDED."registerType", "registerStatus" = EXCLUDED."registerStatus",
    "sicCodes" = EXCLUDED."sicCodes", "previousNames" = EXCLUDED."previousNames", "previousNamesLower" = EXCLUDED."previousNamesLower",
    "registerDigest" = EXCLUDED."registerDigest", "updatedAt" = now()
  WHERE c."registerDigest" IS DISTINCT FROM EXCLUDED."registerDigest"
  RETURNING (xmax = 0) AS inserted`;

/** The same company twice in one batch would make the statement update a row twice: the later line wins. */
function lastOfEach(batch: readonly RegisterFacts[]): RegisterFacts[] {
  const byKey = new Map<string, RegisterFacts>();
  for (const facts of batch) byKey.set(`${facts.countryCode} ${facts.registrationNumber}`, facts);
  return [...byKey.values()];
}

/** Writes a batch (in `db`, a transaction when the caller has one); returns what it did. */
export async function writeRegisterFacts(db: Pick<Db, '$queryRawUnsafe'>, batch: readonly RegisterFacts[], source: RegisterSource): Promise<BatchOutcome> {
  const rows = lastOfEach(batch);
  if (rows.length === 0) return { inserted: 0, changed: 0, unchanged: 0 };
  const column = <T>(value: (facts: RegisterFacts) => T) => rows.map(value);
  const written = await db.$queryRawUnsafe<Array<{ inserted: boolean }>>(
    UPSERT_SQL,
    column((f) => f.countryCode),
    column((f) => f.registrationNumber),
    column((f) => f.name),
    column((f) => f.type),
    column((f) => f.sector),
    column((f) => f.status),
    column((f) => f.incorporatedAt?.toISOString() ?? null),
    column((f) => (f.address ? JSON.stringify(f.address) : null)),
    column((f) => f.registerType),
    column((f) => f.registerStatus),
    column((f) => f.sicCodes.join('\n')),
    column((f) => f.previousNames.join('\n')),
    source,
    column(registerDigest),
  );
  const inserted = written.filter((row) => row.inserted).length;
  return { inserted, changed: written.length - inserted, unchanged: batch.length - written.length };
}

// ---------------------------------------------------------------------------------------------
// Import bookkeeping

export interface ImportRecord {
  id: string;
  recordsDone: number;
  inserted: number;
  changed: number;
  unchanged: number;
  rejected: number;
}

/** The unfinished import of this file, to resume, or a new one. */
export async function openImport(db: Db, fileKey: string, fileName: string): Promise<ImportRecord & { resumed: boolean }> {
  const select = { id: true, recordsDone: true, inserted: true, changed: true, unchanged: true, rejected: true } as const;
  const running = await db.companyImport.findFirst({ where: { fileKey, state: 'running' }, orderBy: { startedAt: 'desc' }, select });
  if (running) return { ...running, resumed: true };
  return { ...(await db.companyImport.create({ data: { fileKey, fileName }, select })), resumed: false };
}

/**
 * Writes a batch and moves the import's position past it in one transaction: after a crash the
 * position names exactly the records whose facts are in the table.
 */
export async function commitBatch(db: Db, importId: string, batch: readonly RegisterFacts[], progress: { records: number; rejected: number }): Promise<BatchOutcome> {
  return db.$transaction(async (tx) => {
    const outcome = await writeRegisterFacts(tx, batch, 'companies-house-bulk');
    await tx.companyImport.update({
      where: { id: importId },
      data: {
        recordsDone: { increment: progress.records },
        rejected: { increment: progress.rejected },
        inserted: { increment: outcome.inserted },
        changed: { increment: outcome.changed },
        unchanged: { increment: outcome.unchanged },
      },
    });
    return outcome;
  });
}

export async function finishImport(db: Db, importId: string): Promise<ImportRecord> {
  return db.companyImport.update({
    where: { id: importId },
    data: { state: 'done', finishedAt: new Date() },
    select: { id: true, recordsDone: true, inserted: true, changed: true, unchanged: true, rejected: true },
  });
}
