/**
 * Prometheus metrics (prom-client): one registry per process, so each process of the distributed
 * deployment exposes its own. HTTP requests by route template, GraphQL operations by name, webhook
 * deliveries by lender, the lender applications' business counters and response times by lender,
 * the review queue, live subscriptions, the database pool and the process itself. Served at /metrics
 * (src/api/http/observability.ts) on a separate port or behind a token.
 *
 * The `lender` label is the lender's slug (unique in its environment, stable across renames of its
 * display name). Its values are bounded by the lender catalogue, which only staff administrators
 * change and which holds tens of lenders, not thousands: each lender adds one series per outcome or
 * status, never one per application, delivery or client.
 */
import { hostname } from 'node:os';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './database.js';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/**
 * Labels every series this process exposes with its service (`rest`, `gateway`, `worker`, a
 * subgraph's name, `all-in-one`) and its instance (INSTANCE_ID, else `<hostname>/<pid>`: the pod's
 * name under Kubernetes, where the pid is the same in every pod), so the replicas of a service add
 * up in a query and each stays apart. Called once at start, before anything is scraped.
 */
export function labelProcessMetrics(service: string, instanceId?: string): { service: string; instance: string } {
  const labels = { service, instance: instanceId ?? `${hostname()}/${process.pid}` };
  metricsRegistry.setDefaultLabels(labels);
  return labels;
}

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

const graphqlOperations = new Counter({
  name: 'graphql_operations_total',
  help: 'GraphQL operations by operation name and type, and whether they ended with errors',
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [metricsRegistry],
});

const graphqlErrors = new Counter({
  name: 'graphql_errors_total',
  help: 'GraphQL errors by operation name and error code',
  labelNames: ['operation', 'code'] as const,
  registers: [metricsRegistry],
});

const webhookAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by lender (slug) and outcome (delivered, retrying, dead; error when the attempt could not be recorded)',
  labelNames: ['lender', 'outcome'] as const,
  registers: [metricsRegistry],
});

const webhookAttemptDuration = new Histogram({
  name: 'webhook_delivery_attempt_duration_seconds',
  help: 'Webhook delivery attempt latency by lender (slug) and outcome',
  labelNames: ['lender', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/** The business events of a lender application: its status moves (APPLICATION_STATUSES, by event) and its first acknowledgement, which moves no status. */
const APPLICATION_MOVES = ['submitted', 'acknowledged', 'offered', 'failed', 'rejected', 'accepted', 'declined'] as const;
export type ApplicationMove = (typeof APPLICATION_MOVES)[number];

const lenderApplicationMoves = new Counter({
  name: 'lender_application_moves_total',
  help: 'Lender applications moved into a status, or first acknowledged (which leaves the status In Review), by lender (slug) and move (submitted, acknowledged, offered, failed, rejected, accepted, declined), counted when the change commits',
  labelNames: ['lender', 'move'] as const,
  registers: [metricsRegistry],
});

/** From submission to a lender's first answer: minutes to days. */
const RESPONSE_BUCKETS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 2 * 86_400, 4 * 86_400, 7 * 86_400];

const timeToAcknowledgement = new Histogram({
  name: 'lender_application_time_to_acknowledgement_seconds',
  help: "From a lender application's submission to the lender's first acknowledgement, by lender (slug)",
  labelNames: ['lender'] as const,
  buckets: RESPONSE_BUCKETS,
  registers: [metricsRegistry],
});

const timeToOffer = new Histogram({
  name: 'lender_application_time_to_offer_seconds',
  help: "From a lender application's submission to the lender's first offer, by lender (slug)",
  labelNames: ['lender'] as const,
  buckets: RESPONSE_BUCKETS,
  registers: [metricsRegistry],
});

/** A committed status move; `firstAnswerSeconds` when it is the lender's first acknowledgement or offer. */
export interface CommittedMove {
  lender: string;
  move: ApplicationMove;
  firstAnswerSeconds?: number;
}

/** Counts moves that committed (never inside their transaction: a rolled-back move is not counted). */
export function recordApplicationMoves(moves: readonly CommittedMove[]): void {
  for (const { lender, move, firstAnswerSeconds } of moves) {
    lenderApplicationMoves.inc({ lender, move });
    if (firstAnswerSeconds === undefined) continue;
    if (move === 'acknowledged') timeToAcknowledgement.observe({ lender }, firstAnswerSeconds);
    if (move === 'offered') timeToOffer.observe({ lender }, firstAnswerSeconds);
  }
}

export const liveSubscriptions = new Gauge({
  name: 'graphql_live_subscriptions',
  help: 'GraphQL subscriptions currently open over graphql-ws',
  registers: [metricsRegistry],
});

/**
 * Subscription events executed: one per event and stream that carries it through the gateway and
 * its subgraph. With fan-out (src/api/graphql/subscription-fanout.ts) one stream serves a whole
 * audience group, so per event this grows by the number of groups, not of subscribers; a subgraph
 * of the distributed deployment counts the events it sends over each graphql-ws subscription.
 */
export const subscriptionEventExecutions = new Counter({
  name: 'graphql_subscription_event_executions_total',
  help: 'Subscription events executed, by operation name: one per shared stream (audience group) and event',
  labelNames: ['operation'] as const,
  registers: [metricsRegistry],
});

/**
 * Times one delivery attempt and counts it by lender (slug) and outcome: the attempt's own
 * (webhook-delivery.ts AttemptOutcome), or `error` when it threw (its record failed).
 */
export async function measureDeliveryAttempt<Outcome extends string>(lender: string, attempt: () => Promise<Outcome>): Promise<Outcome> {
  const stop = webhookAttemptDuration.startTimer({ lender });
  try {
    const outcome = await attempt();
    stop({ outcome });
    webhookAttempts.inc({ lender, outcome });
    return outcome;
  } catch (err) {
    stop({ outcome: 'error' });
    webhookAttempts.inc({ lender, outcome: 'error' });
    throw err;
  }
}

/** Counts one GraphQL operation (and its errors) by name. */
export function recordGraphqlOperation(name: string | undefined, type: string, errorCodes: string[]): void {
  const operation = name || 'anonymous';
  graphqlOperations.inc({ operation, type, outcome: errorCodes.length > 0 ? 'error' : 'ok' });
  for (const code of errorCodes) graphqlErrors.inc({ operation, code });
}

/** The review queue as one scrape reads it: per environment, the selections waiting and the oldest one's age. */
export interface ReviewQueueStanding {
  environment: string;
  waiting: number;
  oldestAgeSeconds: number;
}

/** The webhook delivery backlog (modules/webhooks/delivery-backlog.ts reads it for scrapes and readiness). */
export interface DeliveryBacklogGauges {
  /** Deliveries due and not yet delivered, at most the reading's BACKLOG_COUNT_LIMIT. */
  due: number;
  /** Seconds since the oldest of them became due (0 when none is). */
  oldestDueSeconds: number;
}

interface ObservedDatabase {
  db: Db;
  pool: pg.Pool;
  poolSize: number;
  reviewQueue?: () => Promise<ReviewQueueStanding[]>;
  deliveryBacklog?: () => Promise<DeliveryBacklogGauges>;
}

let observed: ObservedDatabase | undefined;

/**
 * Gauges read when scraped: the delivery queue (pending, oldest pending age, dead letters; the
 * backlog due now) and the review queue (the backlog and the review queue each by one statement,
 * given by the module that owns it: infra imports no module) from the database, and the pg pool's
 * connections and size, of the database this process opened last.
 */
export function instrumentDatabase(
  db: Db,
  pool: pg.Pool,
  options: Pick<ObservedDatabase, 'reviewQueue' | 'deliveryBacklog'> & { poolSize?: number } = {},
): void {
  const registered = observed !== undefined;
  observed = { db, pool, poolSize: options.poolSize ?? pool.options.max ?? 10, reviewQueue: options.reviewQueue, deliveryBacklog: options.deliveryBacklog };
  if (registered) return;
  const current = () => observed!;
  new Gauge({
    name: 'webhook_delivery_queue_depth',
    help: 'Webhook deliveries not yet delivered nor dead: pending, or failed and awaiting their retry (due or not)',
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
      const oldest = await current().db.webhookDelivery.findFirst({
        where: { status: { in: ['PENDING', 'FAILED'] } },
        orderBy: { createdAt: 'asc' },
        select: { createdAt: true },
      });
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
  // The two backlog gauges share one statement per scrape, as the review queue's do (below).
  const noBacklog = Promise.resolve<DeliveryBacklogGauges>({ due: 0, oldestDueSeconds: 0 });
  let backlog = noBacklog;
  new Gauge({
    name: 'webhook_delivery_due',
    help: 'Webhook deliveries due and not yet delivered (pending, or failed and due for their retry), counted up to a limit (BACKLOG_COUNT_LIMIT)',
    registers: [metricsRegistry],
    async collect() {
      const read = current().deliveryBacklog;
      backlog = read ? read() : noBacklog;
      this.set((await backlog).due);
    },
  });
  new Gauge({
    name: 'webhook_delivery_oldest_due_age_seconds',
    help: 'How long the oldest webhook delivery due and not yet delivered has been due (0 when none)',
    registers: [metricsRegistry],
    async collect() {
      this.set((await backlog).oldestDueSeconds);
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
  new Gauge({
    name: 'db_pool_size',
    help: 'Database pool size: the most connections the pool opens (db_pool_connections{state="total"} is how many it has)',
    registers: [metricsRegistry],
    collect() {
      this.set(current().poolSize);
    },
  });
  // The two review-queue gauges share one statement per scrape: prom-client starts every metric's
  // collect in registration order before awaiting any, so the depth gauge starts the read and the
  // age gauge awaits that same read.
  let standing: Promise<ReviewQueueStanding[]> = Promise.resolve([]);
  const setByEnvironment = (gauge: Gauge<'environment'>, rows: ReviewQueueStanding[], value: (row: ReviewQueueStanding) => number) => {
    gauge.reset();
    for (const row of rows) gauge.set({ environment: row.environment }, value(row));
  };
  new Gauge({
    name: 'review_queue_depth',
    help: "Selections waiting in the funding specialists' review queue (pending review or in review), by environment",
    labelNames: ['environment'] as const,
    registers: [metricsRegistry],
    async collect() {
      const read = current().reviewQueue;
      standing = read ? read() : Promise.resolve([]);
      setByEnvironment(this, await standing, (row) => row.waiting);
    },
  });
  new Gauge({
    name: 'review_queue_oldest_age_seconds',
    help: 'Age of the oldest selection waiting in the review queue (0 when none), by environment',
    labelNames: ['environment'] as const,
    registers: [metricsRegistry],
    async collect() {
      setByEnvironment(this, await standing, (row) => row.oldestAgeSeconds);
    },
  });
}
