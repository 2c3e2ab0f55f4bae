/**
 * Credential secrets. Passwords (people choose them) are hashed with argon2id; API keys, refresh
 * tokens and lender client secrets are 256-bit random strings, so a SHA-256 digest is enough to
 * store them and lets us look them up by digest. Every secret names its environment in its prefix.
 */
import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { DeployEnvironment } from '../../kernel/context.js';

/** OWASP's argon2id baseline (19 MiB, 2 passes): memory-hard, ~20 ms on our machines. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no stored hash (unknown user) it still spends the same time on a
 * dummy hash, so response timing does not tell which emails exist.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await argon2.verify(await dummyHash, password);
    return false;
  }
  return argon2.verify(storedHash, password);
}

export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const ENV_TAG: Record<DeployEnvironment, string> = { demo: 'demo', production: 'live' };

export function environmentOfSecret(secret: string): DeployEnvironment | null {
  const tag = /^[a-z]+_(demo|live)_/.exec(secret)?.[1];
  return tag === 'demo' ? 'demo' : tag === 'live' ? 'production' : null;
}

function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export interface NewApiKey {
  /** The whole key, shown once. */
  key: string;
  /** Public identifier (not secret): shown in lists, used as targetApiKey. */
  keyPrefix: string;
  keyHash: string;
}

/** A new key; with `keyPrefix`, a new secret for an existing key (rotation keeps its public id). */
export function newApiKey(environment: DeployEnvironment, keyPrefix = `key_${randomBytes(6).toString('hex')}`): NewApiKey {
  const key = `fgk_${ENV_TAG[environment]}_${keyPrefix}_${randomToken()}`;
  return { key, keyPrefix, keyHash: digest(key) };
}

export function newRefreshToken(environment: DeployEnvironment): { token: string; tokenHash: string } {
  const token = `fgr_${ENV_TAG[environment]}_${randomToken()}`;
  return { token, tokenHash: digest(token) };
}

export function newLenderClientCredentials(environment: DeployEnvironment): { clientId: string; clientSecret: string } {
  return {
    clientId: `lnd_${ENV_TAG[environment]}_${randomBytes(8).toString('hex')}`,
    clientSecret: `lns_${ENV_TAG[environment]}_${randomToken()}`,
  };
}

export function newPassword(): string {
  return randomToken(18);
}
