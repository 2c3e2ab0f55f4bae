/**
 * Structured logging (pino). Credentials are redacted wherever they appear in a logged object.
 * A line about a request names it: the access line carries `requestId`, and so does every line
 * written through a request's ctx.logger (bound when the context is made, processes/runtime.ts).
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'access_token',
  'refresh_token',
  'refreshToken',
  'jwt',
  'apiKey',
  'client_secret',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
];

/** `destination` defaults to stdout (tests capture lines with their own). */
export function createLogger(level: string, name = 'funding-gateway', destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** API keys (fgk_…) appear in some paths (the Marketplace V1 move target): a logged path never carries one. */
export function redactSecrets(text: string): string {
  return text.replace(/fgk_[A-Za-z0-9_-]+/g, 'fgk_[redacted]');
}
