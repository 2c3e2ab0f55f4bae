/**
 * HMAC keys as KeyObjects, made once per secret: an HMAC keyed with a Buffer or a string checks and
 * copies the key on every call, which costs more than the HMAC of a delivery's body itself (Node 24:
 * about 17 us with a Buffer, 6 us with a string, 3 us with the KeyObject). Every delivery signs its
 * body and derives its application's token, and every lender's read of an application derives it too.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';

/** Secrets in use at once, at most, per kind: beyond it the keys are made again (rotations leave old ones behind). */
const MAX_KEYS = 1_000;

/** The KeyObject of a secret of one kind, whose bytes are `bytes(secret)` (that kind's decoding). */
export function hmacKeys(bytes: (secret: string) => Buffer): (secret: string) => KeyObject {
  const keys = new Map<string, KeyObject>();
  return (secret) => {
    let key = keys.get(secret);
    if (!key) {
      if (keys.size >= MAX_KEYS) keys.clear();
      key = createSecretKey(bytes(secret));
      keys.set(secret, key);
    }
    return key;
  };
}
