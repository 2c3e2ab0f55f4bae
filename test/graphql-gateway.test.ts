import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, settle, subscribe } from './support/graphql-client.js';
import { bearer, signUpIntegrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  auth = bearer((await signUpIntegrator(app)).platformToken);
});
afterAll(() => app?.close());

describe('GraphQL through the gateway (subgraphs in-process)', () => {
  it('creates a tenant and reads it back with tenant(id) and tenants', async () => {
    const created = await graphql(
      app.url,
      'mutation($r: String) { createTenant(input: { referenceId: $r }) { id referenceId createdDateTime } }',
      { r: 'gql-ref-1' },
      auth,
    );
    expect(created.errors).toBeUndefined();
    const id = created.data!.createTenant.id;
    expect(created.data!.createTenant.referenceId).toBe('gql-ref-1');

    const read = await graphql(app.url, 'query($id: ID!) { tenant(id: $id) { id referenceId } }', { id }, auth);
    expect(read.data).toEqual({ tenant: { id, referenceId: 'gql-ref-1' } });

    const list = await graphql(app.url, '{ tenants(limit: 100) { total items { id } } }', {}, auth);
    expect(list.data!.tenants.items.map((t: { id: string }) => t.id)).toContain(id);
  });

  it('resolves a federated query from a tenant (tenants subgraph) to its profile (profiles subgraph)', async () => {
    const tenant = await (await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'fed-1' }, auth)).json();
    const before = await graphql(app.url, 'query($id: ID!) { tenant(id: $id) { id profile { uuid } } }', { id: tenant.id }, auth);
    expect(before).toEqual({ data: { tenant: { id: tenant.id, profile: null } } });

    const profile = await app.runtime.database.prisma.profile.create({
      data: {
        tenantId: tenant.id,
        countryCode: 'GB',
        registrationNumber: '09876543',
        companyInformation: { name: 'ACME WIDGETS LIMITED', registrationNumber: '09876543' },
        environment: 'demo',
      },
    });
    const after = await graphql(
      app.url,
      'query($id: ID!) { tenant(id: $id) { referenceId profile { uuid companyName registrationNumber applications { id } } } }',
      { id: tenant.id },
      auth,
    );
    expect(after.errors).toBeUndefined();
    expect(after.data).toEqual({
      tenant: {
        referenceId: 'fed-1',
        profile: { uuid: profile.id, companyName: 'ACME WIDGETS LIMITED', registrationNumber: '09876543', applications: [] },
      },
    });
  });

  it('reads the seeded lender catalogue from the matches subgraph', async () => {
    const res = await graphql(app.url, '{ lenders { id name priceBand products { productType } } }', {}, auth);
    expect(res.errors).toBeUndefined();
    const lenders = res.data!.lenders as Array<{ products: Array<{ productType: string }> }>;
    expect(lenders.length).toBeGreaterThanOrEqual(20);
    const types = new Set(lenders.flatMap((l) => l.products.map((p) => p.productType)));
    expect([...types].sort()).toEqual([
      'ASSET_BACKED_FINANCE',
      'COMMERCIAL_PROPERTY',
      'E_COMMERCE_FUNDING',
      'FIXED_LOAN_TERMS',
      'INVOICE_FINANCE',
      'MERCHANT_CASH_ADVANCE',
      'TERM_LOAN',
      'TRADE_FINANCE',
    ]);
  });

  it('names each lender by the slug /metrics labels its deliveries with and the logs name it by', async () => {
    const res = await graphql(app.url, '{ lenders { id slug } }', {}, auth);
    expect(res.errors).toBeUndefined();
    const listed = res.data!.lenders as Array<{ id: number; slug: string }>;
    const stored = await app.runtime.database.prisma.lender.findMany({ where: { id: { in: listed.map((l) => l.id) } }, select: { id: true, slug: true } });
    expect(listed.map(({ id, slug }) => ({ id, slug })).sort((a, b) => a.id - b.id)).toEqual(stored.sort((a, b) => a.id - b.id));
    const one = await graphql(app.url, 'query($id: Int!) { lender(id: $id) { slug } }', { id: listed[0]!.id }, auth);
    expect(one.data).toEqual({ lender: { slug: listed[0]!.slug } });
  });

  it('maps domain errors to extensions.code with the HTTP status and fields', async () => {
    const missing = await graphql(app.url, '{ tenant(id: "00000000-0000-4000-8000-000000000000") { id } }', {}, auth);
    expect(missing.errors?.[0]).toMatchObject({ message: 'Tenant was not found', extensions: { code: 'NOT_FOUND', status: 404 } });
    const malformed = await graphql(app.url, '{ tenant(id: "not-a-uuid") { id } }', {}, auth);
    expect(malformed.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400, fields: [{ pointer: '', message: 'must be a uuid' }] });
    await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'gql-dup' }, auth);
    const dup = await graphql(app.url, 'mutation { createTenant(input: { referenceId: "gql-dup" }) { id } }', {}, auth);
    expect(dup.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
  });
});

describe('subscriptions through the gateway over graphql-ws', () => {
  it('delivers tenantCreated for a tenant created through REST', async () => {
    const sub = await subscribe(app.url, 'subscription { tenantCreated { id referenceId } }', {}, auth);
    try {
      await settle();
      const created = await (await postJson(`${app.url}/api/marketplace/v2/tenants`, { referenceId: 'sub-1' }, auth)).json();
      const event = await sub.next();
      expect(event).toEqual({ data: { tenantCreated: { id: created.id, referenceId: 'sub-1' } } });
    } finally {
      await sub.close();
    }
  });
});
