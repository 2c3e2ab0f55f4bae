/**
 * Login throttling without an attacker-triggered lockout (per email and address, slow-down per
 * email, client addresses through trusted proxies only), request rate limits per address and per
 * credential with RateLimit headers, and the audit log's events (never a secret in them).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { createLoginThrottle, slowDownMs } from '../src/modules/identity/login-throttle.js';
import { trustProxySetting } from '../src/api/http/http-security.js';
import { rateLimiter } from '../src/api/http/rate-limits.js';
import { Redis } from 'ioredis';
import { bearer, createApiKey, signUpIntegrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

const auditLines: Array<Record<string, unknown>> = [];
const rawLog: string[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      rawLog.push(line);
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.audit) auditLines.push(entry);
    }
    done();
  },
});

let app: TestApp;
const login = (email: string, password: string, from: string) =>
  postJson(`${app.url}/api/platform/v1/auth/login`, { email, password }, { 'x-forwarded-for': from });

beforeAll(async () => {
  app = await startTestApp({
    config: { TRUST_PROXY: 'loopback', RATE_LIMIT_PER_ADDRESS: 30, RATE_LIMIT_PER_CREDENTIAL: 20 },
    logger: pino({ level: 'info' }, capture),
  });
});
afterAll(() => app?.close());

describe('platform login', () => {
  it("an attacker's failures refuse the attacker's address, not the real user's", async () => {
    const password = 'the-right-password-42';
    await createAccountWithUser(app.runtime.database.prisma, { environment: 'demo', accountName: 'victim', email: 'victim@example.test', password });
    for (let i = 0; i < 5; i++) expect((await login('victim@example.test', `guess-${i}`, '203.0.113.7')).status).toBe(401);
    const refused = await login('victim@example.test', password, '203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('victim@example.test', password, '198.51.100.2')).status).toBe(200);
  });

  it('slows every further attempt on an email down past 5 failures, doubling up to 5 s, and never refuses it', async () => {
    expect([5, 6, 7, 8, 12].map(slowDownMs)).toEqual([0, 250, 500, 1000, 5000]);
    const waits: number[] = [];
    const throttle = createLoginThrottle(undefined, async (ms) => void waits.push(ms));
    // Seven failed attempts, each from its own address (no pair or address budget is spent)…
    for (let i = 0; i < 7; i++) await throttle.beginAttempt('someone@example.test', `192.0.2.${i}`);
    // …so the eighth, from yet another address, is slowed by 500 ms and not refused.
    await throttle.beginAttempt('someone@example.test', '198.51.100.9');
    expect(waits).toEqual([250, 500]);
  });

  it('reads TRUST_PROXY as Express takes it', () => {
    expect(trustProxySetting('false')).toBe(false);
    expect(trustProxySetting('1')).toBe(1);
    expect(trustProxySetting('loopback, 10.0.0.0/8')).toEqual(['loopback', '10.0.0.0/8']);
  });
});

describe('request rate limits', () => {
  it('per address: RateLimit headers on every answer, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let first: Response | undefined;
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await fetch(`${app.url}/api/marketplace/v1/companies/search/acme`, { headers: { 'x-forwarded-for': '192.0.2.99' } });
      first ??= last;
      statuses.push(last.status);
    }
    expect(first!.headers.get('ratelimit-policy')).toBe('30;w=60');
    expect(first!.headers.get('ratelimit')).toMatch(/^limit=30, remaining=29, reset=\d+$/);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await fetch(`${app.url}/api/marketplace/v1/companies/search/acme`, { headers: { 'x-forwarded-for': '192.0.2.100' } })).status).toBe(401);
  });

  it('per credential, whatever the address: the token of one API key is refused after its budget', async () => {
    const integrator = await signUpIntegrator(app);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: { ...bearer(integrator.platformToken), 'x-forwarded-for': `198.18.0.${i}` } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses[20]).toBe(429);
  });
});

describe('shared counters', () => {
  it('counts in Redis across limiter instances (processes) when the deployment has Redis', async () => {
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) throw new Error('REDIS_URL is required for this test');
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      // Connected first: a limiter counts in memory, without trying Redis, while its connection is not ready.
      await redis.ping();
      const name = `test-${process.pid}-${Date.now()}`;
      const [first, second] = [rateLimiter(name, 3, 60, redis), rateLimiter(name, 3, 60, redis)];
      await first.consume('192.0.2.1');
      await second.consume('192.0.2.1');
      await first.consume('192.0.2.1');
      await expect(second.consume('192.0.2.1')).rejects.toMatchObject({ remainingPoints: 0 });
    } finally {
      redis.disconnect();
    }
  });
});

describe('audit log', () => {
  it('records sign-ins, failures, throttling, key creation and revocation, denials; never a secret', async () => {
    const integrator = await signUpIntegrator(app);
    const key = await createApiKey(app, integrator.loginToken, { name: 'short-lived', scopes: ['profile:read'] });
    expect((await fetch(`${app.url}/api/platform/v1/api-key/${key.id}`, { method: 'DELETE', headers: bearer(integrator.loginToken) })).status).toBeLessThan(
      300,
    );
    // A platform token cannot manage users: a 403 denial.
    expect((await fetch(`${app.url}/api/platform/v1/users`, { headers: bearer(integrator.platformToken) })).status).toBe(403);
    const events = new Set(auditLines.map((l) => l.audit));
    for (const event of ['login.failed', 'login.throttled', 'login.succeeded', 'api_key.created', 'api_key.revoked', 'access.denied', 'rate_limit.exceeded']) {
      expect(events, event).toContain(event);
    }
    expect(auditLines.find((l) => l.audit === 'api_key.revoked')).toMatchObject({ apiKeyId: key.id, accountId: integrator.accountId });
    const everything = rawLog.join('\n');
    for (const secret of [integrator.password, integrator.apiKey, key.key, integrator.platformToken, integrator.loginToken, 'the-right-password-42']) {
      expect(everything).not.toContain(secret);
    }
  });
});
