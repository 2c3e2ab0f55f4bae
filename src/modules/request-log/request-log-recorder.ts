/**
 * Writes request log entries off the request path: the HTTP layer hands each finished request to
 * `record` (no I/O, no await), and a timer inserts what has queued in batches. The queue is bounded:
 * past REQUEST_LOG_QUEUE_LIMIT entries (the database slow or down), new entries are dropped and
 * counted rather than held, so a request is never slowed, failed or made to grow memory by its log.
 * A failed insert drops its batch (logged): the log is an aid, not a record of account.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, DeployEnvironment } from '../../kernel/context.js';
import type { Logger } from '../../infra/logger.js';

export interface RequestLogRecord {
  accountId: string;
  environment: DeployEnvironment;
  requestId: string;
  method: string;
  route: string;
  status: number;
  latencyMs: number;
  credentialKind: string;
  apiKeyId: string | null;
  userId: string | null;
  tenantId: string | null;
  /** The problem-details body of a failure; never given for a success. */
  problem: unknown;
  createdAt: Date;
}

/** Entries waiting at most; beyond it new ones are dropped (counted in `dropped`). */
const REQUEST_LOG_QUEUE_LIMIT = 10_000;
/** Rows per INSERT. */
const REQUEST_LOG_BATCH_SIZE = 500;

export class RequestLogRecorder {
  private queue: RequestLogRecord[] = [];
  private flushing: Promise<void> | null = null;
  /** Entries dropped because the queue was full or their insert failed. */
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly limit = REQUEST_LOG_QUEUE_LIMIT,
  ) {}

  record(entry: RequestLogRecord): void {
    if (this.queue.length >= this.limit) {
      this.dropped += 1;
      return;
    }
    // A success's body is never kept, whatever the caller passed.
    this.queue.push(entry.status < 400 ? { ...entry, problem: null } : entry);
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Inserts everything queued so far, a batch at a time; one flush runs at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, REQUEST_LOG_BATCH_SIZE);
      try {
        await this.db.requestLogEntry.createMany({ data: batch.map(toRow) });
      } catch (err) {
        this.dropped += batch.length;
        this.logger.warn({ err, entries: batch.length }, 'request log entries dropped: their insert failed');
        return;
      }
    }
  }
}

function toRow(entry: RequestLogRecord): Prisma.RequestLogEntryCreateManyInput {
  const { problem, ...rest } = entry;
  return { ...rest, ...(problem === null || problem === undefined ? {} : { problem: problem as Prisma.InputJsonValue }) };
}
