/**
 * Deployments sharing one Redis (issue 27): every key and pub/sub channel starts with the
 * deployment's REDIS_KEY_PREFIX (src/infra/redis.ts). Three processes' runtimes on one database and
 * one Redis, A1 and A2 of one deployment (one prefix) and B of another:
 *  - an event published in A1 is heard in A2, never in B, and B's never in A;
 *  - a rate limit and the sign-in throttle count A1's and A2's requests together, B's apart;
 *  - a credential change announced by A1 drops A2's cached answer, not B's;
 *  - the keys and channels on the wire carry the prefix, and no connection logged an error.
 * Each run's prefixes are its own, so parallel test files (and other runs) never meet in Redis.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestBudget } from '../src/api/http/rate-limits.js';
import { createLogger } from '../src/infra/logger.js';
import type { Actor } from '../src/kernel/actor.js';
import { loadConfig } from '../src/kernel/config.js';
import { AppError } from '../src/kernel/errors.js';
import { CREDENTIAL_CHANGES_CHANNEL } from '../src/modules/identity/credential-status.js';
import { startRuntime, type Runtime } from '../src/processes/runtime.js';
import { capturedLogLines } from './support/log-lines.js';
import { redisAnswers, testRedisUrl as redisUrl } from './support/redis-availability.js';
import { testSigningKeys } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const run = randomUUID().slice(0, 8);
const PREFIX_A = `fg-test:${run}:a:`;
const PREFIX_B = `fg-test:${run}:b:`;

describe.skipIf(!(await redisAnswers(redisUrl)))('two deployments on one Redis (REDIS_KEY_PREFIX)', () => {
  let database: TestDatabase | undefined;
  const runtimes: Runtime[] = [];
  let a1!: Runtime;
  let a2!: Runtime;
  let b!: Runtime;
  // Only to look at the wire: no prefix of its own.
  const raw = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  const logs = capturedLogLines();

  beforeAll(async () => {
    database = await createTestDatabase();
    const start = async (prefix: string) => {
      const config = loadConfig(
        {},
        {
          DATABASE_URL: database!.url,
          DB_POOL_SIZE: 2,
          REDIS_URL: redisUrl,
          REDIS_KEY_PREFIX: prefix,
          AUTH_SIGNING_KEYS: await testSigningKeys(),
          SEED_DEMO_DATA: false,
        },
      );
      const runtime = await startRuntime(config, { prepareDatabase: false, logger: createLogger('warn', `namespace ${prefix}`, logs.stream) });
      runtimes.push(runtime);
      return runtime;
    };
    [a1, a2, b] = await Promise.all([start(PREFIX_A), start(PREFIX_A), start(PREFIX_B)]);
    await raw.connect();
  });
  afterAll(async () => {
    await Promise.all(runtimes.map((r) => r.close()));
    raw.disconnect();
    await database?.drop();
  });

  it('an event is heard by the processes of its own deployment only', async () => {
    const topic = `namespace-test-${randomUUID()}`;
    const [inA1, inA2, inB] = [a1, a2, b].map((r) => r.events.bus.subscribe('lenderCatalogueChanged', topic)[Symbol.asyncIterator]());
    const firsts = [inA1!.next(), inA2!.next(), inB!.next()];
    // Subscribed as Redis sees it: A's two processes on A's channel, B's one on B's; none unprefixed.
    const [channelA, channelB] = [`${PREFIX_A}lenderCatalogueChanged:${topic}`, `${PREFIX_B}lenderCatalogueChanged:${topic}`];
    await vi.waitFor(
      async () =>
        expect(await raw.pubsub('NUMSUB', channelA, channelB, `lenderCatalogueChanged:${topic}`)).toEqual([
          channelA,
          2,
          channelB,
          1,
          `lenderCatalogueChanged:${topic}`,
          0,
        ]),
      { timeout: 10_000 },
    );

    // Redis has put a message on every subscriber's connection when it answers the PUBLISH, so
    // what one connection receives comes in publishing order: B's first event is B's own only if
    // A's, published before it, never reached B; and A2's second is A's second, not B's.
    const publish = async (from: Runtime, marker: string) => {
      from.events.bus.publish('lenderCatalogueChanged', topic, { environment: marker });
      await from.events.bus.published!();
    };
    await publish(a1, 'from A, first');
    await publish(b, 'from B');
    await publish(a1, 'from A, second');
    const heard = async (next: Promise<IteratorResult<{ environment: string }>>) => (await next).value?.environment;
    expect(await Promise.all(firsts.map(heard))).toEqual(['from A, first', 'from A, first', 'from B']);
    expect(await heard(inA2!.next())).toBe('from A, second');
    expect(await heard(inA1!.next())).toBe('from A, second');
    await Promise.all([inA1, inA2, inB].map((it) => it!.return?.()));
  });

  it('rate limits and sign-in throttles count per deployment, across its processes', async () => {
    const address = `198.51.100.${randomInt(1, 255)}`;
    const [budgetA1, budgetA2, budgetB] = [a1, a2, b].map((r) => requestBudget({ perAddress: 3, perCredential: 1000 }, r.sharedCounters));
    const refusals = async (budget: typeof budgetA1, times: number) => {
      const outcomes: boolean[] = [];
      for (let i = 0; i < times; i++) outcomes.push((await budget!.charge(address, null)).refused);
      return outcomes;
    };
    // Three a minute for the address: two through A1, one through A2, and the fourth (either) is refused.
    expect([...(await refusals(budgetA1, 2)), ...(await refusals(budgetA2, 1)), ...(await refusals(budgetA2, 1)), ...(await refusals(budgetA1, 1))]).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
    // B counts its own three.
    expect(await refusals(budgetB, 4)).toEqual([false, false, false, true]);
    // On the wire: A's counter and B's, prefixed; none without a prefix.
    expect(await raw.exists(`${PREFIX_A}rl:address:${address}`, `${PREFIX_B}rl:address:${address}`, `rl:address:${address}`)).toBe(2);

    // Sign-in: five attempts for one email from one address, then 429, whichever of A's processes.
    const email = `nobody-${randomUUID()}@example.test`;
    const attempt = (r: Runtime) =>
      r.auth.loginThrottle.beginAttempt(email, address).then(
        () => 'counted',
        (err: unknown) => (err instanceof AppError ? err.code : String(err)),
      );
    const inA: string[] = [];
    for (let i = 0; i < 6; i++) inA.push(await attempt(i % 2 === 0 ? a1 : a2));
    expect(inA).toEqual(['counted', 'counted', 'counted', 'counted', 'counted', 'TOO_MANY_REQUESTS']);
    expect(await attempt(b)).toBe('counted');
  });

  it("a credential change announced in one process reaches its deployment's other processes only", async () => {
    const channels = [`${PREFIX_A}${CREDENTIAL_CHANGES_CHANNEL}`, `${PREFIX_B}${CREDENTIAL_CHANGES_CHANNEL}`];
    await vi.waitFor(async () => expect(await raw.pubsub('NUMSUB', ...channels)).toEqual([channels[0], 2, channels[1], 1]), { timeout: 10_000 });
    const prisma = a1.database.prisma;
    const clientId = `namespace-test-${randomUUID()}`;
    const lender = await prisma.lender.create({
      data: { name: 'Namespace Lender', slug: `namespace-lender-${randomUUID().slice(0, 8)}`, applicationUrl: 'https://lender.example/applications', clientId },
    });
    const actor: Actor = { kind: 'lender', lenderId: lender.id, clientId, scopes: [] };
    // A2 and B hold the answer "active" for 30 s.
    await a2.auth.credentialStatus.assertActive(actor);
    await b.auth.credentialStatus.assertActive(actor);
    // Deactivated behind their backs, then announced by A1 (as the admin CLI's change would be).
    await prisma.lender.update({ where: { id: lender.id }, data: { active: false } });
    a1.auth.credentialStatus.forget(`lender-client:${clientId}`);
    await vi.waitFor(() => expect(a2.auth.credentialStatus.assertActive(actor)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' }), { timeout: 10_000 });
    // B, on another channel, was not told: its cached answer stands until its own expiry.
    await expect(b.auth.credentialStatus.assertActive(actor)).resolves.toBeUndefined();
  });

  it('no Redis connection reported an error', () => {
    expect(logs.lines.filter((l) => typeof l.redis === 'string')).toEqual([]);
  });
});
