/**
 * The product catalogue across processes (issue 27): a product saved through one process of the
 * distributed deployment (the matches subgraph, where staff save products) is matched by another
 * (a REST adapter holding its own in-memory catalogue) on the caller's very next search, not up to
 * a refresh later. The change event (`lenderCatalogueChanged` over the Redis-backed bus) makes the
 * other process start loading at once; what guarantees the next search is the catalogue's revision,
 * which the search reads with its profile and which its snapshot must hold (product-catalogue.ts).
 * Two real processes (`start:service -- matches` and `-- rest`) on one database and Redis.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { redisAnswers, testRedisUrl as redisUrl } from './support/redis-availability.js';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { API_KEY_SCOPES } from '../src/kernel/scopes.js';
import { GATEWAY_SECRET_HEADER } from '../src/api/http/gateway-only.js';
import { ACME_ANSWERS } from './support/answers.js';
import { graphql } from './support/graphql-client.js';
import { bearer, createApiKey, marketplaceV1Token, signIn } from './support/identities.js';
import { startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { testSigningKeys, type TestApp } from './support/test-app.js';

describe.skipIf(!(await redisAnswers(redisUrl)))('a catalogue change across processes', () => {
  let database: TestDatabase | undefined;
  const processes: RunningProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await database?.drop();
  });

  it('a product saved through the matches subgraph is matched by a REST adapter on its next search', async () => {
    database = await createTestDatabase();
    // Below Linux's ephemeral range (32768+), where an outgoing connection could take a port picked
    // early before its process listens (the migration runs first).
    const matchesPort = 12_000 + randomInt(160) * 50 + 20;
    const restPort = matchesPort + 1;
    const rest = `http://127.0.0.1:${restPort}`;
    const matches = `http://127.0.0.1:${matchesPort}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      HOST: '127.0.0.1',
      // One issuer for both: tokens signed by the REST adapter verify at the subgraph.
      PUBLIC_URL: rest,
      AUTH_SIGNING_KEYS: await testSigningKeys(),
      // The matches subgraph answers only who presents the deployment's subgraph secret (the
      // gateway's credential): staff save products through it here as the gateway would forward them.
      SUBGRAPH_SECRET: randomBytes(32).toString('base64url'),
      DEPLOY_ENV: 'demo',
      LOG_LEVEL: 'warn',
    };
    // The migration as a deployment runs it (the Kubernetes Job, compose's migrate service): it also
    // seeds the demo deployment's sign-in identities the test signs in with.
    const migrate = startEntry('src/processes/cli/migrate.ts', [], env);
    processes.push(migrate);
    const migrated = await new Promise<number | null>((resolve) => migrate.child.once('exit', resolve));
    expect(migrated, migrate.output()).toBe(0);
    const matchesProcess = startEntry('src/processes/service.ts', ['matches'], { ...env, PORT: String(matchesPort) });
    const restProcess = startEntry('src/processes/service.ts', ['rest'], { ...env, PORT: String(restPort) });
    processes.push(matchesProcess, restProcess);
    await Promise.all([waitForHealth(matches, matchesProcess, 150_000), waitForHealth(rest, restProcess, 150_000)]);

    // An integrator's profile (ACME's answers), and its search through the REST adapter: the
    // adapter's catalogue is loaded and in hand.
    const app = { url: rest } as TestApp;
    const integratorLogin = await signIn(app, DEMO_CREDENTIALS.integrator.email, DEMO_CREDENTIALS.integrator.password);
    const key = await createApiKey(app, integratorLogin, { name: `catalogue-${randomUUID()}`, scopes: [...API_KEY_SCOPES] });
    const auth = bearer((await marketplaceV1Token(app, key.key)).jwt);
    const blank = await fetch(`${rest}/api/marketplace/v1/profiles/blank`, { method: 'POST', headers: auth });
    expect(blank.status).toBe(200);
    const { uuid } = (await blank.json()) as { uuid: string };
    const answered = await fetch(`${rest}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    expect(answered.status).toBe(204);
    const search = async () => {
      const res = await fetch(`${rest}/api/marketplace/v1/profiles/${uuid}/funding/matches/results`, { headers: auth });
      const body = (await res.json()) as { id: number; matches: Array<{ productId: number; lender: { name: string } }> };
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body;
    };
    const before = await search();
    expect(before.matches.length).toBeGreaterThan(0);

    // Staff create a lender and save its product through the other process.
    const staff = { ...bearer(await signIn(app, DEMO_CREDENTIALS.staff.email, DEMO_CREDENTIALS.staff.password)), [GATEWAY_SECRET_HEADER]: env.SUBGRAPH_SECRET };
    const lenderName = `Replica Lender ${randomUUID().slice(0, 8)}`;
    const created = await graphql<{ createLender: { id: number } }>(
      matches,
      'mutation($input: LenderInput!) { createLender(input: $input) { id } }',
      { input: { name: lenderName } },
      staff,
    );
    expect(created.errors).toBeUndefined();
    const lenderId = created.data!.createLender.id;
    // Another search meanwhile: the lender has no product yet, so nothing of it matches.
    expect((await search()).matches.some((m) => m.lender.name === lenderName)).toBe(false);

    const saved = await graphql<{ saveLenderProduct: { id: number; products: Array<{ id: number; name: string }> } }>(
      matches,
      'mutation($lenderId: Int!, $input: LenderProductInput!) { saveLenderProduct(lenderId: $lenderId, input: $input) { id products { id name } } }',
      {
        lenderId,
        input: {
          productType: 'TERM_LOAN',
          name: 'Replica term loan',
          minAmount: 1,
          maxAmount: 10_000_000,
          minTermMonths: 0,
          maxTermMonths: 120,
          annualRateMin: 5,
          annualRateMax: 9,
        },
      },
      staff,
    );
    expect(saved.errors).toBeUndefined();
    const product = saved.data!.saveLenderProduct.products.find((p) => p.name === 'Replica term loan')!;
    expect(product).toBeDefined();

    // The very next search through the REST adapter matches it: it reads the catalogue's revision
    // with the profile, finds its snapshot older, and waits for a load (whether or not the change
    // event has arrived yet).
    const after = await search();
    expect(after.matches.map((m) => m.productId)).toContain(product.id);
    expect(before.matches.map((m) => m.productId)).not.toContain(product.id);
    expect(after.id).not.toBe(before.id);
  });
});
