/**
 * A document's content in PostgreSQL as a sequence of chunks (`document_chunk`), written from a stream
 * and read back as one, so no upload or download holds a whole file in memory. Uploads arrive either in
 * memory (GraphQL's base64 argument) or spooled to a temporary file by the REST adapter (multipart).
 * The bytes go through the pg driver as binary parameters (Prisma would turn each chunk into base64
 * strings: eight concurrent 9 MB uploads then grew the process by about 170 MB instead of about 40).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { poolOf, type Db } from '../../infra/database.js';

/** Each chunk is one INSERT of at most this many bytes. */
const CHUNK_BYTES = 256 * 1024;

/** An upload spooled to disk: read as a stream when stored. */
interface SpooledFile {
  path: string;
  size: number;
}

export type UploadContent = Buffer | SpooledFile;

export function contentSize(content: UploadContent): number {
  return Buffer.isBuffer(content) ? content.length : content.size;
}

export interface StoredDocument {
  id: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  createdAt: Date;
}

/** Stores a profile's document and its content in one transaction. */
export async function storeDocument(
  db: Db,
  document: { profileId: string; fileName: string; contentType: string },
  content: UploadContent,
): Promise<StoredDocument> {
  const client = await poolOf(db).connect();
  try {
    await client.query('BEGIN');
    const {
      rows: [created],
    } = await client.query<{ id: string }>(
      // Timestamps are UTC in columns without a time zone, as Prisma writes them.
      `INSERT INTO "document" ("id", "profileId", "fileName", "contentType", "sizeBytes", "sha256", "createdAt")
       VALUES (gen_random_uuid(), $1, $2, $3, 0, '', now() AT TIME ZONE 'UTC') RETURNING "id"`,
      [document.profileId, document.fileName, document.contentType],
    );
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : createReadStream(content.path, { highWaterMark: CHUNK_BYTES });
    const hash = createHash('sha256');
    let sizeBytes = 0;
    let seq = 0;
    for await (const chunk of rechunk(source, CHUNK_BYTES)) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      await client.query('INSERT INTO "document_chunk" ("documentId", "seq", "data") VALUES ($1, $2, $3)', [created!.id, seq++, chunk]);
    }
    const {
      rows: [stored],
    } = await client.query<StoredDocument>(
      `UPDATE "document" SET "sizeBytes" = $2, "sha256" = $3 WHERE "id" = $1
       RETURNING "id", "fileName", "contentType", "sizeBytes", "sha256", "createdAt" AT TIME ZONE 'UTC' AS "createdAt"`,
      [created!.id, sizeBytes, hash.digest('hex')],
    );
    await client.query('COMMIT');
    return stored!;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The content of a document, chunk by chunk (one query per chunk). */
export function readDocumentContent(db: Db, documentId: string): Readable {
  const pool = poolOf(db);
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let seq = 0; ; seq++) {
      const { rows } = await pool.query<{ data: Buffer }>('SELECT "data" FROM "document_chunk" WHERE "documentId" = $1 AND "seq" = $2', [documentId, seq]);
      if (rows.length === 0) return;
      yield rows[0]!.data;
    }
  }
  return Readable.from(chunks());
}

/** Pieces of exactly `size` bytes (the last one shorter), whatever sizes the source yields. */
async function* rechunk(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let rest: Buffer = piece;
    while (pendingBytes + rest.length >= size) {
      const take = size - pendingBytes;
      yield pendingBytes === 0 ? rest.subarray(0, take) : Buffer.concat([...pending, rest.subarray(0, take)]);
      pending = [];
      pendingBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}
