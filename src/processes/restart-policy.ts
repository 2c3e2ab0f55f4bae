/**
 * When the distributed supervisor (distributed.ts) restarts a service that exited, and when it gives
 * up. A service that exits is started again after a delay that doubles with each exit in a row (each
 * after a short run), so a crash costs a moment and a crash loop does not spin. A run that lasted
 * `steadyRunMs` ends the row: an occasional crash is restarted at once. A service that exits
 * `maxExits` times in a row fails for a reason a restart does not cure (configuration, a dependency
 * gone for good), however slowly it starts, so the supervisor stops the deployment and names it
 * rather than hide the loop behind a deployment that looks up.
 */
export interface RestartPolicy {
  /** A run at least this long ends a row of exits. */
  steadyRunMs: number;
  /** This many exits in a row stop the deployment. */
  maxExits: number;
  /** The delay before restarting after the first exit of a row. */
  firstDelayMs: number;
  /** The longest delay. */
  maxDelayMs: number;
}

export const SERVICE_RESTART_POLICY: RestartPolicy = { steadyRunMs: 60_000, maxExits: 5, firstDelayMs: 500, maxDelayMs: 15_000 };

export type RestartDecision = { action: 'restart'; delayMs: number; exitsInARow: number } | { action: 'give up'; exitsInARow: number };

/** What to do after a service's run of `ranForMs` ended, given the exits in a row before it. */
export function decideRestart(exitsInARowBefore: number, ranForMs: number, policy: RestartPolicy = SERVICE_RESTART_POLICY): RestartDecision {
  const exitsInARow = (ranForMs >= policy.steadyRunMs ? 0 : exitsInARowBefore) + 1;
  if (exitsInARow >= policy.maxExits) return { action: 'give up', exitsInARow };
  return { action: 'restart', delayMs: Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (exitsInARow - 1)), exitsInARow };
}
