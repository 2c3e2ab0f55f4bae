/**
 * The delivery backlog readiness reports, on a real PostgreSQL: it counts the deliveries due and
 * not yet delivered (pending, or failed and due for their retry), not those due later, delivered or
 * dead, and gives the oldest one's time overdue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../infra/database.js';
import { readDeliveryBacklog } from './delivery-backlog.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolSize: 2, migrate: false });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe('the delivery backlog', () => {
  const now = new Date('2026-11-27T12:00:00.000Z');
  const secondsFromNow = (s: number) => new Date(now.getTime() + s * 1000);

  it('is empty without due deliveries', async () => {
    expect(await readDeliveryBacklog(db.prisma, now)).toEqual({ due: 0, oldestDueSeconds: 0 });
  });

  it('counts the due undelivered deliveries and the oldest one’s time overdue', async () => {
    const prisma = db.prisma;
    const lender = await prisma.lender.findFirstOrThrow({ where: { environment: 'demo' } });
    const profile = await prisma.profile.create({ data: { environment: 'demo' } });
    const application = await prisma.lenderApplication.create({
      data: { lenderId: lender.id, profileId: profile.id, status: 'In Review', payload: storedApplicationDocument({ lenderId: lender.id }) },
    });
    const delivery = (status: 'PENDING' | 'FAILED' | 'DELIVERED' | 'DEAD', nextAttemptAt: Date | null) => ({
      lenderApplicationId: application.id,
      lenderId: lender.id,
      event: 'APPLICATION_CREATED' as const,
      url: 'https://lender.invalid/hook',
      payload: {},
      status,
      nextAttemptAt,
    });
    await prisma.webhookDelivery.createMany({
      data: [
        delivery('PENDING', secondsFromNow(-90)),
        delivery('FAILED', secondsFromNow(-5)),
        delivery('PENDING', now),
        // Not counted: due later (a retry waiting), delivered, dead.
        delivery('FAILED', secondsFromNow(60)),
        delivery('DELIVERED', null),
        delivery('DEAD', null),
      ],
    });
    expect(await readDeliveryBacklog(prisma, now)).toEqual({ due: 3, oldestDueSeconds: 90 });
    expect(await readDeliveryBacklog(prisma, secondsFromNow(60))).toEqual({ due: 4, oldestDueSeconds: 150 });
  });
});
