/**
 * Token signing keys: an RS256 key set with key ids. The first key signs; every key verifies, so a
 * rotation adds a new key in front and keeps the old one until its tokens have expired.
 * Keys come from configuration (AUTH_SIGNING_KEYS or AUTH_SIGNING_KEYS_FILE); a demo deployment
 * without either generates one key once and keeps it in DATA_DIR.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { createFileOnce, readIfPresent, writeOwnerOnlyFile } from './generated-files.js';

export const SIGNING_ALGORITHM = 'RS256';

export interface SigningKeySet {
  /** kid and key of the signing key. */
  active: { kid: string; key: CryptoKey };
  /** Public halves of every key, as published at /.well-known/jwks.json. */
  publicJwks: { keys: JWK[] };
}

export interface SigningKeySource {
  AUTH_SIGNING_KEYS?: string;
  AUTH_SIGNING_KEYS_FILE?: string;
  DATA_DIR: string;
  DEPLOY_ENV: 'demo' | 'production';
}

const PUBLIC_MEMBERS = ['kty', 'n', 'e', 'kid', 'alg', 'use'] as const;

export async function loadSigningKeys(source: SigningKeySource): Promise<SigningKeySet> {
  if (source.AUTH_SIGNING_KEYS) return importKeySet(source.AUTH_SIGNING_KEYS, 'AUTH_SIGNING_KEYS');
  const file = source.AUTH_SIGNING_KEYS_FILE ?? path.join(source.DATA_DIR, 'signing-keys.json');
  const existing = await readIfPresent(file);
  if (existing !== null) return importKeySet(existing, file);
  if (source.DEPLOY_ENV === 'production') throw new Error(`signing key file ${file} does not exist`);
  await createFileOnce(file, keySetText({ keys: [await generateSigningJwk()] }));
  return importKeySet(await readFile(file, 'utf8'), file);
}

export async function generateSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true, modulusLength: 2048 });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: SIGNING_ALGORITHM, use: 'sig' };
}

/** Puts a new signing key in front of the file's key set; older keys keep verifying. */
export async function rotateSigningKeyFile(file: string, keepOld = 2): Promise<JWK> {
  const current = parseKeySet((await readIfPresent(file)) ?? '{"keys":[]}', file);
  const fresh = await generateSigningJwk();
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeOwnerOnlyFile(tmp, keySetText({ keys: [fresh, ...current.keys.slice(0, keepOld)] }));
  await rename(tmp, file);
  return fresh;
}

async function importKeySet(json: string, origin: string): Promise<SigningKeySet> {
  const { keys } = parseKeySet(json, origin);
  const first = keys[0];
  if (!first?.kid || !first.d) throw new Error(`${origin}: the first key must be a private RSA key with a kid`);
  const key = (await importJWK({ ...first, alg: SIGNING_ALGORITHM }, SIGNING_ALGORITHM)) as CryptoKey;
  const publicKeys = keys.map((k) => {
    if (!k.kid) throw new Error(`${origin}: every key needs a kid`);
    return Object.fromEntries(PUBLIC_MEMBERS.map((m) => [m, k[m] ?? (m === 'alg' ? SIGNING_ALGORITHM : m === 'use' ? 'sig' : undefined)])) as JWK;
  });
  return { active: { kid: first.kid, key }, publicJwks: { keys: publicKeys } };
}

function parseKeySet(json: string, origin: string): { keys: JWK[] } {
  try {
    const parsed = JSON.parse(json) as { keys?: unknown };
    if (!Array.isArray(parsed.keys)) throw new Error('no "keys" array');
    return { keys: parsed.keys as JWK[] };
  } catch (err) {
    throw new Error(`${origin}: not a JSON Web Key Set (${(err as Error).message})`);
  }
}

function keySetText(set: { keys: JWK[] }): string {
  return `${JSON.stringify(set, null, 2)}\n`;
}
