/**
 * A dependency loaded when it is first used rather than when the process starts. A start loads only
 * what serving its first requests needs: each module file costs resolution and compilation before
 * the port opens (about 1,850 of them before the packages used only by some requests moved here:
 * undici for webhook deliveries, ajv for questionnaire answers, file-type for uploads, micromark for
 * the guides, ioredis with REDIS_URL, pino-pretty with LOG_FORMAT=pretty).
 *
 * `load` runs once, on the first call; what it returned (a CommonJS module from `createRequire`, or
 * the promise of an ES module's `import()`) is kept for every later call.
 */
export function loadOnFirstUse<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}
