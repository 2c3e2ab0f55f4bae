/**
 * Standard Webhooks signatures (standardwebhooks.com): headers webhook-id, webhook-timestamp (unix
 * seconds) and webhook-signature = "v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>" keyed
 * with the lender's whsec_ secret, so a lender verifies with a stock library. The delivery id is
 * stable across retries: lenders de-duplicate on it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { hmacKeys } from './hmac-keys.js';

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

const signingKey = hmacKeys(secretBytes);

/**
 * Signs with one secret, or with several (the current one first, then one being rotated out):
 * Standard Webhooks puts each signature in webhook-signature, space-separated, and a receiver's
 * verify succeeds when any of them matches its secret, so a lender still on the old secret keeps
 * verifying during a rotation's overlap window.
 */
export function signWebhook(secrets: string | readonly string[], id: string, timestamp: Date, body: string): WebhookHeaders {
  const seconds = Math.floor(timestamp.getTime() / 1000).toString();
  const signatures = (typeof secrets === 'string' ? [secrets] : secrets).map(
    (secret) => `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${seconds}.${body}`).digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': signatures.join(' ') };
}

/** A new `whsec_` signing secret (Standard Webhooks): 24 random bytes, for a lender or an integrator's endpoint. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
