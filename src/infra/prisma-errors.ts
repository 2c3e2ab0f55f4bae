/** Recognising database constraint failures, so services can turn them into domain errors. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  return e.code === 'P2002' || e.meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation';
}
