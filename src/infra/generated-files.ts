/**
 * Files a demo deployment generates once and every process then shares (the signing key set, the
 * subgraph secret), readable by their owner only.
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function writeOwnerOnlyFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { mode: 0o600 });
}

/**
 * Several processes of one deployment may start together: the content is written aside and linked
 * into place, which fails atomically for all but the first, and everyone then reads the winner's.
 */
export async function createFileOnce(file: string, text: string): Promise<void> {
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeOwnerOnlyFile(tmp, text);
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp);
  }
}
