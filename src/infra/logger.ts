/**
 * Structured logging (pino). Credentials are redacted wherever they appear in a logged object.
 * A line about a request names it: the access line carries `requestId`, and so does every line
 * written through a request's ctx.logger (bound when the context is made, processes/runtime.ts).
 *
 * LOG_FORMAT decides how lines are written: `json` (production and tests: one JSON document per
 * line, for a log collector) or `pretty` (the default when NODE_ENV=development, e.g. `npm run
 * dev`): pino-pretty in this process, one human-readable line per entry with time, level and message.
 */
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import type * as PinoPrettyModule from 'pino-pretty';
import { loadOnFirstUse } from '../kernel/load-on-first-use.js';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

const pinoPretty = loadOnFirstUse(() => createRequire(import.meta.url)('pino-pretty') as typeof PinoPrettyModule);

const REDACTED_PATHS = [
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
  'req.headers["x-gateway-secret"]',
  'headers["x-gateway-secret"]',
];

/**
 * Where a logger of that format writes: undefined for JSON to stdout (pino's own destination), a
 * pino-pretty stream for pretty lines (to stdout, or to `to`, e.g. a test's stream).
 */
export function logDestination(format: LogFormat, to?: NodeJS.WritableStream): DestinationStream | undefined {
  if (format === 'json') return to as DestinationStream | undefined;
  return pinoPretty().PinoPretty({
    destination: to ?? 1,
    colorize: to === undefined && process.stdout.isTTY === true,
    // One line per entry: the message first, then its fields as compact JSON.
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    // Lines are not lost when the process exits right after writing them (CLI errors, fatal exits).
    sync: true,
  });
}

/** `destination` defaults to stdout as JSON (tests capture lines with their own; logDestination() makes a pretty one). */
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
