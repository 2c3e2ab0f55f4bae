/**
 * Loads Companies House Basic Company Data into the company register: one file or its parts, each a
 * CSV or a zip, streamed end to end (csv-parse reads as batches are written, so memory holds one
 * batch whatever the files' size); each batch is copied into a staging table and merged (new and
 * changed companies written, unchanged ones not touched); resumable (each batch commits with the
 * import's position; a second run over the same files skips what was committed); with progress and
 * every rejected record reported by its file and line. A whole-register import (the single file, or
 * every part) also marks the companies it no longer lists. Used by `npm run admin -- import-companies`.
 */
import { open, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parse } from 'csv-parse';
import type { Db } from '../../infra/database.js';
import { factsOfRecord, headerProblem } from './companies-house/basic-company-data.js';
import type { RegisterFacts } from './register-facts.js';
import { registerFile, ZipFileError, type CsvSource } from './register-files.js';
import { commitBatch, finishImport, openImport, type ImportRecord } from './register-store.js';

export interface ImportProgress {
  /** Data records read so far, in these files (skipped ones of a resumed import included). */
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
  /** The file (and zip entry) holding the record. */
  file: string;
  line: number;
  message: string;
}

export interface ImportOptions {
  batchSize?: number;
  /** The files are the whole register: companies they do not list are marked removed once all are read. */
  wholeRegister?: boolean;
  onProgress?: (progress: ImportProgress) => void;
  onProblem?: (problem: ImportProblem) => void;
  /** Told when an unfinished import of the same files is picked up. */
  onResume?: (recordsDone: number) => void;
}

export interface ImportSummary extends ImportRecord {
  files: string[];
  resumedAt: number | null;
  elapsedMs: number;
}

/** Thrown for a file that is not Basic Company Data at all (nothing is written). */
export class ImportFileError extends Error {}

export const DEFAULT_IMPORT_BATCH = 5000;

/**
 * A file's identity without reading it whole: its size and a digest of its first and last 64 KiB.
 * The monthly files differ in both (new companies, the date), so a changed file is a new import.
 */
async function fileKeyOf(file: string): Promise<string> {
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

type Parsed = AsyncIterable<{ record: string[]; info: { lines: number } }>;

const csvOptions = { bom: true, relax_column_count: true, relax_quotes: true, skip_records_with_error: true, info: true } as const;

/** Every source's header, read before anything is written: a wrong file among the parts leaves no trace. */
async function checkHeaders(sources: readonly CsvSource[]): Promise<void> {
  for (const source of sources) {
    const { csv, raw } = source.open();
    try {
      const parser = csv.pipe(parse({ ...csvOptions, to_line: 1 }));
      let header: string[] | undefined;
      for await (const { record } of parser as Parsed) header ??= record;
      if (!header) throw new ImportFileError(`${source.label} is empty`);
      const problem = headerProblem(header);
      if (problem) throw new ImportFileError(`${source.label} is not a Basic Company Data file: ${problem}`);
    } finally {
      raw.destroy();
      csv.destroy();
    }
  }
}

export async function importBasicCompanyData(db: Db, fileOrFiles: string | readonly string[], options: ImportOptions = {}): Promise<ImportSummary> {
  const files = typeof fileOrFiles === 'string' ? [fileOrFiles] : [...fileOrFiles];
  const batchSize = options.batchSize ?? DEFAULT_IMPORT_BATCH;
  const wholeRegister = options.wholeRegister ?? false;
  const started = Date.now();
  let registerFiles;
  try {
    registerFiles = await Promise.all(files.map(registerFile));
  } catch (err) {
    if (err instanceof ZipFileError) throw new ImportFileError(err.message);
    throw err;
  }
  const sources = registerFiles.flatMap((f) => f.sources);
  await checkHeaders(sources);
  const totalBytes = registerFiles.reduce((sum, f) => sum + f.size, 0);
  const fileKey = (await Promise.all(files.map(fileKeyOf))).join(' ');
  const run = await openImport(db, fileKey, files.map((f) => path.basename(f)).join(', '), wholeRegister);
  if (run.resumed) options.onResume?.(run.recordsDone);

  let records = 0;
  let recordsThisRun = 0;
  let bytesBefore = 0;
  let current: { bytesRead: number } = { bytesRead: 0 };
  let batch: RegisterFacts[] = [];
  let batchRecords = 0;
  let batchRejected = 0;
  let lastProgress = 0;
  const progress = (done = false): ImportProgress => ({
    records,
    recordsThisRun,
    bytesRead: done ? totalBytes : Math.min(totalBytes, bytesBefore + current.bytesRead),
    totalBytes,
    elapsedMs: Date.now() - started,
    done,
  });
  const flush = async () => {
    if (batchRecords === 0) return;
    await commitBatch(db, run, batch, { records: batchRecords, rejected: batchRejected });
    batch = [];
    batchRecords = 0;
    batchRejected = 0;
  };

  for (const source of sources) {
    const { csv, raw } = source.open();
    current = raw;
    const reject = (line: number, message: string) => {
      batchRejected++;
      options.onProblem?.({ file: source.label, line, message });
    };
    // Fields are left as text and counted per record: a short or long record is reported, not fatal.
    const parser = csv.pipe(parse(csvOptions));
    let header = true;
    parser.on('skip', (err: Error & { lines?: number }) => {
      // A record csv-parse could not read (a stray quote): one data record lost, reported by its line.
      records++;
      if (records <= run.recordsDone) return;
      recordsThisRun++;
      batchRecords++;
      reject(err.lines ?? 0, `unreadable CSV: ${err.message}`);
    });
    try {
      for await (const { record, info } of parser as Parsed) {
        if (header) {
          header = false;
          continue;
        }
        records++;
        if (records <= run.recordsDone) continue;
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
    } finally {
      bytesBefore += raw.bytesRead;
      current = { bytesRead: 0 };
      raw.destroy();
    }
  }
  await flush();
  const done = await finishImport(db, run);
  // A load leaves the trigram indexes' pending entries unmerged and the planner's statistics stale:
  // searches right after it would scan those entries. VACUUM merges them and ANALYZE re-counts.
  if (done.inserted + done.changed + done.removed > 0) await db.$executeRawUnsafe('VACUUM (ANALYZE) company');
  options.onProgress?.(progress(true));
  return { ...done, files, resumedAt: run.resumed ? run.recordsDone : null, elapsedMs: Date.now() - started };
}
