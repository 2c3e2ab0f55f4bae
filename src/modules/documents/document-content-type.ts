/**
 * What an uploaded document really is: the type is read from its bytes (file-type's signatures),
 * not taken from the client, and must be one we accept and the one the client declared; a file
 * whose bytes say otherwise (an HTML page sent as application/pdf) is refused with 415. CSV has no
 * signature: it must be UTF-8 text that is not markup.
 */
import { open } from 'node:fs/promises';
import { loadOnFirstUse } from '../../kernel/load-on-first-use.js';
import { AppError } from '../../kernel/errors.js';
import type { UploadContent } from './document-store.js';

const fileType = loadOnFirstUse(() => import('file-type'));

/** Enough of the file for every signature file-type knows, and for the text check of a CSV. */
const SNIFF_BYTES = 64 * 1024;

export async function sniffedContentType(content: UploadContent, declared: string, accepted: readonly string[]): Promise<string> {
  const head = await leadingBytes(content);
  const detected = (await (await fileType()).fileTypeFromBuffer(head))?.mime ?? (looksLikeCsv(head) ? 'text/csv' : undefined);
  if (detected === undefined || !accepted.includes(detected) || detected !== declared) {
    const found = detected ? `its content is ${detected}` : 'its content is not a recognised document';
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The file is not a ${declared} document: ${found}`, [
      { pointer: 'file', message: `content must match its declared type and be one of ${accepted.join(', ')}` },
    ]);
  }
  return detected;
}

async function leadingBytes(content: UploadContent): Promise<Uint8Array> {
  if (Buffer.isBuffer(content)) return content.subarray(0, SNIFF_BYTES);
  const file = await open(content.path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(SNIFF_BYTES, content.size));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

function looksLikeCsv(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
  } catch {
    return false;
  }
  return !/^\s*</.test(text);
}
