/**
 * Receives the one file of a multipart/form-data request into a spool file, for routes that have
 * already authenticated and authorised the caller (rest-router.ts calls this only then).
 *
 * busboy directly rather than multer 2.0: multer 2.0 decodes `filename="…"` as latin1 (so UTF-8
 * names arrive garbled) and leaves a partly written file behind when the client disconnects
 * mid-body. Here the file name is read as UTF-8 (RFC 7578 §4.2: browsers and fetch send the name's
 * UTF-8 bytes; an RFC 5987 `filename*` is honoured as before), the file stops at `maxBytes`
 * (413), and whatever ends the request early (disconnect, malformed body, size, a second file)
 * removes the spool file before this returns or throws: the caller only ever owns a complete file.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { AppError } from '../../kernel/errors.js';

export interface ReceivedFile {
  fileName: string;
  /** As declared by the client for the part (the service checks it against the bytes). */
  contentType: string;
  path: string;
  size: number;
}

export interface UploadLimits {
  /** The multipart field that carries the file. */
  field: string;
  maxBytes: number;
  /** Where the file is spooled (created 0700 when absent). */
  directory: string;
}

/** The client went away mid-body: there is nobody to answer, and nothing may be kept. */
export class UploadAbandoned extends Error {
  constructor() {
    super('the client closed the connection before the upload was complete');
    this.name = 'UploadAbandoned';
  }
}

/** Room for the multipart boundaries and part headers around the file, when comparing Content-Length. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const uploadTooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', 'The file is too large', [{ pointer: 'file', message: `must be at most ${maxBytes / (1024 * 1024)} MB` }]);

const malformed = (reason: string) => AppError.badRequest('The multipart body is malformed', [{ pointer: 'body', message: reason }]);

/**
 * The request's file, spooled to disk, or undefined when the form has none. Throws AppError (400,
 * 413) or UploadAbandoned; in every such case no spool file remains. On an AppError the rest of
 * the body is read and discarded, so the client still gets its answer on an open connection.
 */
export async function receiveFile(req: IncomingMessage, limits: UploadLimits): Promise<ReceivedFile | undefined> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // One past the cap, so that a file of exactly maxBytes is accepted and one byte more is not.
      limits: { fileSize: limits.maxBytes + 1, files: 1, fields: 20, fieldSize: 8 * 1024, parts: 21, headerPairs: 20 },
    });
  } catch (err) {
    throw malformed((err as Error).message);
  }
  await mkdir(limits.directory, { recursive: true, mode: 0o700 });

  let failed: (err: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failed = reject));
  failure.catch(() => {}); // observed below; this only keeps an early rejection from being "unhandled"
  let spooling: Promise<ReceivedFile> | undefined;

  parser.on('file', (field, stream, info) => {
    if (field !== limits.field || spooling) {
      stream.resume();
      return failed(AppError.badRequest('Unexpected file in the form', [{ pointer: field, message: `send one file, in the field "${limits.field}"` }]));
    }
    const path = join(limits.directory, `${SPOOL_PREFIX}${randomUUID()}`);
    spooling = spool(stream, path, limits.maxBytes).then((size) => ({ fileName: info.filename ?? '', contentType: info.mimeType, path, size }));
    spooling.catch(failed);
  });
  parser.on('error', (err: Error) => failed(malformed(err.message)));
  parser.on('filesLimit', () => failed(AppError.badRequest('Only one file may be sent', [{ pointer: limits.field, message: 'must be a single file' }])));
  parser.on('fieldsLimit', () => failed(malformed('too many fields')));
  parser.on('partsLimit', () => failed(malformed('too many parts')));
  const parsed = new Promise<void>((resolve) => parser.on('close', resolve));
  const abandoned = () => failed(new UploadAbandoned());
  req.on('error', abandoned);
  req.on('close', () => {
    if (!req.complete) abandoned();
  });
  req.pipe(parser);

  try {
    await Promise.race([parsed, failure]);
    return spooling ? await Promise.race([spooling, failure]) : undefined;
  } catch (err) {
    req.unpipe(parser);
    // Discarded, never stored: the client reads our answer once it has sent its body.
    if (!(err instanceof UploadAbandoned)) req.resume();
    parser.destroy(); // ends a file stream still open, so its spool settles and is removed
    const spooled = await spooling?.catch(() => undefined);
    if (spooled) await rm(spooled.path, { force: true });
    throw err;
  }
}

const SPOOL_PREFIX = 'upload-';

/**
 * Removes the spool files a process that died mid-upload left behind: older than `olderThanMs`
 * (well past the HTTP server's request timeout, so never one a running request still writes).
 */
export async function removeStaleSpoolFiles(directory: string, olderThanMs: number, now = Date.now()): Promise<number> {
  const names = await readdir(directory).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names.filter((n) => n.startsWith(SPOOL_PREFIX))) {
    const path = join(directory, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && now - info.mtimeMs > olderThanMs) {
      await rm(path, { force: true });
      removed++;
    }
  }
  return removed;
}

/** Writes one file part to `path`; on any failure the file is closed and removed before this rejects. */
async function spool(stream: Readable, path: string, maxBytes: number): Promise<number> {
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  stream.on('limit', () => stream.destroy(uploadTooLarge(maxBytes)));
  try {
    await pipeline(stream, out);
    return out.bytesWritten;
  } catch (err) {
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(path, { force: true });
    throw err;
  }
}
