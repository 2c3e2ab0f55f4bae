/**
 * The secret the distributed gateway presents to the subgraphs (SUBGRAPH_SECRET or
 * SUBGRAPH_SECRET_FILE); a demo deployment without either generates one once in DATA_DIR, which
 * every process started on that DATA_DIR (start:distributed's) or that file (compose's volume) shares.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AppConfig } from '../kernel/config.js';
import { createFileOnce, readIfPresent } from './generated-files.js';

export type SubgraphSecretSource = Pick<AppConfig, 'SUBGRAPH_SECRET' | 'SUBGRAPH_SECRET_FILE' | 'DATA_DIR' | 'DEPLOY_ENV'>;

export async function loadSubgraphSecret(source: SubgraphSecretSource): Promise<string> {
  if (source.SUBGRAPH_SECRET) return source.SUBGRAPH_SECRET;
  const file = source.SUBGRAPH_SECRET_FILE ?? path.join(source.DATA_DIR, 'subgraph-secret');
  const existing = await readIfPresent(file);
  if (existing === null) {
    if (source.DEPLOY_ENV === 'production') throw new Error(`SUBGRAPH_SECRET is unset and its file ${file} does not exist: production needs one of the two`);
    await createFileOnce(file, `${randomBytes(32).toString('base64url')}\n`);
  }
  const secret = (existing ?? (await readIfPresent(file)) ?? '').trim();
  if (secret.length < 32) throw new Error(`${file}: the subgraph secret must be at least 32 characters`);
  return secret;
}
