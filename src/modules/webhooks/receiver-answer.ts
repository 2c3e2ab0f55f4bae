/**
 * What a lender's receiver answered to an attempt, as the attempt log keeps it for the lender to
 * read: a bounded allow-list of response headers (those that explain an answer: its type, a
 * Retry-After, a redirect's Location, an auth challenge, the receiver's request id), and the first
 * 2 KB of a textual body. Never a binary body, never more: a receiver's answer is untrusted and
 * its size is the receiver's choice. The rest of the body is read and dropped, up to a bound, so the
 * connection can serve the next request (beyond it the connection is closed).
 */
import type { Dispatcher } from 'undici';

export const RESPONSE_BODY_EXCERPT_BYTES = 2048;
/** How much of an answer is read at most; a longer one closes the connection rather than keeping it. */
const DRAIN_LIMIT_BYTES = 128 * 1024;
const HEADER_VALUE_CHARS = 256;

export const SHOWN_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'retry-after',
  'location',
  'www-authenticate',
  'date',
  'server',
  'x-request-id',
  'request-id',
  'x-correlation-id',
] as const;

export interface ReceiverResponse {
  headers: Record<string, string>;
  /** The first RESPONSE_BODY_EXCERPT_BYTES of a textual body, as UTF-8; null for a binary content type. */
  body: string | null;
  bodyTruncated: boolean;
}

export interface ReceiverAnswer {
  statusCode: number;
  response: ReceiverResponse;
}

/** Text a lender can read: any text/*, JSON, XML, a form, or an answer that names no type. */
function isTextual(contentType: string | undefined): boolean {
  if (!contentType) return true;
  return /^text\/|[/+](json|xml)\b|x-www-form-urlencoded|javascript/i.test(contentType);
}

/** Reads (a bounded amount of) the answer: its status, allow-listed headers and body excerpt. */
export async function readReceiverAnswer(res: Dispatcher.ResponseData): Promise<ReceiverAnswer> {
  const headers: Record<string, string> = {};
  for (const name of SHOWN_RESPONSE_HEADERS) {
    const value = res.headers[name];
    if (value !== undefined) headers[name] = (Array.isArray(value) ? value.join(', ') : String(value)).slice(0, HEADER_VALUE_CHARS);
  }
  const textual = isTextual(headers['content-type']);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (textual && keptBytes < RESPONSE_BODY_EXCERPT_BYTES) {
      const part = chunk.subarray(0, RESPONSE_BODY_EXCERPT_BYTES - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    // Leaving the loop destroys the body: the connection is closed, not drained without end.
    if (total > DRAIN_LIMIT_BYTES) break;
  }
  // PostgreSQL text holds no NUL; a multi-byte character cut at the limit decodes as U+FFFD.
  const body = textual ? new TextDecoder('utf-8').decode(Buffer.concat(kept)).replace(/\u0000/g, '') : null;
  return { statusCode: res.statusCode, response: { headers, body, bodyTruncated: textual && total > keptBytes } };
}
