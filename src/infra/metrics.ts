/**
 * Prometheus metrics (prom-client): one registry per process, so each process of the distributed
 * deployment exposes its own. HTTP requests by route template, GraphQL operations by name, webhook
 * deliveries, live subscriptions, the database pool and the process itself. Served at /metrics
 * (src/api/http/observability.ts) on a separate port or behind a token.
 */
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './database.js';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const graphqlOperations = new Counter({
  name: 'graphql_operations_total',
  help: 'GraphQL operations by operation name and type, and whether they ended with errors',
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const graphqlErrors = new Counter({
  name: 'graphql_errors_total',
  help: 'GraphQL errors by operation name and error code',
  labelNames: ['operation', 'code'] as const,
  registers: [metricsRegistry],
});

export const webhookAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, retrying, dead, deferred, skipped, error)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookAttemptDuration = new Histogram({
  name: 'webhook_delivery_attempt_duration_seconds',
  help: 'Webhook delivery attempt latency by outcome',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const liveSubscriptions = new Gauge({
  name: 'graphql_live_subscriptions',
  help: 'GraphQL subscriptions currently open over graphql-ws',
  registers: [metricsRegistry],
});

/** Times one delivery attempt and counts it by outcome. */
export async function measureDeliveryAttempt(attempt: () => Promise<string>): Promise<string> {
  const stop = webhookAttemptDuration.startTimer();
  try {
    const outcome = await attempt();
    stop({ outcome });
    webhookAttempts.inc({ outcome });
    return outcome;
  } catch (err) {
    stop({ outcome: 'error' });
    webhookAttempts.inc({ outcome: 'error' });
    throw err;
  }
}

/** Counts one GraphQL operation (and its errors) by name. */
export function recordGraphqlOperation(name: string | undefined, type: string, errorCodes: string[]): void {
  const operation = name || 'anonymous';
  graphqlOperations.inc({ operation, type, outcome: errorCodes.length > 0 ? 'error' : 'ok' });
  for (const code of errorCodes) graphqlErrors.inc({ operation, code });
}

let observed: { db: Db; pool: pg.Pool } | undefined;

/**
 * Gauges read when scraped: the delivery queue (pending, oldest pending age, dead letters) from the
 * database, and the pg pool's connections, of the database this process opened last.
 */
export function instrumentDatabase(db: Db, pool: pg.Pool): void {
  const registered = observed !== undefined;
  observed = { db, pool };
  if (registered) return;
  const current = () => observed!;
  new Gauge({
    name: 'webhook_delivery_queue_depth',
    help: 'Webhook deliveries waiting for an attempt (pending or failed and due again)',
    registers: [metricsRegistry],
    async collect() {
      this.set(await current().db.webhookDelivery.count({ where: { status: { in: ['PENDING', 'FAILED'] } } }));
    },
  });
  new Gauge({
    name: 'webhook_delivery_oldest_pending_age_seconds',
    help: 'Age of the oldest webhook delivery not yet delivered nor dead (0 when none)',
    registers: [metricsRegistry],
    async collect() {
      const oldest = await current().db.webhookDelivery.findFirst({ where: { status: { in: ['PENDING', 'FAILED'] } }, orderBy: { createdAt: 'asc' }, select: { createdAt: true } });
      this.set(oldest ? (Date.now() - oldest.createdAt.getTime()) / 1000 : 0);
    },
  });
  new Gauge({
    name: 'webhook_delivery_dead_letters',
    help: 'Webhook deliveries given up after their last attempt (dead letters awaiting replay)',
    registers: [metricsRegistry],
    async collect() {
      this.set(await current().db.webhookDelivery.count({ where: { status: 'DEAD' } }));
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    collect() {
      const { pool } = current();
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}
