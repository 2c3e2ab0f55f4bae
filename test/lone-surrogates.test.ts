/**
 * Text that is not Unicode (a lone UTF-16 surrogate, as the JSON escape "\ud800" makes) is refused
 * with a 400 naming the field, on REST and GraphQL, before anything is stored: the one inspection
 * of every REST body, query and path (src/kernel/json-inspection.ts, rest-router.ts) and of every
 * GraphQL request's variables, with GraphQL's own parser refusing one in the query text. Before,
 * Prisma failed on it (a 500) for the fields named in issue 40, each tested here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/api/rest/route-table.js';
import { graphql } from './support/graphql-client.js';
import { bearer, createTenant, marketplaceV1Token, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { toJsonPointer } from '../src/kernel/validation.js';

const LONE = 'Acme \ud800 Ltd';
let app: TestApp;
let me: Integrator;
let v1: Record<string, string>;
let tenantAuth: Record<string, string>;
let tenantId: string;
let profileUuid: string;
const db = () => app.runtime.database.prisma;

const exampleBody = (operationId: string) =>
  structuredClone(ROUTES.find((route) => route.operationId === operationId)!.example!.body) as Record<string, unknown>;

/** The example with its first text value (depth first) made to hold a lone surrogate, and that value's pointer. */
function withLoneSurrogate(body: Record<string, unknown>): { body: Record<string, unknown>; pointer: string } {
  const visit = (value: Record<string, unknown> | unknown[], path: Array<string | number>): string | null => {
    for (const [key, child] of Object.entries(value)) {
      const at = [...path, Array.isArray(value) ? Number(key) : key];
      if (typeof child === 'string') {
        (value as Record<string, unknown>)[key] = LONE;
        return toJsonPointer(at);
      }
      if (typeof child === 'object' && child !== null) {
        const found = visit(child as Record<string, unknown>, at);
        if (found) return found;
      }
    }
    return null;
  };
  const pointer = visit(body, []);
  if (!pointer) throw new Error('the example has no text value');
  return { body, pointer };
}

const send = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${app.url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function expectRefused(res: Response, pointer: string): Promise<void> {
  const problem = await res.json();
  expect(res.status, JSON.stringify(problem)).toBe(400);
  expect(problem.errors).toContainEqual({ pointer, message: expect.stringContaining('lone UTF-16 surrogate') });
}

function expectGraphqlRefused(res: Awaited<ReturnType<typeof graphql>>, pointer: string): void {
  expect(res.errors?.[0]?.extensions, JSON.stringify(res)).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  expect(res.errors?.[0]?.extensions?.fields).toContainEqual({ pointer, message: expect.stringContaining('lone UTF-16 surrogate') });
}

beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
  v1 = bearer((await marketplaceV1Token(app, me.apiKey)).jwt);
  tenantId = (await createTenant(app, me.platformToken, 'surrogates')).id;
  tenantAuth = bearer((await platformToken(app, me.apiKey, tenantId)).access_token);
  expect((await send('POST', '/api/marketplace/v2/profile', exampleBody('MarketplaceProfileController_setUp'), tenantAuth)).status).toBe(201);
  profileUuid = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json()).uuid;
});
afterAll(() => app?.close());

describe('REST', () => {
  it('tenant referenceId: create and update refused, nothing stored', async () => {
    const before = await db().tenant.count({ where: { accountId: me.accountId } });
    await expectRefused(await send('POST', '/api/business/v1/tenants', { referenceId: LONE }, bearer(me.platformToken)), '/referenceId');
    await expectRefused(await send('PATCH', `/api/platform/v1/tenants/${tenantId}`, { referenceId: LONE }, bearer(me.platformToken)), '/referenceId');
    expect(await db().tenant.count({ where: { accountId: me.accountId } })).toBe(before);
    expect((await db().tenant.findUniqueOrThrow({ where: { id: tenantId } })).referenceId).toBe('surrogates');
  });

  it.each([
    ['ProfileController_patchCompany', 'company'],
    ['ProfileController_patchFinancials', 'financials'],
  ])('Marketplace V1 profile %s: refused, the profile unchanged', async (operationId, part) => {
    const before = await db().profile.findUniqueOrThrow({ where: { id: profileUuid } });
    const { body, pointer } = withLoneSurrogate(exampleBody(operationId));
    await expectRefused(await send('PATCH', `/api/marketplace/v1/profiles/${profileUuid}/${part}`, body, v1), pointer);
    expect(await db().profile.findUniqueOrThrow({ where: { id: profileUuid } })).toEqual(before);
  });

  it('Marketplace V2 profile update: refused', async () => {
    const { body, pointer } = withLoneSurrogate(exampleBody('MarketplaceProfileController_update'));
    await expectRefused(await send('PATCH', '/api/marketplace/v2/profile', body, tenantAuth), pointer);
  });

  it('questionnaire answers (validated by their JSON Schema): refused', async () => {
    const res = await send(
      'PATCH',
      `/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${profileUuid}/answers`,
      { companyName: LONE },
      v1,
    );
    await expectRefused(res, '/companyName');
  });
});

describe('GraphQL', () => {
  it('createTenant and updateTenant: refused naming the field of the variable, nothing stored', async () => {
    const before = await db().tenant.count({ where: { accountId: me.accountId } });
    const created = await graphql(
      app.url,
      'mutation($i: CreateTenantInput) { createTenant(input: $i) { id } }',
      { i: { referenceId: LONE } },
      bearer(me.platformToken),
    );
    expectGraphqlRefused(created, '/variables/i/referenceId');
    const updated = await graphql(
      app.url,
      'mutation($id: ID!, $i: UpdateTenantInput!) { updateTenant(id: $id, input: $i) { id } }',
      { id: tenantId, i: { referenceId: LONE } },
      bearer(me.platformToken),
    );
    expectGraphqlRefused(updated, '/variables/i/referenceId');
    // In the query text rather than a variable, GraphQL's own parser refuses it.
    const literal = await graphql(app.url, `mutation { createTenant(input: { referenceId: "x\\ud800" }) { id } }`, {}, bearer(me.platformToken));
    expect(literal.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(await db().tenant.count({ where: { accountId: me.accountId } })).toBe(before);
  });

  it('patchProfileCompany and updateTenantProfile: refused', async () => {
    const company = withLoneSurrogate(exampleBody('ProfileController_patchCompany'));
    const patched = await graphql(
      app.url,
      'mutation($u: ID!, $i: CompanyInformationPatchInput!) { patchProfileCompany(uuid: $u, input: $i) { uuid } }',
      { u: profileUuid, i: company.body },
      v1,
    );
    expectGraphqlRefused(patched, `/variables/i${company.pointer}`);
    const update = withLoneSurrogate(exampleBody('MarketplaceProfileController_update'));
    const updated = await graphql(
      app.url,
      'mutation($i: TenantProfileUpdateInput!) { updateTenantProfile(input: $i) { __typename } }',
      { i: update.body },
      tenantAuth,
    );
    expectGraphqlRefused(updated, `/variables/i${update.pointer}`);
  });
});
