/**
 * The company-stream follower against a fake Companies House streaming API on a local port: events
 * applied with their timepoint, a dropped connection resumed from the last timepoint applied, a
 * restart resumed from the stored one (an event already applied is not applied twice), a deleted
 * company marked and kept, and one follower at a time (the lease).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../infra/database.js';
import { createLogger } from '../../infra/logger.js';
import { followCompaniesStream, type CompaniesStream } from './companies-house/companies-stream.js';
import { startFakeCompaniesHouse, type FakeCompaniesHouse, type FakeProfile } from '../../../test/support/fake-companies-house.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { freePort, startEntry, waitForHealth } from '../../../test/support/processes.js';

let fake: FakeCompaniesHouse;
let testDb: TestDatabase;
let database: Database;
const followers: CompaniesStream[] = [];
beforeAll(async () => {
  fake = await startFakeCompaniesHouse('fake-stream-key');
  testDb = await createTestDatabase();
  database = await openDatabase({ databaseUrl: testDb.url, dataDir: 'unused', poolSize: 6, migrate: false });
});
afterAll(async () => {
  for (const follower of followers) await follower.stop();
  await database?.close();
  await testDb?.drop();
  await fake?.close();
});

const follow = () => {
  const follower = followCompaniesStream({
    db: database.prisma,
    baseUrl: fake.url,
    streamKey: fake.apiKey,
    logger: createLogger('silent'),
    retryMs: 100,
    leaseRetryMs: 100,
  });
  followers.push(follower);
  return follower;
};
async function eventually<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const company = (number: string) =>
  database.prisma.company.findFirst({
    where: { registrationNumber: number },
    select: { name: true, status: true, registerSource: true, registerRemovedAt: true, address: true },
  });
const profile = (number: string, name: string): FakeProfile => ({
  company_name: name,
  company_number: number,
  company_status: 'active',
  type: 'ltd',
  date_of_creation: '2019-04-02',
  sic_codes: ['62012'],
  registered_office_address: { address_line_1: '1 Mill Lane', locality: 'Kendal', postal_code: 'LA9 4AB' },
});

describe('the companies stream', () => {
  it('applies events, resumes after a dropped connection and after a restart from the last timepoint, and marks a deleted company without deleting it', async () => {
    // Without a stored timepoint the stream is followed from its present: events before are not sent.
    fake.publish(profile('31000009', 'BEFORE OUR TIME LTD'));
    const first = follow();
    await eventually(
      () => first.status(),
      (s) => s.connected,
      'connected',
    );
    fake.publish(profile('31000001', 'WHINFELL STREAM WORKS LTD'));
    fake.publish(profile('31000002', 'SPRINT RIVER SUPPLIES LTD'), 'changed', new Date(Date.now() - 3_600_000));
    await eventually(
      () => first.status(),
      (s) => s.timepoint === 3,
      'the two events applied',
    );
    expect(await company('31000001')).toMatchObject({
      name: 'WHINFELL STREAM WORKS LTD',
      status: 'ACTIVE',
      registerSource: 'companies-house-stream',
      address: { postalCode: 'LA9 4AB' },
    });
    expect(first.status()).toMatchObject({ lease: 'held', connected: true, applied: 2 });
    expect(await company('31000009')).toBeNull();
    // A heartbeat says nothing is pending: no lag, though the last event was published an hour ago.
    await eventually(
      () => first.status().lagSeconds,
      (lag) => lag === 0,
      'lag once caught up',
    );

    fake.dropStreams();
    fake.publish(profile('31000001', 'WHINFELL STREAM WORKS (NORTH) LTD'));
    await eventually(
      () => company('31000001'),
      (c) => c?.name === 'WHINFELL STREAM WORKS (NORTH) LTD',
      'the change after the drop',
    );
    expect(fake.requests.map((r) => r.path)).toContain('/companies?timepoint=3');

    await first.stop();
    fake.publish(profile('31000003', 'KENT MOUTH TRADERS LTD'));
    fake.publish(profile('31000002', 'SPRINT RIVER SUPPLIES LTD'), 'deleted');
    const restarted = follow();
    await eventually(
      () => restarted.status(),
      (s) => s.timepoint === 6,
      'the events published while stopped',
    );
    expect(fake.requests.map((r) => r.path)).toContain('/companies?timepoint=4');
    // Timepoint 4 came again on resuming (a given timepoint is included) and was not applied twice.
    expect(restarted.status().applied).toBe(2);
    expect(await company('31000003')).toMatchObject({ name: 'KENT MOUTH TRADERS LTD' });
    expect(await company('31000002')).toMatchObject({ status: 'DISSOLVED', registerRemovedAt: expect.any(Date) });
    const stored = await database.prisma.companyStreamPosition.findUniqueOrThrow({ where: { stream: 'companies' } });
    expect(Number(stored.timepoint)).toBe(6);
    await restarted.stop();
  });

  it('follows with one process at a time: a second waits for the lease and takes over when the first stops', async () => {
    const one = follow();
    await eventually(
      () => one.status().lease,
      (lease) => lease === 'held',
      'the first takes the lease',
    );
    const two = follow();
    await new Promise((r) => setTimeout(r, 500));
    expect(two.status()).toMatchObject({ lease: 'waiting', connected: false });
    expect(fake.openStreams()).toBe(1);
    await one.stop();
    await eventually(
      () => two.status(),
      (s) => s.lease === 'held' && s.connected,
      'the second takes over',
    );
    fake.publish(profile('31000004', 'LUNE VALLEY JOINERY LTD'));
    await eventually(
      () => company('31000004'),
      (c) => c !== null,
      'the event after the take-over',
    );
    await two.stop();
  });

  it('runs as `npm run company-stream`: its readiness names the stream state and /metrics its lag', async () => {
    const port = await freePort();
    const proc = startEntry('src/processes/company-stream.ts', [], {
      DATABASE_URL: testDb.url,
      DEPLOY_ENV: 'demo',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      COMPANIES_HOUSE_STREAM_KEY: fake.apiKey,
      COMPANIES_HOUSE_STREAM_URL: fake.url,
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHealth(base, proc);
      const ready = await eventually(
        async () => (await fetch(`${base}/health/ready`)).json() as Promise<{ checks?: { companyStream?: string } }>,
        (r) => /^following/.test(r.checks?.companyStream ?? ''),
        'readiness',
      );
      expect(ready.checks!.companyStream).toMatch(/^following from timepoint \d+, lag \d+ s$/);
      fake.publish(profile('31000005', 'ARNSIDE KNOTT LTD'));
      await eventually(
        () => company('31000005'),
        (c) => c !== null,
        'the event applied by the process',
      );
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/^company_stream_lag_seconds(\{[^}]*\})? \d+$/m);
    } finally {
      await proc.stop();
    }
  }, 180_000);
});
