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
 */
import { getOperationAST, parse, type ExecutionResult, type GraphQLError } from 'graphql';

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
  private readonly queue: ExecutionResult[] = [];
  private waiting: ((next: IteratorResult<ExecutionResult>) => void) | undefined;
  private failure: unknown;
  private ended = false;

  constructor(
    readonly audience: SubscriberAudience,
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
  source: AsyncIterator<ExecutionResult>;
}

/** Wraps the graphql-ws `subscribe` of the gateway so that live subscriptions share their executions. */
export function fanOutSubscriptions<Args extends { contextValue?: unknown }, Result>(
  subscribe: (args: Args) => Result | Promise<Result>,
  options: FanOutOptions,
): (args: Args) => Promise<Result | AsyncIterableIterator<ExecutionResult>> {
  const groups = new Map<string, Group>();

  function pump(key: string, group: Group): void {
    void (async () => {
      try {
        for (let next = await group.source.next(); !next.done; next = await group.source.next()) {
          for (const member of group.members) deliver(member, next.value);
        }
        for (const member of group.members) member.stop();
      } catch (err) {
        for (const member of group.members) member.stop(err);
      } finally {
        if (groups.get(key) === group) groups.delete(key);
      }
    })();
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

  function join(key: string, group: Group, audience: SubscriberAudience): AsyncIterableIterator<ExecutionResult> {
    const member = new MemberStream(audience, () => {
      group.members.delete(member);
      if (group.members.size === 0 && groups.get(key) === group) {
        groups.delete(key);
        void group.source.return?.();
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
    if (!context.headers || !params?.query || !isSubscription(params.query, params.operationName)) return result;
    // Without a known audience (or when it cannot be told) the subscription stays unshared, as before.
    const audience = await options.audienceOf(context.headers).catch(() => null);
    if (!audience) return result;
    const key = JSON.stringify([audience.key, params.query, params.operationName ?? null, params.variables ?? null, params.extensions ?? null]);
    let group = groups.get(key);
    if (group) {
      // Its own stream was only needed for the decisions above: the group's execution serves it.
      await (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]().return?.();
    } else {
      group = { members: new Set(), source: (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]() };
      groups.set(key, group);
      pump(key, group);
    }
    return join(key, group, audience);
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** Only subscriptions are shared: a query with @defer/@stream also streams, but it ends. */
function isSubscription(query: string, operationName: string | null | undefined): boolean {
  try {
    return getOperationAST(parse(query), operationName ?? undefined)?.operation === 'subscription';
  } catch {
    return false;
  }
}
