/**
 * Idempotency-Key on the lender's acknowledgement, offer and rejection (as Stripe's API and the
 * Standard Webhooks guidance describe it): the first answer to a key is kept in PostgreSQL
 * (`idempotency_record`, so every process of a deployment replays it) and answered again, writing
 * nothing, for a repeat of the same request; the key with another request (another operation,
 * application or body) is a 422. Keys are scoped per lender and kept IDEMPOTENCY_KEY_TTL_HOURS.
 * A request that fails keeps nothing: its retry runs afresh.
 *
 * Internal: the caller's use case has decided access, found the application among the lender's
 * and parsed the body before a key is looked at, so a key never tells one lender of another's.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';

/** How long a key's answer is kept and replayed (Stripe keeps keys 24 hours). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** A key still being answered after this long belongs to a request that died: a retry may take it over. */
const ABANDONED_AFTER_MS = 60_000;

export const IdempotencyKey = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .optional()
  .describe(`Any unique string (e.g. a UUID): a repeat of the same request with the same key answers the first answer again and changes nothing, for ${IDEMPOTENCY_KEY_TTL_HOURS} hours; the key with another request is a 422`);

/** What a key is bound to: the operation, the application it acted on and its parsed body. */
export interface IdempotentRequest {
  lenderId: number;
  operation: string;
  applicationId: number;
  body: unknown;
}

const fingerprint = ({ operation, applicationId, body }: IdempotentRequest) =>
  createHash('sha256').update(JSON.stringify([operation, applicationId, body])).digest('hex');

/**
 * `answer()` once per lender and key: its result is kept and returned for a repeat of the same
 * request (through `replay`, which turns the kept value back into an answer). Without a key it just
 * answers. The same key with another request: 422; while the first request is still being answered: 409.
 */
export async function answerOnce<Kept extends Prisma.InputJsonValue, Answer>(
  ctx: ServiceContext,
  rawKey: unknown,
  request: IdempotentRequest,
  answer: () => Promise<{ kept: Kept; answer: Answer }>,
  replay: (kept: Kept) => Answer,
): Promise<Answer> {
  const parsed = IdempotencyKey.safeParse(rawKey ?? undefined);
  if (!parsed.success) throw AppError.badRequest('The Idempotency-Key header is invalid', [{ pointer: 'header:Idempotency-Key', message: parsed.error.issues[0]!.message }]);
  const key = parsed.data;
  if (key === undefined) return (await answer()).answer;
  const { lenderId } = request;
  const requestHash = fingerprint(request);
  const now = ctx.clock.now();
  // The lender's expired keys go as it makes a new one, with this key if its request died unanswered.
  await ctx.db.idempotencyRecord.deleteMany({
    where: { lenderId, OR: [{ expiresAt: { lt: now } }, { key, responseStatus: null, createdAt: { lt: new Date(now.getTime() - ABANDONED_AFTER_MS) } }] },
  });
  const claimed = await ctx.db.idempotencyRecord.createMany({
    data: { lenderId, key, requestHash, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_HOURS * 3600_000) },
    skipDuplicates: true,
  });
  if (claimed.count === 0) return replayed(ctx, lenderId, key, requestHash, replay);
  try {
    const { kept, answer: result } = await answer();
    await ctx.db.idempotencyRecord.update({ where: { lenderId_key: { lenderId, key } }, data: { responseStatus: 200, responseBody: kept } });
    return result;
  } catch (err) {
    await ctx.db.idempotencyRecord.deleteMany({ where: { lenderId, key, responseStatus: null } });
    throw err;
  }
}

async function replayed<Kept, Answer>(ctx: ServiceContext, lenderId: number, key: string, requestHash: string, replay: (kept: Kept) => Answer): Promise<Answer> {
  const record = await ctx.db.idempotencyRecord.findUnique({ where: { lenderId_key: { lenderId, key } } });
  const pointer = 'header:Idempotency-Key';
  // Gone between the two statements: its request failed (nothing kept) and may be sent again.
  if (!record) throw AppError.conflict('The request first sent with this Idempotency-Key failed meanwhile; send it again', [{ pointer, message: 'retry' }]);
  if (record.requestHash !== requestHash) {
    throw AppError.unprocessable('This Idempotency-Key was used with another request (operation, application or body)', [
      { pointer, message: 'was used with another request; use a new key for a new request' },
    ]);
  }
  if (record.responseBody === null) throw AppError.conflict('The request first sent with this Idempotency-Key is still being answered; retry shortly', [{ pointer, message: 'in use' }]);
  return replay(record.responseBody as Kept);
}
