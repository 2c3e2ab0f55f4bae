/**
 * REST bodies leave a key out when it has no value: the documented types of these fields are not
 * nullable, so a client typed against them must never meet a null. GraphQL returns the same domain
 * records, where these fields are declared nullable, unchanged.
 */
import { z } from 'zod';

/** Removes, at any depth, every property named in `keys` whose value is null. */
export function withoutNullKeys<T>(value: T, keys: ReadonlySet<string>): T {
  if (Array.isArray(value)) return value.map((item) => withoutNullKeys(item, keys)) as T;
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key, v]) => !(v === null && keys.has(key)))
      .map(([key, v]) => [key, withoutNullKeys(v, keys)]),
  ) as T;
}

/**
 * The REST form of an object schema whose `keys` withoutNullKeys drops: each of them optional and
 * never null (for the OpenAPI document, which must describe the body as REST sends it).
 */
export function withOptionalKeys(schema: z.ZodObject, keys: ReadonlySet<string>): z.ZodObject {
  const relaxed = Object.fromEntries(
    Object.entries(schema.shape)
      .filter(([key]) => keys.has(key))
      .map(([key, field]) => [key, (field instanceof z.ZodNullable ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional()]),
  );
  return schema.extend(relaxed);
}

/** Which keys each kind of body leaves out when they have no value. */
export const OPTIONAL_KEYS = {
  /** A match's lender (spec 2.6). */
  matches: new Set(['logo', 'description']),
  /** A pre-selected offer (spec 2.6). */
  preselectedOffers: new Set(['applicationUrl']),
  /** Profiles, credit reports and companies: legacy ids, and a score never changed. */
  profiles: new Set(['fundingSearchId', 'changedAt', 'previous']),
  /** A case: its amount, owner and manager. */
  cases: new Set(['amount', 'owner', 'manager']),
} as const;
