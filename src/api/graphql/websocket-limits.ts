/**
 * The limits of every graphql-ws endpoint: the gateway's (single-process and distributed) and each
 * subgraph's in the distributed deployment. A socket
 * - is upgraded only within the per-address rate limit HTTP requests spend (429 before the upgrade);
 * - must send connection_init within GRAPHQL_WS_INIT_TIMEOUT_MS (graphql-ws closes it with 4408),
 *   carrying a valid, active bearer token (else 4403, the close graphql-ws makes for a refused
 *   connection; stock clients may retry it, e.g. with a fresh token);
 * - may carry credentials in the upgrade request's headers, in connection_init, or both; when both
 *   carry the same one (Authorization, Service-tenant-id) with different values it is refused (4403);
 * - counts against its credential: at most GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL sockets (one more
 *   is closed with 4429) and GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL operations at once (one
 *   more is answered with a TOO_MANY_REQUESTS error), in this process;
 * - is refused at connection_init (4403, the reason saying why) when its token is missing, malformed,
 *   expired, not one of ours (another audience, environment or kind, e.g. a signed link) or its
 *   credential is no longer in good standing (a revoked API key, a disabled user, re-issued lender
 *   credentials): in the single process from the database, in the distributed gateway by asking a
 *   subgraph (`subgraphCheckedCredentials`). No subscribe message is read before: graphql-ws closes
 *   a socket that subscribes before its connection_ack with 4401;
 * - is closed (4403) when its token expires, and when a re-check (every GRAPHQL_WS_CREDENTIAL_RECHECK_MS)
 *   finds its credential revoked: a revoked API key, a disabled user, rotated lender credentials;
 * - sends messages of at most GRAPHQL_WS_MAX_MESSAGE_BYTES (ws closes the socket with 1009);
 * - spends one request of its address's and credential's rate limits per subscribe message.
 */
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { GraphQLError } from 'graphql';
import { CloseCode, type Context, type ServerOptions } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppConfig } from '../../kernel/config.js';
import type { Clock } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { isAuthenticated } from '../../kernel/actor.js';
import { authenticate, bearerTokenOf, credentialHeaders } from '../../modules/identity/authenticate.js';
import type { Redis } from 'ioredis';
import { CREDENTIAL_CHANGES_CHANNEL, CREDENTIAL_STATUS_TTL_MS, type CredentialStatus } from '../../modules/identity/credential-status.js';
import type { TokenAuthority } from '../../modules/identity/token-authority.js';
import { conflictingCredential, connectionHeaders, CREDENTIAL_HEADERS } from '../http/connection-headers.js';
import { GATEWAY_SECRET_HEADER } from '../http/gateway-only.js';
import { credentialKeyOfClaims, tooManyRequests, type RequestBudget } from '../http/rate-limits.js';
import { audit } from '../../kernel/audit-log.js';
import type { Logger } from '../../infra/logger.js';
import { listenOn } from '../../infra/redis.js';
import { toGraphQLError } from '../../infra/graphql/graphql-errors.js';

/** The close reason of a socket whose token expired while it was open. */
const TOKEN_EXPIRED_REASON = 'Forbidden: the token has expired';

export interface WebSocketLimits {
  initTimeoutMs: number;
  maxMessageBytes: number;
  maxSocketsPerCredential: number;
  maxSubscriptionsPerCredential: number;
  credentialRecheckMs: number;
}

export function webSocketLimitsOf(config: AppConfig): WebSocketLimits {
  return {
    initTimeoutMs: config.GRAPHQL_WS_INIT_TIMEOUT_MS,
    maxMessageBytes: config.GRAPHQL_WS_MAX_MESSAGE_BYTES,
    maxSocketsPerCredential: config.GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL,
    maxSubscriptionsPerCredential: config.GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL,
    credentialRecheckMs: config.GRAPHQL_WS_CREDENTIAL_RECHECK_MS,
  };
}

/** A connection's verified credential. */
export interface ConnectionCredential {
  /** The same key the rate limits count by: one per API key, lender or user. */
  key: string;
  /** How long the token remains valid, from now (by the clock tokens are verified with). */
  expiresInMs: number;
  /** Throws (an AppError) once the credential is no longer in good standing. */
  assertActive(): Promise<void>;
}

export interface WebSocketGuard {
  limits: WebSocketLimits;
  /** The credential behind a connection's credential headers; throws an AppError saying why it is refused. */
  credentialOf(headers: Headers): Promise<ConnectionCredential>;
  /**
   * The rate limits HTTP requests spend. Left out by the subgraphs of the distributed deployment:
   * the gateway in front of them has already charged each subscribe message.
   */
  rateLimits?: { budget: RequestBudget; clientAddressOf(request: IncomingMessage): string };
  /**
   * Why an upgrade request is refused before it is upgraded (the subgraphs admit the gateway's only,
   * src/api/http/gateway-only.ts), else null.
   */
  upgradeRefusal?: (request: IncomingMessage) => AppError | null;
  logger: Logger;
}

/**
 * Connection credentials checked the way every request's are (authenticate.ts): a verified bearer
 * token whose key, user or lender credentials are still in good standing.
 */
export function tokenCredentials(tokens: TokenAuthority, status: CredentialStatus, clock: Clock): (headers: Headers) => Promise<ConnectionCredential> {
  return async (headers) => {
    const caller = await authenticate(tokens, status, credentialHeaders(headers));
    const actor = caller.actor;
    if (!isAuthenticated(actor)) {
      throw (
        (actor.kind === 'anonymous' && actor.rejection) ||
        AppError.unauthenticated('A bearer token is required: send { authorization: "Bearer <token>" } in connection_init')
      );
    }
    // authenticate() accepted the token, so it verifies; its claims give the key and the expiry.
    const claims = await tokens.verify(bearerTokenOf(headers.get('authorization'))!);
    return { key: credentialKeyOfClaims(claims), expiresInMs: claims.exp * 1000 - clock.now().getTime(), assertActive: () => status.assertActive(actor) };
  };
}

/** The subgraphs the distributed gateway asks, and the secret it presents to them (src/api/http/gateway-only.ts). */
export interface SubgraphEndpoints {
  urls: readonly string[];
  secret: string;
}

/** The caller's credential headers, sent by the gateway as itself: with the subgraph secret. */
function asGateway(credentials: Headers, secret: string): Headers {
  const headers = new Headers(credentials);
  headers.set(GATEWAY_SECRET_HEADER, secret);
  return headers;
}

/** Where a subgraph server answers whether a request's credential is in good standing (subgraph-server.ts). */
export const CREDENTIAL_STATUS_PATH = '/credential-status';

/** What that endpoint answers for a refused credential. */
export interface CredentialStatusRefusal {
  code: 'UNAUTHENTICATED' | 'FORBIDDEN';
  message: string;
}

const EVERY_CREDENTIAL_ACTIVE: CredentialStatus = { assertActive: async () => {}, forget: () => {}, close: () => {} };

/**
 * The distributed gateway's connection credentials. It holds no data: the token is verified here
 * (its key and expiry), and whether its key, user or lender credentials are still in good standing is
 * asked of a subgraph, which reads the database, at connection_init and at every re-check. The first
 * subgraph that answers decides; none answering fails the connection (graphql-ws closes it with 4500).
 */
export function subgraphCheckedCredentials(
  tokens: TokenAuthority,
  clock: Clock,
  subgraphs: SubgraphEndpoints,
): (headers: Headers) => Promise<ConnectionCredential> {
  const verified = tokenCredentials(tokens, EVERY_CREDENTIAL_ACTIVE, clock);
  const statusUrls = subgraphs.urls.map((url) => new URL(CREDENTIAL_STATUS_PATH, url).href);
  return async (headers) => {
    const credential = await verified(headers);
    const forwarded = asGateway(credentialHeadersOnly(headers), subgraphs.secret);
    const assertActive = () => standingFromSubgraphs(statusUrls, forwarded);
    await assertActive();
    return { ...credential, assertActive };
  };
}

/**
 * The distributed gateway's per-event check of a fanned-out subscriber (subscription-fanout.ts):
 * the subgraph's answer for these credential headers, cached for CREDENTIAL_STATUS_TTL_MS as each
 * process caches its database answers (credential-status.ts), so an event costs no request per
 * subscriber. A change announced on Redis (revocation, disabling, re-issued lender credentials)
 * drops every cached answer at once, and answers loaded within a second of a change are not kept:
 * the subgraph asked may not have heard of it yet.
 */
export function cachedSubgraphStanding(
  subgraphs: SubgraphEndpoints,
  redis?: Redis,
): { assertActive(headers: Headers | Readonly<Record<string, unknown>>): Promise<void>; close(): void } {
  const statusUrls = subgraphs.urls.map((url) => new URL(CREDENTIAL_STATUS_PATH, url).href);
  const cache = new Map<string, { answer: Promise<void>; until: number }>();
  let lastChange = 0;
  const changed = () => {
    lastChange = Date.now();
    cache.clear();
  };
  // ioredis reconnects (its errors are logged, infra/redis.ts): what was announced meanwhile went
  // unheard, so every answer is dropped when the connection is back.
  const listener = redis ? listenOn(redis, CREDENTIAL_CHANGES_CHANNEL, 'credential changes', changed, changed) : undefined;
  return {
    assertActive(headers) {
      const forwarded = credentialHeadersOnly(headers);
      const id = JSON.stringify(CREDENTIAL_HEADERS.map((name) => forwarded.get(name)));
      const hit = cache.get(id);
      if (hit && hit.until > Date.now()) return hit.answer;
      const askedAt = Date.now();
      const answer = standingFromSubgraphs(statusUrls, asGateway(forwarded, subgraphs.secret));
      if (cache.size > 10_000) cache.clear();
      cache.set(id, { answer, until: askedAt + CREDENTIAL_STATUS_TTL_MS });
      // Not kept when no subgraph answered, or when a change came in around the question.
      answer.catch((err: unknown) => {
        if (!(err instanceof AppError)) cache.delete(id);
      });
      void answer
        .catch(() => {})
        .then(() => {
          if (lastChange >= askedAt - 1_000 && cache.get(id)?.answer === answer) cache.delete(id);
        });
      return answer;
    },
    close() {
      listener?.close();
    },
  };
}

/** The credential headers alone, from Fetch Headers or a plain record (what a gateway context may carry by then). */
export function credentialHeadersOnly(headers: Headers | Readonly<Record<string, unknown>>): Headers {
  const forwarded = new Headers();
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    if (typeof value === 'string' && value) forwarded.set(name, value);
  }
  return forwarded;
}

async function standingFromSubgraphs(statusUrls: readonly string[], headers: Headers): Promise<void> {
  for (const url of statusUrls) {
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
    } catch {
      continue; // not reachable: ask the next one
    }
    if (res.status === 204) return;
    if (res.status === 401 || res.status === 403) {
      const refusal = (await res.json().catch(() => null)) as Partial<CredentialStatusRefusal> | null;
      throw new AppError(res.status === 403 ? 'FORBIDDEN' : 'UNAUTHENTICATED', typeof refusal?.message === 'string' ? refusal.message : 'Invalid token');
    }
    await res.body?.cancel();
  }
  throw new Error('no subgraph answered the credential check');
}

type UpgradeAnswer = (ok: boolean, status?: number, message?: string, headers?: Record<string, string>) => void;

/** The WebSocket server of a graphql-ws endpoint: message size, and at upgrade the upgrade check and the per-address rate limit. */
export function limitedWebSocketServer(server: Server, path: string, guard: WebSocketGuard): WebSocketServer {
  const { rateLimits, upgradeRefusal } = guard;
  const verifyUpgrade = upgradeRefusal
    ? (info: { req: IncomingMessage }, answer: UpgradeAnswer): boolean => {
        const refused = upgradeRefusal(info.req);
        if (refused) answer(false, refused.code === 'FORBIDDEN' ? 403 : 401, refused.message);
        return refused === null;
      }
    : () => true;
  return new WebSocketServer({
    server,
    path,
    maxPayload: guard.limits.maxMessageBytes,
    ...(rateLimits
      ? {
          verifyClient: (info: { req: IncomingMessage }, answer: UpgradeAnswer) => {
            if (!verifyUpgrade(info, answer)) return;
            const address = rateLimits.clientAddressOf(info.req);
            rateLimits.budget.charge(address, null).then(
              (charge) => {
                if (!charge.refused) return answer(true);
                audit(guard.logger, 'rate_limit.exceeded', { ip: address, credential: null, path, limit: charge.limit });
                answer(false, 429, 'Too Many Requests', { 'Retry-After': String(charge.resetSeconds) });
              },
              (err: unknown) => {
                guard.logger.error({ err }, 'rate limit check of a WebSocket upgrade failed');
                answer(false, 500);
              },
            );
          },
        }
      : upgradeRefusal
        ? {
            verifyClient: (info: { req: IncomingMessage }, answer: UpgradeAnswer) => {
              if (verifyUpgrade(info, answer)) answer(true);
            },
          }
        : {}),
  });
}

/**
 * graphql-ws accepts errors from onSubscribe only if they are `instanceof` the GraphQLError of the
 * graphql copy Node resolves for it: graphql's CommonJS build (its package has no `exports`). Under
 * a bundler-style resolver (vitest) this module may load the ESM build instead, so the errors it
 * hands graphql-ws are made from the CommonJS one.
 */
const { GraphQLError: CommonJsGraphQLError } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

function refusalError(err: AppError): GraphQLError {
  const mapped = toGraphQLError(err);
  return new CommonJsGraphQLError(mapped.message, { extensions: mapped.extensions });
}

interface Connection {
  credential: ConnectionCredential;
  timers: NodeJS.Timeout[];
}

type WsContext = Context<Record<string, unknown> | undefined, Extra>;
type WsOptions = ServerOptions<Record<string, unknown> | undefined, Extra>;

/** graphql-ws's own closes use 4403 for refused connections; reasons are limited to 123 bytes. */
const FORBIDDEN = CloseCode.Forbidden;
const TOO_MANY_CONNECTIONS = 4429;

/** Wraps graphql-ws server options with the limits above; the options' own hooks run after them. */
export function withWebSocketLimits<O extends WsOptions>(options: O, guard: WebSocketGuard): O {
  const { limits } = guard;
  const connections = new WeakMap<WsContext, Connection>();
  const socketsByCredential = new Map<string, Set<WsContext>>();

  function close(ctx: WsContext, code: number, reason: string): void {
    ctx.extra.socket.close(code, closeReason(reason));
  }

  function release(ctx: WsContext): void {
    const connection = connections.get(ctx);
    if (!connection) return;
    connections.delete(ctx);
    for (const timer of connection.timers) clearTimeout(timer);
    const sockets = socketsByCredential.get(connection.credential.key);
    sockets?.delete(ctx);
    if (sockets?.size === 0) socketsByCredential.delete(connection.credential.key);
  }

  /** Closes the socket once its token expires, and when a re-check finds its credential revoked. */
  function watch(ctx: WsContext, credential: ConnectionCredential): NodeJS.Timeout[] {
    const untilExpiry = Math.min(Math.max(0, credential.expiresInMs), 2 ** 31 - 1);
    const expiresAt = Date.now() + untilExpiry;
    const expiry = setTimeout(() => close(ctx, FORBIDDEN, TOKEN_EXPIRED_REASON), untilExpiry);
    const recheck = setInterval(() => {
      credential.assertActive().catch((err: unknown) => {
        if (!(err instanceof AppError)) return guard.logger.error({ err }, 'graphql-ws credential re-check failed');
        // A re-check that runs at the expiry (a subgraph refusing the now expired token) closes the
        // socket with the same reason as the expiry's timer, whichever of the two comes first.
        close(ctx, FORBIDDEN, Date.now() >= expiresAt ? TOKEN_EXPIRED_REASON : `Forbidden: ${err.message}`);
      });
    }, limits.credentialRecheckMs);
    expiry.unref();
    recheck.unref();
    return [expiry, recheck];
  }

  async function admit(ctx: WsContext): Promise<boolean> {
    const upgradeHeaders = ctx.extra.request.headers;
    const conflict = conflictingCredential(upgradeHeaders, ctx.connectionParams);
    if (conflict) {
      close(ctx, FORBIDDEN, `Forbidden: the upgrade request and connection_init carry different ${conflict} values`);
      return false;
    }
    let credential: ConnectionCredential;
    try {
      credential = await guard.credentialOf(connectionHeaders(upgradeHeaders, ctx.connectionParams));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      close(ctx, FORBIDDEN, `Forbidden: ${err.message}`);
      return false;
    }
    // Gone while its credential was checked: onClose has run already, so it must not be counted now.
    if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) return false;
    const sockets = socketsByCredential.get(credential.key) ?? new Set<WsContext>();
    if (sockets.size >= limits.maxSocketsPerCredential) {
      audit(guard.logger, 'rate_limit.exceeded', { credential: credential.key, path: 'graphql-ws', limit: limits.maxSocketsPerCredential });
      close(
        ctx,
        TOO_MANY_CONNECTIONS,
        `Too many connections for this credential: at most ${limits.maxSocketsPerCredential} (GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL)`,
      );
      return false;
    }
    sockets.add(ctx);
    socketsByCredential.set(credential.key, sockets);
    connections.set(ctx, { credential, timers: watch(ctx, credential) });
    return true;
  }

  /** Operations in progress over every socket of the credential, the new one included (graphql-ws records it first). */
  function operationsOf(key: string): number {
    let count = 0;
    for (const ctx of socketsByCredential.get(key) ?? []) count += Object.keys(ctx.subscriptions).length;
    return count;
  }

  async function refusal(ctx: WsContext): Promise<GraphQLError | null> {
    const connection = connections.get(ctx);
    if (!connection) return refusalError(AppError.unauthenticated('The connection is not authenticated'));
    const { key } = connection.credential;
    if (operationsOf(key) > limits.maxSubscriptionsPerCredential) {
      audit(guard.logger, 'rate_limit.exceeded', { credential: key, path: 'graphql-ws subscribe', limit: limits.maxSubscriptionsPerCredential });
      return refusalError(
        new AppError(
          'TOO_MANY_REQUESTS',
          `Too many subscriptions for this credential: at most ${limits.maxSubscriptionsPerCredential} at once (GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL)`,
        ),
      );
    }
    if (guard.rateLimits) {
      const address = guard.rateLimits.clientAddressOf(ctx.extra.request);
      const charge = await guard.rateLimits.budget.charge(address, key);
      if (charge.refused) {
        audit(guard.logger, 'rate_limit.exceeded', { ip: address, credential: key, path: 'graphql-ws subscribe', limit: charge.limit });
        return refusalError(tooManyRequests(charge));
      }
    }
    return null;
  }

  return {
    ...options,
    connectionInitWaitTimeout: limits.initTimeoutMs,
    onConnect: async (ctx: WsContext) => {
      if (!(await admit(ctx))) return false;
      return options.onConnect ? options.onConnect(ctx) : true;
    },
    onSubscribe: async (ctx: WsContext, id: string, payload: Parameters<NonNullable<WsOptions['onSubscribe']>>[2]) => {
      const refused = await refusal(ctx);
      if (refused) return [refused];
      return options.onSubscribe?.(ctx, id, payload);
    },
    onClose: async (ctx: WsContext, code?: number, reason?: string) => {
      release(ctx);
      await options.onClose?.(ctx, code, reason);
    },
  } as O;
}

/** WebSocket close reasons are at most 123 bytes. */
function closeReason(reason: string): string {
  return Buffer.byteLength(reason) <= 123
    ? reason
    : `${Buffer.from(reason)
        .subarray(0, 120)
        .toString()
        .replace(/\uFFFD$/, '')}...`;
}
