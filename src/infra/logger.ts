/** Structured logging (pino). Credentials are redacted wherever they appear in a logged object. */
import { pino, type Logger } from 'pino';

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

export function createLogger(level: string, name = 'funding-gateway'): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}
