/**
 * Writes register facts into the `company` table, a batch per statement: new companies inserted,
 * changed ones (their digest differs) updated, unchanged ones not touched. Credit data columns are
 * never written here: they belong to the credit-data source. A bulk import copies each batch into a
 * staging table and merges it from there; the bookkeeping of register imports (company_import) lets
 * an interrupted import resume where its last batch committed.
 */
import type pg from 'pg';
import { poolOf, type Db } from '../../infra/database.js';
import { copyFrom } from '../../infra/copy-from.js';
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
    "registerDigest" = EXCLUDED."registerDigest", "registerRemovedAt" = NULL, "updatedAt" = now()
  WHERE c."registerDigest" IS DISTINCT FROM EXCLUDED."registerDigest" OR c."registerRemovedAt" IS NOT NULL
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
// Bulk import: COPY into a staging table, merged into the register in the same transaction

/**
 * The staging table: one per connection (temporary), emptied at each commit. A batch is copied in
 * with COPY (the bulk-load protocol) and merged by one statement, so a batch costs two round trips
 * whatever its size.
 */
const STAGING_DDL = `
  CREATE TEMP TABLE IF NOT EXISTS company_staging (
    number text NOT NULL, name text NOT NULL, type text NOT NULL, sector text NOT NULL, status text NOT NULL,
    incorporated timestamp(3), address jsonb, register_type text, register_status text, sic text NOT NULL,
    previous text NOT NULL, digest text NOT NULL
  ) ON COMMIT DELETE ROWS`;
const STAGING_COPY =
  'COPY company_staging (number, name, type, sector, status, incorporated, address, register_type, register_status, sic, previous, digest) FROM STDIN';

/**
 * New companies inserted, changed ones (another digest, or marked removed) rewritten, the rest not
 * touched. `prior` is read before the statement writes (one snapshot): a company whose status
 * becomes DISSOLVED counts as dissolved.
 */
const MERGE_SQL = `
  WITH prior AS (
    SELECT c."registrationNumber", c."status" FROM company c JOIN company_staging s ON c."countryCode" = 'GB' AND c."registrationNumber" = s.number
  ), written AS (
    INSERT INTO company AS c (
      "id", "countryCode", "registrationNumber", "name", "nameLower", "type", "sector", "status", "incorporatedAt", "address",
      "registerSource", "registerType", "registerStatus", "sicCodes", "previousNames", "previousNamesLower", "registerDigest", "updatedAt")
    SELECT gen_random_uuid(), 'GB', s.number, s.name, lower(s.name), s.type::"CompanyType", s.sector::"Sector", s.status::"CompanyStatus",
      s.incorporated, s.address, $1, s.register_type, s.register_status,
      coalesce(string_to_array(nullif(s.sic, ''), E'\\n'), ARRAY[]::text[]),
      coalesce(string_to_array(nullif(s.previous, ''), E'\\n'), ARRAY[]::text[]),
      lower(s.previous), s.digest, now()
    FROM company_staging s
    ON CONFLICT ("countryCode", "registrationNumber") DO UPDATE SET
      "name" = EXCLUDED."name", "nameLower" = EXCLUDED."nameLower", "type" = EXCLUDED."type", "sector" = EXCLUDED."sector",
      "status" = EXCLUDED."status", "incorporatedAt" = EXCLUDED."incorporatedAt", "address" = EXCLUDED."address",
      "registerSource" = EXCLUDED."registerSource", "registerType" = EXCLUDED."registerType", "registerStatus" = EXCLUDED."registerStatus",
      "sicCodes" = EXCLUDED."sicCodes", "previousNames" = EXCLUDED."previousNames", "previousNamesLower" = EXCLUDED."previousNamesLower",
      "registerDigest" = EXCLUDED."registerDigest", "registerRemovedAt" = NULL, "updatedAt" = now()
    WHERE c."registerDigest" IS DISTINCT FROM EXCLUDED."registerDigest" OR c."registerRemovedAt" IS NOT NULL
    RETURNING c."registrationNumber", c."status", (xmax = 0) AS inserted
  )
  SELECT count(*) FILTER (WHERE w.inserted)::int AS inserted,
         count(*) FILTER (WHERE NOT w.inserted)::int AS changed,
         count(*) FILTER (WHERE NOT w.inserted AND w.status = 'DISSOLVED' AND p.status <> 'DISSOLVED')::int AS dissolved
  FROM written w LEFT JOIN prior p USING ("registrationNumber")`;

const staged = new WeakSet<pg.PoolClient>();

export interface BulkOutcome extends BatchOutcome {
  dissolved: number;
}

/**
 * One batch of an import: copied into staging, merged, its numbers remembered (a whole-register
 * import), and the import's position moved past it, in one transaction: after a crash the position
 * names exactly the records whose facts are in the register.
 */
export async function commitBatch(
  db: Db,
  run: { id: string; wholeRegister: boolean },
  batch: readonly RegisterFacts[],
  progress: { records: number; rejected: number },
): Promise<BulkOutcome> {
  const rows = lastOfEach(batch);
  const client = await poolOf(db).connect();
  try {
    await client.query('BEGIN');
    if (!staged.has(client)) {
      await client.query(STAGING_DDL);
      staged.add(client);
    }
    let outcome: BulkOutcome = { inserted: 0, changed: 0, unchanged: 0, dissolved: 0 };
    if (rows.length > 0) {
      await copyFrom(
        client,
        STAGING_COPY,
        rows.map((f) => [
          f.registrationNumber,
          f.name,
          f.type,
          f.sector,
          f.status,
          f.incorporatedAt?.toISOString() ?? null,
          f.address ? JSON.stringify(f.address) : null,
          f.registerType,
          f.registerStatus,
          f.sicCodes.join('\n'),
          f.previousNames.join('\n'),
          registerDigest(f),
        ]),
      );
      const merged = (await client.query<{ inserted: number; changed: number; dissolved: number }>(MERGE_SQL, ['companies-house-bulk'])).rows[0]!;
      outcome = { ...merged, unchanged: batch.length - merged.inserted - merged.changed };
      if (run.wholeRegister) {
        await client.query(`INSERT INTO company_import_seen ("importId", "registrationNumber") SELECT $1, number FROM company_staging ON CONFLICT DO NOTHING`, [
          run.id,
        ]);
      }
    }
    await client.query(
      `UPDATE company_import SET "recordsDone" = "recordsDone" + $2, "rejected" = "rejected" + $3, "inserted" = "inserted" + $4,
         "changed" = "changed" + $5, "unchanged" = "unchanged" + $6, "dissolved" = "dissolved" + $7, "updatedAt" = now() WHERE id = $1`,
      [run.id, progress.records, progress.rejected, outcome.inserted, outcome.changed, outcome.unchanged, outcome.dissolved],
    );
    await client.query('COMMIT');
    return outcome;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
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
  dissolved: number;
  removed: number;
  wholeRegister: boolean;
}

const RECORD_SELECT = {
  id: true,
  recordsDone: true,
  inserted: true,
  changed: true,
  unchanged: true,
  rejected: true,
  dissolved: true,
  removed: true,
  wholeRegister: true,
} as const;

/** The unfinished import of these files, to resume, or a new one. */
export async function openImport(db: Db, fileKey: string, fileName: string, wholeRegister: boolean): Promise<ImportRecord & { resumed: boolean }> {
  const running = await db.companyImport.findFirst({
    where: { fileKey, state: 'running', wholeRegister },
    orderBy: { startedAt: 'desc' },
    select: RECORD_SELECT,
  });
  if (running) return { ...running, resumed: true };
  return { ...(await db.companyImport.create({ data: { fileKey, fileName, wholeRegister }, select: RECORD_SELECT })), resumed: false };
}

/**
 * Ends an import. After a whole-register import, the bulk-loaded companies it did not list have left
 * the live register: they are marked removed (and dissolved), never deleted, since profiles and
 * applications name them; a later import that lists one again clears the mark.
 */
export async function finishImport(db: Db, run: { id: string; wholeRegister: boolean }): Promise<ImportRecord> {
  return db.$transaction(
    async (tx) => {
      let removed = 0;
      if (run.wholeRegister) {
        removed = await tx.$executeRaw`
        UPDATE company c SET "registerRemovedAt" = now(), "status" = 'DISSOLVED', "updatedAt" = now()
        WHERE c."countryCode" = 'GB' AND c."registerSource" = 'companies-house-bulk' AND c."registerRemovedAt" IS NULL
          AND NOT EXISTS (SELECT 1 FROM company_import_seen s WHERE s."importId" = ${run.id}::uuid AND s."registrationNumber" = c."registrationNumber")`;
        await tx.$executeRaw`DELETE FROM company_import_seen WHERE "importId" = ${run.id}::uuid`;
      }
      return tx.companyImport.update({ where: { id: run.id }, data: { state: 'done', finishedAt: new Date(), removed }, select: RECORD_SELECT });
    },
    { timeout: 600_000 },
  );
}
