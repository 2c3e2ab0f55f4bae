/**
 * Input checked when the operation asks for it (checkLater): what the operation decides before
 * (access, its target's visibility) answers first; a malformed input is a 400 naming its pointers
 * when checked; a valid one is transformed once, however often the operation asks.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors.js';
import { checkLater, type CheckedLater } from './validation.js';

const Patch = z.strictObject({
  name: z.string().min(1),
  amount: z.preprocess((v) => (typeof v === 'number' ? { value: v } : v), z.object({ value: z.number() })),
});

/** An operation as the services are written: it finds its target, then checks its input. */
async function operation(targetVisible: boolean, input: CheckedLater<z.output<typeof Patch>>): Promise<z.output<typeof Patch>> {
  if (!targetVisible) throw AppError.notFound('Profile');
  return input();
}

const refusal = async (run: Promise<unknown>) => {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('checkLater', () => {
  it('hands the operation the schema output, transformed once however often it asks', async () => {
    let preprocessed = 0;
    const Counted = z.preprocess((v) => {
      preprocessed++;
      return v;
    }, Patch);
    const input = checkLater(Counted, { name: 'Acme', amount: 5 });
    expect(preprocessed).toBe(0);
    expect(await operation(true, input)).toEqual({ name: 'Acme', amount: { value: 5 } });
    expect(input()).toEqual({ name: 'Acme', amount: { value: 5 } });
    expect(preprocessed).toBe(1);
  });

  it('lets the operation refuse first: a target it does not find is its 404, though the input is malformed', async () => {
    const err = await refusal(operation(false, checkLater(Patch, { name: 42 })));
    expect(err.code).toBe('NOT_FOUND');
  });

  it('answers 400 naming every failing field once the operation checks malformed input', async () => {
    const err = await refusal(operation(true, checkLater(Patch, { name: 42 }, 'Query')));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe('Query is invalid');
    expect(err.fields).toEqual([
      { pointer: '/name', message: expect.any(String) },
      { pointer: '/amount', message: expect.any(String) },
    ]);
  });
});
