/**
 * Follows the Companies House streaming API's companies stream (`GET /companies`, HTTP basic
 * authentication with the stream key as user name): a long-lived response of one JSON event per
 * line, `{ resource_kind, resource_id, resource_uri, data, event: { timepoint, published_at, type } }`
 * where `data` is the company profile resource and `type` is `changed` or `deleted`; blank lines are
 * heartbeats sent while there is nothing new. Each event is applied to the register with its
 * timepoint in one transaction, so after a restart or a dropped connection the stream is asked again
 * from the last timepoint applied (`?timepoint=`) and nothing is applied twice. A timepoint the
 * service no longer holds (416) restarts from the stream's present, logged.
 *
 * One follower per deployment: it holds a PostgreSQL advisory lock (the lease) on a connection of its
 * own for as long as it follows; a second process waits until the lock is free.
 */
import type pg from 'pg';
import { poolOf, type Db } from '../../../infra/database.js';
import type { Logger } from '../../../infra/logger.js';
import { writeRegisterFacts } from '../register-store.js';
import { factsOfProfile, type CompanyProfile } from './companies-house-api.js';

interface StreamEvent {
  resource_kind: string;
  resource_id: string;
  resource_uri?: string;
  data?: CompanyProfile;
  event: { timepoint: number; published_at?: string; type?: string };
}

export interface CompaniesStreamOptions {
  db: Db;
  baseUrl: string;
  streamKey: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The first wait before reconnecting; it doubles up to 30 s while connections keep failing. */
  retryMs?: number;
  /** How often a process without the lease tries to take it. */
  leaseRetryMs?: number;
}

interface CompaniesStreamStatus {
  lease: 'held' | 'waiting';
  connected: boolean;
  timepoint: number | null;
  /** Seconds between now and the publication of the last event applied; 0 once a heartbeat says nothing is pending. */
  lagSeconds: number;
  applied: number;
}

export interface CompaniesStream {
  status(): CompaniesStreamStatus;
  stop(): Promise<void>;
}

const STREAM = 'companies';
/** The lease's advisory lock key: one number for the companies stream of a deployment's database. */
const LEASE_KEY = 0x43485354; // "CHST"

export function followCompaniesStream(options: CompaniesStreamOptions): CompaniesStream {
  const { db, logger } = options;
  const retryMs = options.retryMs ?? 1000;
  const leaseRetryMs = options.leaseRetryMs ?? 5000;
  const state: CompaniesStreamStatus = { lease: 'waiting', connected: false, timepoint: null, lagSeconds: 0, applied: 0 };
  let lastPublished: number | null = null;
  let caughtUp = false;
  let stopped = false;
  let abort = new AbortController();
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function apply(event: StreamEvent): Promise<void> {
    const timepoint = Number(event.event.timepoint);
    if (state.timepoint !== null && timepoint <= state.timepoint) return;
    const published = event.event.published_at ? new Date(event.event.published_at) : null;
    const facts = event.data && event.event.type !== 'deleted' ? factsOfProfile(event.data, event.resource_id) : null;
    await db.$transaction(async (tx) => {
      if (facts) await writeRegisterFacts(tx, [facts], 'companies-house-stream');
      else if (event.event.type === 'deleted') {
        // Never deleted here either: profiles and applications name the company.
        await tx.$executeRaw`UPDATE company SET "registerRemovedAt" = now(), "status" = 'DISSOLVED', "updatedAt" = now()
          WHERE "countryCode" = 'GB' AND "registrationNumber" = ${event.resource_id.toUpperCase()} AND "registerRemovedAt" IS NULL`;
      }
      await tx.companyStreamPosition.upsert({
        where: { stream: STREAM },
        create: { stream: STREAM, timepoint: BigInt(timepoint), publishedAt: published },
        update: { timepoint: BigInt(timepoint), publishedAt: published },
      });
    });
    state.timepoint = timepoint;
    state.applied++;
    caughtUp = false;
    if (published && !Number.isNaN(published.getTime())) lastPublished = published.getTime();
  }

  /** One connection: resolves when the stream ends or fails; throws nothing. */
  async function followOnce(): Promise<'ended' | 'failed'> {
    const url = new URL(`${options.baseUrl.replace(/\/$/, '')}/${STREAM}`);
    if (state.timepoint !== null) url.searchParams.set('timepoint', String(state.timepoint));
    try {
      const res = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${options.streamKey}:`).toString('base64')}` }, signal: abort.signal });
      if (res.status === 416) {
        logger.error(
          { timepoint: state.timepoint },
          'company-stream: the stream no longer holds our timepoint; following from its present (changes in between are missed until the next bulk import)',
        );
        state.timepoint = null;
        await db.companyStreamPosition.deleteMany({ where: { stream: STREAM } });
        return 'failed';
      }
      if (!res.ok || !res.body) {
        logger.warn({ status: res.status }, 'company-stream: the stream answered an error');
        return 'failed';
      }
      state.connected = true;
      logger.info({ timepoint: state.timepoint }, 'company-stream: connected');
      const decoder = new TextDecoder();
      let pending = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, newline).trim();
          pending = pending.slice(newline + 1);
          if (!line) {
            // A heartbeat: the stream has nothing newer than what was applied.
            caughtUp = true;
            continue;
          }
          let event: StreamEvent;
          try {
            event = JSON.parse(line) as StreamEvent;
          } catch {
            logger.warn({ line: line.slice(0, 200) }, 'company-stream: an unreadable event was skipped');
            continue;
          }
          if (event.resource_kind !== 'company-profile' || typeof event.event?.timepoint !== 'number') continue;
          await apply(event);
        }
      }
      return 'ended';
    } catch (err) {
      if (!stopped) logger.warn({ err: (err as Error).message }, 'company-stream: the connection was lost');
      return 'failed';
    } finally {
      state.connected = false;
    }
  }

  async function takeLease(): Promise<pg.PoolClient | null> {
    while (!stopped) {
      const client = await poolOf(db)
        .connect()
        .catch(() => null);
      if (client) {
        const held = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [LEASE_KEY]).then(
          (r) => r.rows[0]!.held,
          () => false,
        );
        if (held) return client;
        client.release();
      }
      await pause(leaseRetryMs);
    }
    return null;
  }

  /** Follows while the lease is held; returns when stopped or when the lease is lost. */
  async function whileLeased(): Promise<void> {
    const lease = await takeLease();
    if (!lease) return;
    let lost = false;
    // The lock lives as long as its connection: losing the connection is losing the lease.
    lease.on('error', () => {
      lost = true;
      abort.abort();
    });
    state.lease = 'held';
    logger.info('company-stream: lease taken; following the companies stream');
    try {
      const position = await db.companyStreamPosition.findUnique({ where: { stream: STREAM } });
      state.timepoint = position ? Number(position.timepoint) : null;
      lastPublished = position?.publishedAt?.getTime() ?? null;
      let wait = retryMs;
      while (!stopped && !lost) {
        const outcome = await followOnce();
        if (stopped || lost) break;
        wait = outcome === 'ended' ? retryMs : Math.min(wait * 2, 30_000);
        abort = new AbortController();
        await pause(outcome === 'ended' ? retryMs : wait);
      }
    } finally {
      state.lease = 'waiting';
      if (lost) lease.release(true);
      else {
        await lease.query('SELECT pg_advisory_unlock($1)', [LEASE_KEY]).catch(() => {});
        lease.release();
      }
    }
  }

  const running = (async () => {
    while (!stopped) {
      await whileLeased();
      abort = new AbortController();
    }
  })();

  return {
    status() {
      state.lagSeconds = caughtUp || lastPublished === null ? 0 : Math.max(0, Math.round((Date.now() - lastPublished) / 1000));
      return { ...state };
    },
    async stop() {
      stopped = true;
      abort.abort();
      wake?.();
      await running;
    },
  };
}
