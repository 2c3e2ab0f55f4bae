import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, type GraphQLResponse } from '../../../test/support/graphql-client.js';
import { bearer, createTenant, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let me: Integrator;
beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
});
afterAll(() => app?.close());

interface Connection {
  tenantConnection: { nodes: Array<{ id: string }>; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
}
const CONNECTION = 'query($first: Int!, $after: ID) { tenantConnection(first: $first, after: $after) { nodes { id } pageInfo { endCursor hasNextPage } } }';

describe('GraphQL tenantConnection (keyset pages)', () => {
  it('walks every tenant once, in the order of tenants(offset, limit), which keeps working', async () => {
    for (let i = 0; i < 5; i++) await createTenant(app, me.platformToken, `connection-${i}`);
    const auth = bearer(me.platformToken);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: GraphQLResponse<Connection> = await graphql<Connection>(app.url, CONNECTION, { first: 2, after }, auth);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      const { nodes, pageInfo } = res.data!.tenantConnection;
      seen.push(...nodes.map((n) => n.id));
      expect(pageInfo.endCursor).toBe(nodes.at(-1)?.id ?? null);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    const all = await graphql<{ tenants: { items: Array<{ id: string }>; total: number } }>(
      app.url,
      'query { tenants(offset: 0, limit: 100) { items { id } total } }',
      {},
      auth,
    );
    expect(seen).toEqual(all.data!.tenants.items.map((t) => t.id));
    expect(all.data!.tenants.total).toBe(seen.length);
  });

  it("refuses a cursor of another account's tenant and a malformed one with BAD_REQUEST", async () => {
    const other = await signUpIntegrator(app);
    const foreign = await createTenant(app, other.platformToken, 'foreign');
    for (const after of [foreign.id, 'not-a-cursor']) {
      const res = await graphql<Connection>(app.url, CONNECTION, { first: 2, after }, bearer(me.platformToken));
      expect(res.data).toBeNull();
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    }
  });
});
