/**
 * GET /events through real HTTP: a lender's events are exactly what its webhooks delivered (same
 * ids and bodies), in order; paging from any cursor returns each event once, also when a delivery
 * is still being written by a transaction that began before others committed, and over 1,000
 * events; a second lender sees none of the first's; bad input is a 400 naming the field; an
 * integrator token is refused.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { bearer, leastPrivilegedLender, lenderCredentials, platformToken, signUpIntegrator } from '../../../test/support/identities.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from '../../../test/support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { expectJson } from '../../../test/support/rest-calls.js';

let app: TestApp;
let receiver: LenderReceiver;
let lenderA: LenderCredentials;
let lenderB: LenderCredentials;
let authA: Record<string, string>;
let authB: Record<string, string>;
const db = () => app.runtime.database.prisma;
const L = '/api/platform/v1/funding';

interface Event {
  id: string;
  type: string;
  applicationId: number;
  sequence: number;
  data: Record<string, any>;
}
interface EventPage {
  nodes: Event[];
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
}

const eventsPage = async (auth: Record<string, string>, query: string): Promise<EventPage> =>
  expectJson(await fetch(`${app.url}${L}/events?${query}`, { headers: auth }), 200);

/** Every event after `after`, page by page; answers them and the cursor to continue from. */
async function allEvents(auth: Record<string, string>, first: number, after: string | null = null): Promise<{ events: Event[]; cursor: string | null }> {
  const events: Event[] = [];
  let cursor = after;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await eventsPage(auth, `first=${first}${cursor ? `&after=${cursor}` : ''}`);
    expect(page.nodes.length).toBeLessThanOrEqual(first);
    events.push(...page.nodes);
    if (page.pageInfo.endCursor) cursor = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage) break;
  }
  return { events, cursor };
}

async function applicationOf(credentials: LenderCredentials): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo' } });
  const payload = { apiProvider: { url: `${app.url}${L}`, updateUrl: `${app.url}${L}` }, ...storedApplicationDocument({ lenderId: credentials.lenderId }) };
  return (await db().lenderApplication.create({ data: { lenderId: credentials.lenderId, profileId: profile.id, status: 'In Review', payload } })).id;
}

/** A delivery row as a worker would not send it (already delivered), written by whoever runs the SQL. */
const deliveredRow = (applicationId: number, lenderId: number) =>
  `INSERT INTO webhook_delivery (id, "lenderApplicationId", "lenderId", event, url, payload, status, "updatedAt")
   VALUES ('${randomUUID()}', ${applicationId}, ${lenderId}, 'APPLICATION_UPDATED', 'http://127.0.0.1:9/unused', '{"application":{"id":${applicationId}}}', 'DELIVERED', now())`;

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.3], WEBHOOK_TIMEOUT_MS: 2000 } });
  receiver = await startLenderReceiver();
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  await db().lender.update({ where: { id: first!.id }, data: { applicationUrl: receiver.url, updateUrl: null } });
  lenderA = await lenderCredentials(app, first!.id);
  lenderB = await lenderCredentials(app, second!.id);
  authA = await leastPrivilegedLender(app, lenderA);
  authB = await leastPrivilegedLender(app, lenderB);
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('GET /events', () => {
  it('returns exactly the events delivered by webhook, with the same ids and bodies, each once, oldest first', async () => {
    const applications = [await applicationOf(lenderA), await applicationOf(lenderA), await applicationOf(lenderA)];
    for (const id of applications) {
      await expectJson(await postJson(`${app.url}${L}/applications/${id}/acknowledgement`, { reference: `E-${id}` }, authA), 200);
      await expectJson(await postJson(`${app.url}${L}/applications/${id}/acknowledgement`, { comment: 'Answer within two days' }, authA), 200);
    }
    await eventually(
      () => db().webhookDelivery.count({ where: { lenderId: lenderA.lenderId, status: { not: 'DELIVERED' } } }),
      (n) => n === 0,
    );
    const written = await db().webhookDelivery.count({ where: { lenderId: lenderA.lenderId } });
    const { events } = await eventually(
      () => allEvents(authA, 2),
      ({ events }) => events.length === written,
    );
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const received = new Map(receiver.received.map((r) => [r.headers['webhook-id'] as string, r]));
    expect(new Set(events.map((e) => e.id))).toEqual(new Set(received.keys()));
    for (const event of events) {
      const webhook = received.get(event.id)!;
      expect(event.data).toEqual(JSON.parse(webhook.body));
      expect(event.type).toBe(webhook.headers['webhook-event-type']);
      expect(String(event.sequence)).toBe(webhook.headers['webhook-sequence']);
    }
    // An application's events in its order: the acknowledgement, then the comment.
    for (const id of applications) {
      expect(events.filter((e) => e.applicationId === id).map((e) => [e.sequence, e.data.application.reference, e.data.application.comment])).toEqual([
        [1, `E-${id}`, null],
        [2, `E-${id}`, 'Answer within two days'],
      ]);
    }
    const ofB = await allEvents(authB, 200);
    expect(ofB.events.filter((e) => received.has(e.id) || applications.includes(e.applicationId))).toEqual([]);
  });

  it('an event written by a transaction still open is listed after it commits, behind no cursor handed out meanwhile: each event once', async () => {
    const [early, late] = [await applicationOf(lenderB), await applicationOf(lenderB)];
    const { cursor: start } = await eventually(
      () => allEvents(authB, 200),
      () => true,
    );
    const client = new pg.Client({ connectionString: app.database.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(deliveredRow(early, lenderB.lenderId));
      // A later transaction commits while the first is still open.
      await db().$executeRawUnsafe(deliveredRow(late, lenderB.lenderId));
      const meanwhile = await allEvents(authB, 200, start);
      expect(meanwhile.events.map((e) => e.applicationId)).toEqual([]);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    const after = await eventually(
      () => allEvents(authB, 1, start),
      ({ events }) => events.length >= 2,
    );
    expect(after.events.map((e) => e.applicationId)).toEqual([early, late]);
    const again = await allEvents(authB, 200, after.cursor);
    expect(again.events).toEqual([]);
  });

  it('paging through 1,000 events, written by ten transactions, returns each exactly once in order', async () => {
    const applications = await Promise.all(Array.from({ length: 100 }, () => applicationOf(lenderB)));
    const { cursor: start } = await eventually(
      () => allEvents(authB, 200),
      () => true,
    );
    for (let round = 0; round < 10; round++) {
      await db().$transaction(async (tx) => {
        for (const id of applications) await tx.$executeRawUnsafe(deliveredRow(id, lenderB.lenderId));
      });
    }
    const { events } = await eventually(
      () => allEvents(authB, 137, start),
      ({ events }) => events.length >= 1000,
    );
    expect(events).toHaveLength(1000);
    expect(new Set(events.map((e) => e.id)).size).toBe(1000);
    // Each application's ten events in its sequence order.
    for (const id of applications) expect(events.filter((e) => e.applicationId === id).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('bad input is a 400 naming the field; an integrator token is a 401', async () => {
    for (const [query, field] of [
      ['after=not-a-cursor', 'after'],
      [`after=${Buffer.from('["1",2]').toString('base64url')}`, 'after'],
      ['first=0', 'first'],
      ['first=many', 'first'],
    ] as const) {
      const res = await fetch(`${app.url}${L}/events?${query}`, { headers: authA });
      expect(res.status, query).toBe(400);
      expect((await res.json()).errors, query).toEqual(expect.arrayContaining([expect.objectContaining({ pointer: expect.stringContaining(field) })]));
    }
    const integrator = await signUpIntegrator(app, `events-${randomUUID().slice(0, 6)}`);
    expect((await fetch(`${app.url}${L}/events`, { headers: bearer((await platformToken(app, integrator.apiKey)).access_token) })).status).toBe(401);
  });
});
