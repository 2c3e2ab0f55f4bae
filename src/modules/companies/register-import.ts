/**
 * Loads a Companies House Basic Company Data file into the company register: streamed (csv-parse
 * reads as the batches are written, so memory holds one batch whatever the file's size), written in
 * batches of new and changed companies only, resumable (each batch commits with the import's
 * position; a second run over the same file skips what was committed), with progress and every
 * rejected record reported by its line number. Used by `npm run admin -- import-companies FILE`.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parse } from 'csv-parse';
import type { Db } from '../../infra/database.js';
import { factsOfRecord, headerProblem } from './companies-house/basic-company-data.js';
import type { RegisterFacts } from './register-facts.js';
import { commitBatch, finishImport, openImport, type ImportRecord } from './register-store.js';

export interface ImportProgress {
  /** Data records read so far, in this file (skipped ones of a resumed import included). */
  records: number;
  /** Data records read by this run. */
  recordsThisRun: number;
  bytesRead: number;
  totalBytes: number;
  elapsedMs: number;
  /** True for the last report, once every record is committed. */
  done: boolean;
}

export interface ImportProblem {
  line: number;
  message: string;
}

export interface ImportOptions {
  batchSize?: number;
  onProgress?: (progress: ImportProgress) => void;
  onProblem?: (problem: ImportProblem) => void;
  /** Told when an unfinished import of the same file is picked up. */
  onResume?: (recordsDone: number) => void;
}

export interface ImportSummary extends ImportRecord {
  file: string;
  resumedAt: number | null;
  elapsedMs: number;
}

/** Thrown for a file that is not Basic Company Data at all (nothing is written). */
export class ImportFileError extends Error {}

export const DEFAULT_IMPORT_BATCH = 2000;

/**
 * A file's identity without reading it whole: its size and a digest of its first and last 64 KiB.
 * The monthly files differ in both (new companies, the date), so a changed file is a new import.
 */
export async function fileKeyOf(file: string): Promise<string> {
  const { size } = await stat(file);
  const handle = await open(file, 'r');
  try {
    const edge = Math.min(size, 65_536);
    const head = Buffer.alloc(edge);
    const tail = Buffer.alloc(edge);
    await handle.read(head, 0, edge, 0);
    await handle.read(tail, 0, edge, size - edge);
    return `${size}:${createHash('sha256').update(head).update(tail).digest('base64url')}`;
  } finally {
    await handle.close();
  }
}

export async function importBasicCompanyData(db: Db, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? DEFAULT_IMPORT_BATCH;
  const started = Date.now();
  const totalBytes = (await stat(file)).size;
  const fileKey = await fileKeyOf(file);
  // Opened once the header is known good: a file of another kind leaves no trace.
  let run: Awaited<ReturnType<typeof openImport>> | undefined;

  const input = createReadStream(file);
  // Fields are left as text and counted per record: a short or long record is reported, not fatal.
  const parser = input.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_records_with_error: true, info: true }));
  let header = true;
  let records = 0;
  let recordsThisRun = 0;
  let batch: RegisterFacts[] = [];
  let batchRecords = 0;
  let batchRejected = 0;
  let lastProgress = 0;
  const progress = (done = false): ImportProgress => ({ records, recordsThisRun, bytesRead: input.bytesRead, totalBytes, elapsedMs: Date.now() - started, done });
  const reject = (line: number, message: string) => {
    batchRejected++;
    options.onProblem?.({ line, message });
  };
  parser.on('skip', (err: Error & { lines?: number }) => {
    // A record csv-parse could not read (a stray quote): one data record lost, reported by its line.
    if (!run) return;
    records++;
    if (records <= run.recordsDone) return;
    recordsThisRun++;
    batchRecords++;
    reject(err.lines ?? 0, `unreadable CSV: ${err.message}`);
  });
  const flush = async () => {
    if (batchRecords === 0 || !run) return;
    await commitBatch(db, run.id, batch, { records: batchRecords, rejected: batchRejected });
    batch = [];
    batchRecords = 0;
    batchRejected = 0;
  };

  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (header) {
        header = false;
        const problem = headerProblem(record);
        if (problem) throw new ImportFileError(`${file} is not a Basic Company Data file: ${problem}`);
        run = await openImport(db, fileKey, path.basename(file));
        if (run.resumed) options.onResume?.(run.recordsDone);
        continue;
      }
      records++;
      if (records <= run!.recordsDone) continue;
      recordsThisRun++;
      batchRecords++;
      const result = factsOfRecord(record);
      if ('facts' in result) batch.push(result.facts);
      else reject(info.lines, result.problem);
      if (batchRecords >= batchSize) await flush();
      if (options.onProgress && Date.now() - lastProgress >= 1000) {
        lastProgress = Date.now();
        options.onProgress(progress());
      }
    }
    if (!run) throw new ImportFileError(`${file} is empty`);
    await flush();
  } finally {
    input.destroy();
  }
  const done = await finishImport(db, run.id);
  // A load leaves the trigram indexes' pending entries unmerged and the planner's statistics stale:
  // searches right after it would scan those entries. VACUUM merges them and ANALYZE re-counts.
  if (done.inserted + done.changed > 0) await db.$executeRawUnsafe('VACUUM (ANALYZE) company');
  options.onProgress?.(progress(true));
  return { ...done, file, resumedAt: run.resumed ? run.recordsDone : null, elapsedMs: Date.now() - started };
}
