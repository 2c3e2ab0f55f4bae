/** Reading a value at a dot path (or key list) inside a JSON document; undefined when any step is missing. */
export function valueAtPath(document: unknown, path: string | readonly string[]): unknown {
  const keys = typeof path === 'string' ? path.split('.') : path;
  return keys.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), document);
}
