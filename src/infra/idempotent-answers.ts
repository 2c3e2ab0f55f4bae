/**
 * Idempotency-Key on POSTs that create or decide something (as Stripe's API and the Standard
 * Webhooks guidance describe it): the first answer to a key is kept in PostgreSQL
 * (`idempotency_record`, so every process of a deployment replays it) and answered again, writing
 * nothing, for a repeat of the same request; the key with another request (another operation,
 * object or body) is a 422. Keys are scoped per party (a lender, or an integrator's account) and
 * kept IDEMPOTENCY_KEY_TTL_HOURS. A request that fails keeps nothing: its retry runs afresh.
 *
 * Internal: the caller's use case has decided access, found the object it acts on among the
 * caller's and parsed the body before a key is looked at, so a key never tells one party of another's.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.js';
import type { ServiceContext } from '../kernel/context.js';
import { AppError } from '../kernel/errors.js';
import { readsOf } from './database.js';

/** How long a key's answer is kept and replayed (Stripe keeps keys 24 hours). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** A key still being answered after this long belongs to a request that died: a retry may take it over. */
const ABANDONED_AFTER_MS = 60_000;
/**
 * A repeat arriving while the first request is still being answered waits this long for its answer
 * (so two concurrent sends of one request both get the one answer), then is told to retry (409).
 */
const CONCURRENT_WAIT_MS = 10_000;
const CONCURRENT_POLL_MS = 50;

const IdempotencyKey = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .optional()
  .describe(
    `Any unique string (e.g. a UUID): a repeat of the same request with the same key answers the first answer again and changes nothing, for ${IDEMPOTENCY_KEY_TTL_HOURS} hours; the key with another request is a 422`,
  );

/** The Idempotency-Key header as a REST row declares it (OpenAPI), keys kept per `whose` (a lender, an account). */
export function idempotencyKeyHeader(whose: string) {
  return [
    {
      name: 'Idempotency-Key',
      description: `Replays the first answer to this key for a repeat of the same request, changing nothing (kept ${IDEMPOTENCY_KEY_TTL_HOURS} hours, per ${whose}); the key with another request is a 422`,
      schema: IdempotencyKey,
    },
  ];
}

/** What a REST row's description says of the header (the same words on every idempotent POST). */
export const IDEMPOTENT_DESCRIPTION = `With \`Idempotency-Key\`, a repeat of the same request (a retry after a timeout, or a concurrent duplicate) answers the first answer again and changes nothing (for ${IDEMPOTENCY_KEY_TTL_HOURS} hours); the key with another request is a 422.`;

/** Whose keys: a lender's, or an integrator account's (each its own column, unique with the key). */
type KeyOwner = { lenderId: number } | { accountId: string };

/** What a key is bound to: its owner, the operation, the object it acted on and its parsed body. */
export interface IdempotentRequest {
  owner: KeyOwner;
  operation: string;
  target: string | number;
  body: unknown;
}

const fingerprint = ({ operation, target, body }: IdempotentRequest) =>
  createHash('sha256')
    .update(JSON.stringify([operation, target, body]))
    .digest('hex');

/**
 * `answer()` once per owner and key: its result is kept and returned for a repeat of the same
 * request (through `replay`, which turns the kept value back into an answer). Without a key it just
 * answers. The same key with another request: 422. A repeat sent while the first is still being
 * answered waits for that answer (409 if it takes longer than CONCURRENT_WAIT_MS).
 */
export async function answerOnce<Kept extends Prisma.InputJsonValue, Answer>(
  ctx: ServiceContext,
  rawKey: unknown,
  request: IdempotentRequest,
  answer: () => Promise<{ kept: Kept; answer: Answer }>,
  replay: (kept: Kept) => Answer,
): Promise<Answer> {
  const parsed = IdempotencyKey.safeParse(rawKey ?? undefined);
  if (!parsed.success)
    throw AppError.badRequest('The Idempotency-Key header is invalid', [{ pointer: 'header:Idempotency-Key', message: parsed.error.issues[0]!.message }]);
  const key = parsed.data;
  if (key === undefined) return (await answer()).answer;
  const [column, owner] = 'lenderId' in request.owner ? (['lenderId', request.owner.lenderId] as const) : (['accountId', request.owner.accountId] as const);
  const requestHash = fingerprint(request);
  const records = readsOf(ctx.db);
  const mine = () =>
    records.selectFrom('idempotency_record').where(column, '=', owner).where('key', '=', key).select(['requestHash', 'responseBody']).executeTakeFirst();
  const waitUntil = Date.now() + CONCURRENT_WAIT_MS;
  for (;;) {
    const now = ctx.clock.now();
    // The owner's expired keys go as it makes a new one, with this key if its request died unanswered.
    await records
      .deleteFrom('idempotency_record')
      .where(column, '=', owner)
      .where((eb) =>
        eb.or([
          eb('expiresAt', '<', at(now)),
          eb.and([eb('key', '=', key), eb('responseStatus', 'is', null), eb('createdAt', '<', at(new Date(now.getTime() - ABANDONED_AFTER_MS)))]),
        ]),
      )
      .execute();
    const claimed = await records
      .insertInto('idempotency_record')
      .values({
        id: randomUUID(),
        [column]: owner,
        key,
        requestHash,
        createdAt: utc(now),
        expiresAt: utc(new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_HOURS * 3600_000)),
      })
      .onConflict((conflict) => conflict.columns([column, 'key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (claimed) {
      try {
        const { kept, answer: result } = await answer();
        await records
          .updateTable('idempotency_record')
          .set({ responseStatus: 200, responseBody: JSON.stringify(kept) })
          .where('id', '=', claimed.id)
          .execute();
        return result;
      } catch (err) {
        await records.deleteFrom('idempotency_record').where('id', '=', claimed.id).execute();
        throw err;
      }
    }
    const record = await mine();
    // Gone between the two statements: its request failed (nothing kept), so this one is answered afresh.
    if (!record) continue;
    if (record.requestHash !== requestHash) {
      throw AppError.unprocessable('This Idempotency-Key was used with another request (operation, object or body)', [
        { pointer: POINTER, message: 'was used with another request; use a new key for a new request' },
      ]);
    }
    if (record.responseBody !== null) return replay(record.responseBody as Kept);
    if (Date.now() >= waitUntil)
      throw AppError.conflict('The request first sent with this Idempotency-Key is still being answered; retry shortly', [
        { pointer: POINTER, message: 'in use' },
      ]);
    await new Promise((resolve) => setTimeout(resolve, CONCURRENT_POLL_MS));
  }
}

/**
 * `answerOnce` for an operation whose answer is plain JSON, kept and replayed as it is (no secret
 * derived again, unlike the lender's answers): a repeat gets exactly the first answer.
 */
export function answerOnceAsIs<Answer>(ctx: ServiceContext, rawKey: unknown, request: IdempotentRequest, answer: () => Promise<Answer>): Promise<Answer> {
  return answerOnce(
    ctx,
    rawKey,
    request,
    async () => {
      const result = await answer();
      return { answer: result, kept: JSON.parse(JSON.stringify(result ?? null)) as Prisma.InputJsonValue };
    },
    (kept) => kept as unknown as Answer,
  );
}

const POINTER = 'header:Idempotency-Key';

/** Instants as UTC ISO text: the columns are `timestamp(3)` holding UTC (pg would send a Date in the local zone). */
const utc = (instant: Date) => instant.toISOString();
const at = (instant: Date) => sql<Date>`${utc(instant)}::timestamp(3)`;
