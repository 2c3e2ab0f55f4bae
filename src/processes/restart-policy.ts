/**
 * When the distributed supervisor (distributed.ts) restarts a service that exited, and when it gives
 * up. A service that exits is started again after a delay that doubles with each exit of that service
 * within the window, so a crash costs a moment and a crash loop does not spin; a service that exits
 * `maxExits` times within the window fails for a reason a restart does not cure (configuration, a
 * dependency gone for good), so the supervisor stops the deployment and names it, rather than hide
 * the loop behind a deployment that looks up.
 */
export interface RestartPolicy {
  /** Exits older than this no longer count. */
  windowMs: number;
  /** This many exits of one service within the window stop the deployment. */
  maxExits: number;
  /** The delay before restarting after a service's first exit within the window. */
  firstDelayMs: number;
  /** The longest delay. */
  maxDelayMs: number;
}

export const SERVICE_RESTART_POLICY: RestartPolicy = { windowMs: 60_000, maxExits: 5, firstDelayMs: 500, maxDelayMs: 15_000 };

export type RestartDecision =
  | { action: 'restart'; delayMs: number; recentExits: number }
  | { action: 'give up'; recentExits: number };

/**
 * What to do after one more exit at `now`, given the service's earlier exit times (milliseconds);
 * `exits` is updated in place to those still within the window, this one included.
 */
export function decideRestart(exits: number[], now: number, policy: RestartPolicy = SERVICE_RESTART_POLICY): RestartDecision {
  const recent = exits.filter((at) => now - at < policy.windowMs);
  recent.push(now);
  exits.splice(0, exits.length, ...recent);
  if (recent.length >= policy.maxExits) return { action: 'give up', recentExits: recent.length };
  return { action: 'restart', delayMs: Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (recent.length - 1)), recentExits: recent.length };
}
