/**
 * Subscription fan-out for graphql-ws: a subscription event is executed through gateway and
 * subgraph once per group of subscribers that would all receive the same result, and that one
 * result goes to every subscriber of the group (instead of one execution per subscriber: 0.2 ms
 * each, so 1,000 subscribers cost 200 ms of CPU per event).
 *
 * A group is (operation document, operation name, variables, extensions, audience key). The
 * audience key (from the caller's identity, see `visibilityKeyOf`) is equal only for callers that
 * see exactly the same things, so who hears what does not change.
 *
 * Every subscriber still subscribes through the gateway on its own, so operation limits, the
 * access decision and the visibility check (e.g. of `applicationId`) are made for each one as
 * before; only once its subscription is live does it join its group, and its own stream is closed.
 * Before each event a subscriber's credential is checked again (a cached lookup, no execution): a
 * revoked one receives that error once and its subscription ends.
 *
 * Both deployments use it: the single process, and the distributed gateway, which verifies the token
 * itself and asks a subgraph about its standing (remote-gateway-server.ts). There a group's stream
 * runs over the subgraph connection of the subscriber that opened it; when that stream fails (e.g.
 * the subgraph closed it because that subscriber's key was revoked) the group carries on over a new
 * stream opened for the next member still in good standing, and the others are told why they end.
 */
import { getOperationAST, parse, type ExecutionResult, type GraphQLError } from 'graphql';
import { isAuthenticated, visibilityKeyOf, type Actor } from '../../kernel/actor.js';
import { subscriptionEventExecutions } from '../../infra/metrics.js';

export interface SubscriberAudience {
  /** Equal for two subscribers only when they see exactly the same events and data. */
  key: string;
  /** Throws (an AppError) once the subscriber's credential is no longer in good standing. */
  assertActive(): Promise<void>;
}

export interface FanOutOptions {
  /** The audience of the caller behind these headers; null leaves the subscription unshared. */
  audienceOf(headers: Headers): Promise<SubscriberAudience | null>;
  /** The GraphQL error a subscriber receives when `assertActive` throws. */
  toGraphQLError(err: unknown): GraphQLError;
}

/**
 * The audience of a caller: the one rule (`visibilityKeyOf`) every deployment groups by; null for an
 * unauthenticated caller (its subscription stays unshared and is refused by the access decision).
 */
export function audienceOfCaller(
  caller: { actor: Actor; requestedTenantId: string | null },
  environment: string,
  assertActive: () => Promise<void>,
): SubscriberAudience | null {
  if (!isAuthenticated(caller.actor)) return null;
  return { key: visibilityKeyOf(caller.actor, caller.requestedTenantId, environment), assertActive };
}

/** What the gateway's graphql-ws context carries (gateway-server.ts, getGraphQLWSOptions). */
interface WsContext {
  headers?: Headers;
  params?: { query?: string; operationName?: string | null; variables?: unknown; extensions?: unknown };
}

/**
 * One subscriber's stream: results queue until graphql-ws takes them. It is registered in its group
 * as soon as it exists (not on the first read), so a subscriber closed before reading still leaves.
 */
class MemberStream implements AsyncIterableIterator<ExecutionResult> {
  /** Deliveries to this member, in event order (each waits for its credential check). */
  delivered: Promise<void> = Promise.resolve();
  /** Whether the group's stream was ever opened by this member's subscription (each opens it once at most). */
  openedStream = false;
  private readonly queue: ExecutionResult[] = [];
  private waiting: ((next: IteratorResult<ExecutionResult>) => void) | undefined;
  private failure: unknown;
  private ended = false;

  constructor(
    readonly audience: SubscriberAudience,
    /** Opens this subscriber's own stream again: the group's next stream when its current one fails. */
    readonly resubscribe: () => Promise<unknown>,
    private readonly onEnd: () => void,
  ) {}

  push(result: ExecutionResult): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: result, done: false });
    } else this.queue.push(result);
  }

  /** Ends the stream once the queued results are read; with a reason, reading then throws it. */
  stop(reason?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = reason;
    this.onEnd();
    if (this.waiting && this.queue.length === 0) {
      const resolve = this.waiting;
      this.waiting = undefined;
      if (reason === undefined) resolve({ value: undefined, done: true });
      else resolve(Promise.reject(reason) as never);
    }
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued, done: false });
    if (this.ended) return this.failure === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(this.failure);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.queue.length = 0;
    this.stop();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

interface Group {
  members: Set<MemberStream>;
  /** The stream that carries the group's events: opened by `owner`'s subscription. */
  source: AsyncIterator<ExecutionResult>;
  /** A stream taking over from `source` once it has surely started (HANDOVER_MS); its events are dropped until then. */
  pending: AsyncIterator<ExecutionResult> | undefined;
  owner: MemberStream | undefined;
  operation: string;
  /** A replacement of the source in progress (one at a time). */
  replacing: Promise<boolean>;
}

/**
 * How long a group's old and new streams both run when its owner leaves: the old one's events are
 * delivered meanwhile, the new one's from then on, so none is lost while the new subscription
 * reaches the subgraph (an event at that very moment may come twice, or, rarely, not at all).
 */
const HANDOVER_MS = 1_000;

/** Wraps the graphql-ws `subscribe` of the gateway so that live subscriptions share their executions. */
export function fanOutSubscriptions<Args extends { contextValue?: unknown }, Result>(
  subscribe: (args: Args) => Result | Promise<Result>,
  options: FanOutOptions,
): (args: Args) => Promise<Result | AsyncIterableIterator<ExecutionResult>> {
  const groups = new Map<string, Group>();

  function pump(key: string, group: Group, source: AsyncIterator<ExecutionResult>): void {
    void (async () => {
      try {
        for (let next = await source.next(); !next.done; next = await source.next()) {
          if (group.source !== source) {
            if (group.pending === source) continue; // the old stream still delivers
            return; // replaced: the new stream carries on
          }
          subscriptionEventExecutions.inc({ operation: group.operation });
          for (const member of group.members) deliver(member, next.value);
        }
        if (group.source !== source) {
          if (group.pending === source) group.pending = undefined;
          return;
        }
        // Ended under a hand-over (the leaving owner's stream): the new one carries on at once.
        if (group.pending) return promote(group, group.pending);
        // After the events on their way to each member (a refusal arrives as the stream's only result).
        for (const member of group.members) void member.delivered.then(() => member.stop());
      } catch (err) {
        if (group.source !== source) {
          if (group.pending === source) group.pending = undefined;
          return;
        }
        if (group.pending) return promote(group, group.pending);
        group.owner = undefined;
        if (await replaceSource(key, group, false)) return;
        for (const member of group.members) void member.delivered.then(() => member.stop(err));
      }
      if (groups.get(key) === group && group.source === source) groups.delete(key);
    })();
  }

  /** The pending stream becomes the group's, and the old one is closed. */
  function promote(group: Group, source: AsyncIterator<ExecutionResult>): void {
    if (group.pending !== source) return;
    const old = group.source;
    group.source = source;
    group.pending = undefined;
    void old.return?.();
  }

  /**
   * Opens the group's stream again, for its first member in good standing that has not opened one
   * yet (members no longer in good standing are told why and leave): when its owner left (`handOver`:
   * the old stream delivers until the new one has started) or its stream failed. In the distributed
   * deployment the stream runs over the owner's subgraph connection, which the subgraph closes once
   * the owner's credential is revoked. False when no member is left to open it.
   */
  function replaceSource(key: string, group: Group, handOver: boolean): Promise<boolean> {
    group.replacing = group.replacing.then(() => openAgain(key, group, handOver).catch(() => false));
    return group.replacing;
  }

  async function openAgain(key: string, group: Group, handOver: boolean): Promise<boolean> {
    if (group.owner) return true;
    for (const member of [...group.members]) {
      if (member.openedStream || !group.members.has(member)) continue;
      await member.delivered;
      try {
        await member.audience.assertActive();
      } catch (err) {
        member.push({ errors: [options.toGraphQLError(err)] });
        member.stop();
        continue;
      }
      member.openedStream = true;
      const result = await member.resubscribe().catch(() => null);
      if (!isAsyncIterable(result)) continue;
      const source = (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
      if (groups.get(key) !== group || !group.members.has(member)) {
        await source.return?.();
        return false;
      }
      group.owner = member;
      group.pending = source;
      pump(key, group, source);
      if (handOver) setTimeout(() => promote(group, source), HANDOVER_MS).unref();
      else promote(group, source);
      return true;
    }
    return false;
  }

  function deliver(member: MemberStream, result: ExecutionResult): void {
    member.delivered = member.delivered.then(async () => {
      try {
        await member.audience.assertActive();
      } catch (err) {
        member.push({ errors: [options.toGraphQLError(err)] });
        return member.stop();
      }
      member.push(result);
    });
  }

  function join(key: string, group: Group, audience: SubscriberAudience, resubscribe: () => Promise<unknown>): MemberStream {
    const member = new MemberStream(audience, resubscribe, () => {
      group.members.delete(member);
      if (group.members.size === 0) {
        if (groups.get(key) === group) groups.delete(key);
        void group.source.return?.();
        void group.pending?.return?.();
        group.pending = undefined;
      } else if (group.owner === member) {
        // Its stream may end with it (its socket, its credential): another member's takes over.
        group.owner = undefined;
        void replaceSource(key, group, true);
      }
    });
    group.members.add(member);
    return member;
  }

  return async (args) => {
    const result = await subscribe(args);
    if (!isAsyncIterable(result)) return result;
    const context = (args.contextValue ?? {}) as WsContext;
    const params = context.params;
    const operation = params?.query ? subscriptionName(params.query, params.operationName) : null;
    if (!context.headers || operation === null) return result;
    // Without a known audience (or when it cannot be told) the subscription stays unshared, as before.
    const audience = await options.audienceOf(context.headers).catch(() => null);
    if (!audience) return result;
    const key = JSON.stringify([audience.key, params!.query, params!.operationName ?? null, params!.variables ?? null, params!.extensions ?? null]);
    const resubscribe = async () => subscribe(args);
    const existing = groups.get(key);
    if (existing) {
      // Its own stream was only needed for the decisions above: the group's execution serves it.
      await (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]().return?.();
      return join(key, existing, audience, resubscribe);
    }
    const source = (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
    const group: Group = { members: new Set(), source, pending: undefined, owner: undefined, operation, replacing: Promise.resolve(true) };
    groups.set(key, group);
    const owner = join(key, group, audience, resubscribe);
    owner.openedStream = true;
    group.owner = owner;
    pump(key, group, source);
    return owner;
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * The name a subscription is counted under ('anonymous' without one); null for other operations:
 * only subscriptions are shared, a query with @defer/@stream also streams, but it ends.
 */
function subscriptionName(query: string, operationName: string | null | undefined): string | null {
  try {
    const operation = getOperationAST(parse(query), operationName ?? undefined);
    return operation?.operation === 'subscription' ? operationName || operation.name?.value || 'anonymous' : null;
  } catch {
    return null;
  }
}
