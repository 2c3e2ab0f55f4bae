/**
 * The files an import reads, as a sequence of CSV streams: a CSV as it is, a zip (Companies House
 * publishes Basic Company Data zipped, as one file or in parts) as each of its CSV entries. A zip is
 * read from its central directory (the only place its entry sizes are reliable), then each entry's
 * bytes are streamed through inflate: nothing of a file is held beyond the stream's buffers.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

export interface CsvSource {
  /** The file and, for a zip, its entry: how problems name where a record is. */
  label: string;
  /** The file's bytes still to read for this and later entries count towards progress through `raw.bytesRead`. */
  open(): { csv: Readable; raw: ReadStream };
}

export interface RegisterFile {
  file: string;
  size: number;
  sources: CsvSource[];
}

/** Thrown for a zip that cannot be read (truncated, encrypted, a compression other than deflate). */
export class ZipFileError extends Error {}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

async function readAt(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
  flags: number;
}

async function zipEntries(file: string, size: number): Promise<ZipEntry[]> {
  const handle = await open(file, 'r');
  try {
    // The end-of-central-directory record is in the last 22 bytes plus up to 64 KiB of comment.
    const tailStart = Math.max(0, size - 65_557);
    const tail = await readAt(handle, tailStart, size - tailStart);
    let at = -1;
    for (let i = tail.length - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === EOCD) {
        at = i;
        break;
      }
    if (at < 0) throw new ZipFileError(`${file} is not a zip file (no end of central directory)`);
    let count = tail.readUInt16LE(at + 10);
    let directorySize = tail.readUInt32LE(at + 12);
    let directoryOffset = tail.readUInt32LE(at + 16);
    // Zip64 (a file or entry beyond 4 GiB, or 65535 entries): the real values are in the zip64 record.
    if (at >= 20 && tail.readUInt32LE(at - 20) === EOCD64_LOCATOR) {
      const record = await readAt(handle, Number(tail.readBigUInt64LE(at - 20 + 8)), 56);
      if (record.readUInt32LE(0) !== EOCD64) throw new ZipFileError(`${file}: damaged zip64 directory`);
      count = Number(record.readBigUInt64LE(32));
      directorySize = Number(record.readBigUInt64LE(40));
      directoryOffset = Number(record.readBigUInt64LE(48));
    }
    const directory = await readAt(handle, directoryOffset, directorySize);
    const entries: ZipEntry[] = [];
    for (let p = 0, n = 0; n < count; n++) {
      if (directory.readUInt32LE(p) !== CENTRAL) throw new ZipFileError(`${file}: damaged central directory`);
      const flags = directory.readUInt16LE(p + 8);
      const method = directory.readUInt16LE(p + 10);
      let compressedSize = directory.readUInt32LE(p + 20);
      let uncompressedSize = directory.readUInt32LE(p + 24);
      const nameLength = directory.readUInt16LE(p + 28);
      const extraLength = directory.readUInt16LE(p + 30);
      const commentLength = directory.readUInt16LE(p + 32);
      let localHeaderOffset = directory.readUInt32LE(p + 42);
      const name = directory.toString('utf8', p + 46, p + 46 + nameLength);
      // The zip64 extra field holds, in this order, the values whose 32-bit field is all ones.
      for (let e = p + 46 + nameLength; e < p + 46 + nameLength + extraLength;) {
        const id = directory.readUInt16LE(e);
        const length = directory.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressedSize === 0xffffffff) {
            uncompressedSize = Number(directory.readBigUInt64LE(q));
            q += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = Number(directory.readBigUInt64LE(q));
            q += 8;
          }
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = Number(directory.readBigUInt64LE(q));
        }
        e += 4 + length;
      }
      entries.push({ name, method, compressedSize, localHeaderOffset, flags });
      p += 46 + nameLength + extraLength + commentLength;
    }
    // The data starts after the local header, whose name and extra lengths may differ from the directory's.
    for (const entry of entries) {
      const local = await readAt(handle, entry.localHeaderOffset, 30);
      if (local.readUInt32LE(0) !== LOCAL) throw new ZipFileError(`${file}: damaged entry ${entry.name}`);
      entry.localHeaderOffset += 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    }
    return entries;
  } finally {
    await handle.close();
  }
}

async function isZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = await readAt(handle, 0, 4);
    return head.length === 4 && head.readUInt32LE(0) === LOCAL;
  } finally {
    await handle.close();
  }
}

/** The CSV streams of one file given to the import. */
export async function registerFile(file: string): Promise<RegisterFile> {
  const { size } = await stat(file);
  if (!(await isZip(file))) {
    return {
      file,
      size,
      sources: [
        {
          label: path.basename(file),
          open: () => {
            const raw = createReadStream(file);
            return { csv: raw, raw };
          },
        },
      ],
    };
  }
  const entries = (await zipEntries(file, size)).filter((entry) => !entry.name.endsWith('/') && /\.csv$/i.test(entry.name));
  if (entries.length === 0) throw new ZipFileError(`${file} holds no .csv file`);
  return {
    file,
    size,
    sources: entries.map((entry) => {
      if (entry.flags & 0x1) throw new ZipFileError(`${file}: ${entry.name} is encrypted`);
      if (entry.method !== 0 && entry.method !== 8)
        throw new ZipFileError(`${file}: ${entry.name} uses compression method ${entry.method} (deflate or stored expected)`);
      return {
        label: `${path.basename(file)}:${entry.name}`,
        open: () => {
          const raw = createReadStream(file, { start: entry.localHeaderOffset, end: entry.localHeaderOffset + entry.compressedSize - 1 });
          if (entry.method === 0) return { csv: raw, raw };
          const inflate = createInflateRaw();
          raw.on('error', (err) => inflate.destroy(err));
          return { csv: raw.pipe(inflate), raw };
        },
      };
    }),
  };
}
