/**
 * A document's content in PostgreSQL as a sequence of chunks (`document_chunk`), written from a stream
 * and read back as one, so no upload or download holds a whole file in memory. Uploads arrive either in
 * memory (GraphQL's base64 argument) or spooled to a temporary file by the REST adapter (multipart).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';

/** Each chunk is one INSERT of at most this many bytes. */
export const CHUNK_BYTES = 256 * 1024;

/** An upload spooled to disk: read as a stream when stored. */
export interface SpooledFile {
  path: string;
  size: number;
}

export type UploadContent = Buffer | SpooledFile;

export function contentSize(content: UploadContent): number {
  return Buffer.isBuffer(content) ? content.length : content.size;
}

/** Writes the content of a document created in the same transaction; returns its size and SHA-256. */
export async function writeDocumentContent(
  tx: Prisma.TransactionClient,
  documentId: string,
  content: UploadContent,
): Promise<{ sizeBytes: number; sha256: string }> {
  const source = Buffer.isBuffer(content) ? Readable.from([content]) : createReadStream(content.path, { highWaterMark: CHUNK_BYTES });
  const hash = createHash('sha256');
  let sizeBytes = 0;
  let seq = 0;
  for await (const chunk of rechunk(source, CHUNK_BYTES)) {
    hash.update(chunk);
    sizeBytes += chunk.length;
    await tx.documentChunk.create({ data: { documentId, seq: seq++, data: new Uint8Array(chunk) } });
  }
  return { sizeBytes, sha256: hash.digest('hex') };
}

/** The content of a document, chunk by chunk (one query per chunk). */
export function readDocumentContent(db: Db, documentId: string): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let seq = 0; ; seq++) {
      const chunk = await db.documentChunk.findUnique({ where: { documentId_seq: { documentId, seq } }, select: { data: true } });
      if (!chunk) return;
      yield Buffer.from(chunk.data);
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
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
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
