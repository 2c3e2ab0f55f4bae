/**
 * How a PATCH body lands on a stored document: objects merge key by key at every depth (a patch
 * of one field keeps the others), arrays and scalars replace what was there.
 */
type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mergePatch(current: Json, patch: Json): Json {
  if (!isPlainObject(current) || !isPlainObject(patch)) return patch;
  const merged: Record<string, Json> = { ...current };
  for (const [key, value] of Object.entries(patch)) merged[key] = mergePatch(current[key], value);
  return merged;
}
