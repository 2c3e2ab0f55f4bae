/**
 * Input parsed at the edge, refused in the operation's order: what the operation decides before
 * reading its input (access, its target's visibility) answers first; a malformed input is a 400
 * naming its pointers once read, and even when never read.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors.js';
import { withParsedInput } from './validation.js';

const Patch = z.strictObject({ name: z.string().min(1), amount: z.preprocess((v) => (typeof v === 'number' ? { value: v } : v), z.object({ value: z.number() })) });

const refusal = async (run: Promise<unknown>) => {
  const err = await run.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('withParsedInput', () => {
  it('hands the operation the schema output, transformed once', async () => {
    let preprocessed = 0;
    const Counted = z.preprocess((v) => {
      preprocessed++;
      return v;
    }, Patch);
    const result = await withParsedInput(Counted, { name: 'Acme', amount: 5 }, async (patch) => patch);
    expect(result).toEqual({ name: 'Acme', amount: { value: 5 } });
    expect(preprocessed).toBe(1);
  });

  it('lets the operation refuse first: a target it does not find is its 404, though the input is malformed', async () => {
    const err = await refusal(
      withParsedInput(Patch, { name: 42 }, async () => {
        throw AppError.notFound('Profile');
      }),
    );
    expect(err.code).toBe('NOT_FOUND');
  });

  it('answers 400 with pointers when the operation reads malformed input, by property, spread or iteration', async () => {
    const reads: Array<(input: z.output<typeof Patch>) => unknown> = [(p) => p.name, (p) => ({ ...p }), (p) => Object.keys(p), (p) => [...(p as unknown as unknown[])]];
    for (const read of reads) {
      let after = false;
      const err = await refusal(
        withParsedInput(Patch, { name: 42 }, async (patch) => {
          read(patch);
          after = true;
        }),
      );
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.fields).toEqual([
        { pointer: '/name', message: expect.any(String) },
        { pointer: '/amount', message: expect.any(String) },
      ]);
      expect(after).toBe(false);
    }
  });

  it('answers 400 when the operation never reads its malformed input, so such a request never succeeds', async () => {
    const err = await refusal(withParsedInput(Patch, {}, async () => 'done', 'Query'));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe('Query is invalid');
  });
});
