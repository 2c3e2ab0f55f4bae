/**
 * Credit data from a bureau's delivery file: scores, credit limits and legal notices, each company's
 * stored with the bureau's name and the date of its assessment, so a credit report names both. The
 * file is the documented CSV (docs/operations.md, "Credit data"); it is streamed and written a batch
 * per statement; a record for a company the register does not hold, or with a bad value, is
 * reported by its line and skipped. Used by `npm run admin -- import-credit-data FILE --source NAME`.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { Db } from '../../infra/database.js';

/** The delivery file's columns, in any order (a header line names them). */
const CREDIT_DATA_COLUMNS = [
  'registration_number',
  'country_code',
  'score',
  'credit_limit',
  'credit_limit_currency',
  'company_notices_count',
  'company_notices_value',
  'directors_notices_count',
  'directors_notices_value',
  'notices_currency',
  'assessed_at',
] as const;

type Column = (typeof CREDIT_DATA_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['registration_number', 'score', 'assessed_at'];
const CURRENCIES = new Set(['GBP', 'EUR', 'ZAR']);

interface CreditRow {
  countryCode: string;
  registrationNumber: string;
  score: number;
  creditLimit: number | null;
  creditLimitCurrency: string | null;
  companyNoticesCount: number;
  companyNoticesValue: number;
  directorsNoticesCount: number;
  directorsNoticesValue: number;
  noticesCurrency: string;
  assessedAt: Date;
}

export interface CreditImportSummary {
  records: number;
  updated: number;
  rejected: number;
}

export class CreditFileError extends Error {}

function rowOf(record: Record<string, string>): CreditRow | string {
  const text = (column: Column) => (record[column] ?? '').trim();
  const whole = (column: Column, fallback: number | null): number | null | string => {
    const value = text(column);
    if (!value) return fallback;
    return /^\d+$/.test(value) ? Number(value) : `${column} "${value}" is not a whole number`;
  };
  const amount = (column: Column, fallback: number | null): number | null | string => {
    const value = text(column);
    if (!value) return fallback;
    return /^\d+(\.\d{1,2})?$/.test(value) ? Number(value) : `${column} "${value}" is not an amount`;
  };
  const registrationNumber = text('registration_number').toUpperCase();
  if (!registrationNumber) return 'registration_number is empty';
  const score = whole('score', null);
  if (typeof score === 'string') return score;
  if (score === null || score > 100) return `score "${text('score')}" must be a whole number from 0 to 100`;
  const assessedAt = new Date(text('assessed_at'));
  if (!/^\d{4}-\d{2}-\d{2}/.test(text('assessed_at')) || Number.isNaN(assessedAt.getTime())) return `assessed_at "${text('assessed_at')}" is not an ISO date`;
  const values = {
    creditLimit: amount('credit_limit', null),
    companyNoticesCount: whole('company_notices_count', 0),
    companyNoticesValue: amount('company_notices_value', 0),
    directorsNoticesCount: whole('directors_notices_count', 0),
    directorsNoticesValue: amount('directors_notices_value', 0),
  };
  const bad = Object.values(values).find((v) => typeof v === 'string');
  if (typeof bad === 'string') return bad;
  const noticesCurrency = text('notices_currency') || 'GBP';
  const creditLimitCurrency = text('credit_limit_currency') || (values.creditLimit === null ? null : noticesCurrency);
  for (const currency of [noticesCurrency, creditLimitCurrency]) {
    if (currency !== null && !CURRENCIES.has(currency)) return `currency "${currency}" is not GBP, EUR or ZAR`;
  }
  return {
    countryCode: text('country_code') || 'GB',
    registrationNumber,
    score,
    creditLimit: values.creditLimit as number | null,
    creditLimitCurrency,
    companyNoticesCount: values.companyNoticesCount as number,
    companyNoticesValue: values.companyNoticesValue as number,
    directorsNoticesCount: values.directorsNoticesCount as number,
    directorsNoticesValue: values.directorsNoticesValue as number,
    noticesCurrency,
    assessedAt,
  };
}

/**
 * One statement a batch. A changed score keeps the one it replaces as previous (its change dated by
 * the assessment), as a re-assessment does (CompanyRegistry.recordScore). Returns the numbers updated.
 */
const UPDATE_SQL = `
  UPDATE company AS c SET
    "previousScoreValue" = CASE WHEN c."scoreValue" IS DISTINCT FROM t.score AND c."scoreValue" IS NOT NULL THEN c."scoreValue" ELSE c."previousScoreValue" END,
    "scoreChangedAt" = CASE WHEN c."scoreValue" IS DISTINCT FROM t.score AND c."scoreValue" IS NOT NULL THEN t.assessed ELSE c."scoreChangedAt" END,
    "scoreValue" = t.score,
    "scoreLastAssessedAt" = t.assessed,
    "creditLimitValue" = t.credit_limit,
    "creditLimitCurrency" = t.credit_limit_currency,
    "companyNoticesCount" = t.company_count,
    "companyNoticesValue" = t.company_value,
    "directorsNoticesCount" = t.directors_count,
    "directorsNoticesValue" = t.directors_value,
    "noticesCurrency" = t.notices_currency,
    "creditSource" = $12,
    "creditAsOf" = t.assessed,
    "updatedAt" = now()
  FROM unnest($1::text[], $2::text[], $3::int[], $4::numeric[], $5::text[], $6::int[], $7::numeric[], $8::int[], $9::numeric[], $10::text[], $11::timestamp(3)[])
    AS t(country, number, score, credit_limit, credit_limit_currency, company_count, company_value, directors_count, directors_value, notices_currency, assessed)
  WHERE c."countryCode" = t.country AND c."registrationNumber" = t.number
  RETURNING c."countryCode" || ' ' || c."registrationNumber" AS key`;

async function writeBatch(db: Db, rows: Array<CreditRow & { line: number }>, source: string): Promise<Set<string>> {
  const column = <T>(value: (row: CreditRow) => T) => rows.map(value);
  const updated = await db.$queryRawUnsafe<Array<{ key: string }>>(
    UPDATE_SQL,
    column((r) => r.countryCode),
    column((r) => r.registrationNumber),
    column((r) => r.score),
    column((r) => r.creditLimit),
    column((r) => r.creditLimitCurrency),
    column((r) => r.companyNoticesCount),
    column((r) => r.companyNoticesValue),
    column((r) => r.directorsNoticesCount),
    column((r) => r.directorsNoticesValue),
    column((r) => r.noticesCurrency),
    column((r) => r.assessedAt.toISOString().replace('T', ' ').replace('Z', '')),
    source,
  );
  return new Set(updated.map((row) => row.key));
}

export async function importCreditData(
  db: Db,
  file: string,
  source: string,
  options: { batchSize?: number; onProblem?: (problem: { line: number; message: string }) => void } = {},
): Promise<CreditImportSummary> {
  const batchSize = options.batchSize ?? 2000;
  const input = createReadStream(file);
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }),
  );
  const summary: CreditImportSummary = { records: 0, updated: 0, rejected: 0 };
  let batch: Array<CreditRow & { line: number }> = [];
  let checkedHeader = false;
  const reject = (line: number, message: string) => {
    summary.rejected++;
    options.onProblem?.({ line, message });
  };
  const flush = async () => {
    if (batch.length === 0) return;
    // The same company twice in a file: its last line wins (an UPDATE touches each row once).
    const last = new Map(batch.map((row) => [`${row.countryCode} ${row.registrationNumber}`, row]));
    const updated = await writeBatch(db, [...last.values()], source);
    for (const row of batch) {
      if (updated.has(`${row.countryCode} ${row.registrationNumber}`)) summary.updated++;
      else reject(row.line, `${row.countryCode} ${row.registrationNumber} is not in the company register`);
    }
    batch = [];
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      if (!checkedHeader) {
        checkedHeader = true;
        const missing = REQUIRED.filter((column) => !(column in record));
        if (missing.length > 0) throw new CreditFileError(`${file} is not a credit-data file: it has no ${missing.join(', ')} column`);
      }
      summary.records++;
      const row = rowOf(record);
      if (typeof row === 'string') reject(info.lines, row);
      else batch.push({ ...row, line: info.lines });
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  } finally {
    input.destroy();
  }
  return summary;
}
