/**
 * GET /health: liveness, with the database this process depends on (the distributed gateway, which
 * holds no data: its supergraph). GET /health/ready: readiness, every dependency the process needs
 * to serve (database, event bus; the gateway's supergraph and subgraphs), each named, 503 naming
 * the one that failed; and the webhook delivery backlog (due deliveries, the oldest's age), which
 * informs and never fails readiness (taking a process out of service delivers nothing sooner).
 * A dependency whose loss the process serves through in a lesser way (the event bus while Redis is
 * away: events stay within the process) answers `degraded`: readiness stays 200 and names it under
 * `degraded`.
 */
import express, { type Router } from 'express';
import { poolOf, type Db } from '../../infra/database.js';
import type { EventBusHandle } from '../../infra/event-bus.js';
import type { Clock } from '../../kernel/context.js';
import { readDeliveryBacklog, type DeliveryBacklog } from '../../modules/webhooks/delivery-backlog.js';

export type ReadinessCheck = () => Promise<Record<string, string>>;

/** What one readiness check reports: `ready` (or another word for it), or what it read. */
type CheckResult = string | DeliveryBacklog;

/** Straight on the pool: a probe that runs every few seconds need not go through Prisma's query compiler. */
export function databaseReadiness(db: Db): ReadinessCheck {
  return async () => {
    await poolOf(db).query('SELECT 1');
    return { database: 'ready' };
  };
}

/** Database, the webhook delivery backlog (read from the database) and the event bus, each with a bounded wait. */
export function dependencyReadiness(deps: { db: Db; clock: Clock; events: EventBusHandle }): Record<string, () => Promise<CheckResult>> {
  return {
    database: async () => {
      await poolOf(deps.db).query('SELECT 1');
      return 'ready';
    },
    deliveries: () => readDeliveryBacklog(deps.db, deps.clock.now()),
    eventBus: () => deps.events.ping(),
  };
}

const READINESS_TIMEOUT_MS = 2000;

async function checkAll(checks: Record<string, () => Promise<CheckResult>>): Promise<{ ok: boolean; results: Record<string, CheckResult> }> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), READINESS_TIMEOUT_MS).unref());
        return [name, await Promise.race([check(), timeout])] as const;
      } catch {
        return [name, 'unavailable' as CheckResult] as const;
      }
    }),
  );
  return { ok: entries.every(([, v]) => v !== 'unavailable'), results: Object.fromEntries(entries) };
}

export function healthRouter(service: string, ready: ReadinessCheck, readiness?: Record<string, () => Promise<CheckResult>>): Router {
  const router = express.Router();
  router.get('/health', async (_req, res) => {
    try {
      res.json({ status: 'ok', service, ...(await ready()) });
    } catch {
      res.status(503).json({ status: 'unavailable', service });
    }
  });
  router.get('/health/ready', async (_req, res) => {
    if (!readiness) {
      try {
        return res.json({ status: 'ready', service, ...(await ready()) });
      } catch {
        return res.status(503).json({ status: 'unavailable', service });
      }
    }
    const { ok, results } = await checkAll(readiness);
    const degraded = Object.keys(results).filter((name) => results[name] === 'degraded');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'unavailable', service, ...(degraded.length > 0 ? { degraded } : {}), checks: results });
  });
  return router;
}
