/**
 * Ids that are not what their column holds (a UUID column asked for "not-a-uuid") name no object:
 * every REST path parameter and every GraphQL ID argument given one answers a client error (400 or
 * 404), never a 500 or INTERNAL, whichever operation it reaches. Derived from the route table and
 * the composed schema, so a new operation is covered as it is added. Each request is sent with a
 * credential its operation admits, and with its example body, so it reaches the lookup of the id.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_POLICY, SURFACE_TOKENS } from '../src/kernel/access-policy.js';
import type { TokenKind } from '../src/kernel/actor.js';
import { ROUTES, type RouteDefinition } from '../src/api/rest/route-table.js';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { graphql } from './support/graphql-client.js';
import {
  bearer,
  createTenant,
  lenderCredentials,
  lenderIdToken,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signIn,
  signUpIntegrator,
} from './support/identities.js';
import { introspectRootFields, rootOperation, type RootFields } from './support/probe-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const NOT_AN_ID = 'not-a-uuid';
let app: TestApp;
let tokens: Partial<Record<TokenKind, string>>;
let rootFields: RootFields;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await signUpIntegrator(app, `ids-${randomUUID().slice(0, 6)}`);
  const staffEmail = `staff-${randomUUID().slice(0, 6)}@example.test`;
  await createAccountWithUser(app.runtime.database.prisma, {
    environment: 'demo',
    accountName: 'specialists',
    email: staffEmail,
    password: 'staff-password-123',
    role: 'STAFF',
  });
  const tenant = await createTenant(app, owner.platformToken);
  tokens = {
    login: await signIn(app, staffEmail, 'staff-password-123'),
    platform: owner.platformToken,
    master: (await masterToken(app, owner.apiKey)).access_token,
    tenant: (await platformToken(app, owner.apiKey, tenant.id)).access_token,
    marketplace_v1: (await marketplaceV1Token(app, owner.apiKey)).jwt,
    lender: await lenderIdToken(app, await lenderCredentials(app)),
  };
  rootFields = await introspectRootFields(app.url, bearer(owner.platformToken));
});
afterAll(() => app?.close());

/** The token kinds that reach the operation: those its surface takes and its access rule admits. */
function kindsOf(route: RouteDefinition): TokenKind[] {
  const surface = route.surface === 'public' ? [] : (SURFACE_TOKENS[route.surface] as readonly TokenKind[]);
  const rule = route.access ? (ACCESS_POLICY[route.access].tokens as readonly TokenKind[]) : surface;
  return route.surface === 'public' ? [] : surface.filter((kind) => rule.includes(kind));
}

/** Path parameters that are free text, not ids (a company search term). */
const FREE_TEXT = new Set(['searchTerm']);
const withIds = ROUTES.filter((route) => (route.path.match(/:[A-Za-z]+/g) ?? []).some((param) => !FREE_TEXT.has(param.slice(1))));

describe('REST: a path parameter that is not a UUID', () => {
  it.each(withIds.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('%s answers 400 or 404', async (_name, route) => {
    const path = route.path.replace(/:[A-Za-z]+/g, NOT_AN_ID);
    const query = new URLSearchParams(Object.entries(route.example?.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const kinds = route.surface === 'public' ? [undefined] : kindsOf(route);
    expect(kinds.length).toBeGreaterThan(0);
    for (const kind of kinds) {
      const body = route.upload ? undefined : route.example?.body;
      const res = await fetch(`${app.url}${path}${query ? `?${query}` : ''}`, {
        method: route.method.toUpperCase(),
        headers: {
          ...(kind ? bearer(tokens[kind]!) : {}),
          ...(route.example?.headers ?? {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      const text = await res.text();
      expect([400, 404], `${kind ?? 'anonymous'}: ${res.status} ${text}`).toContain(res.status);
    }
  });
});

/** A value for each required argument that is not an ID: enough to reach the id's lookup. */
function filler(type: string): unknown {
  const named = type.replace(/[[\]!]/g, '');
  if (named === 'ID') return NOT_AN_ID;
  if (named === 'String') return 'x';
  if (named === 'Int') return 1;
  if (named === 'Float') return 1;
  if (named === 'Boolean') return false;
  return undefined;
}

describe('GraphQL: an ID argument that is not a UUID', () => {
  it('every query and mutation taking an ID answers a client error to every token kind, never INTERNAL', async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const kind of ['query', 'mutation'] as const) {
      for (const [field, def] of rootFields[kind]) {
        const idArgs = [...def.args].filter(([, type]) => type.replace(/[[\]!]/g, '') === 'ID');
        if (idArgs.length === 0) continue;
        const variables: Record<string, unknown> = {};
        let complete = true;
        for (const [name, type] of def.args) {
          if (!type.endsWith('!') && !idArgs.some(([id]) => id === name)) continue;
          const value = filler(type);
          if (value === undefined) complete = false;
          else variables[name] = type.startsWith('[') ? [value] : value;
        }
        // Fields needing an input object are reached with their ids alone in the other test cases of their module.
        if (!complete) continue;
        for (const [tokenKind, token] of Object.entries(tokens)) {
          const res = await graphql(app.url, rootOperation(rootFields, kind, field, variables), variables, bearer(token!));
          tried++;
          const codes = (res.errors ?? []).map((e) => e.extensions?.code);
          if (codes.includes('INTERNAL') || codes.includes('INTERNAL_SERVER_ERROR'))
            failures.push(`${kind} ${field} as ${tokenKind}: ${JSON.stringify(res.errors)}`);
          else if (res.data && Object.values(res.data).some((v) => v !== null))
            failures.push(`${kind} ${field} as ${tokenKind} answered data for ${NOT_AN_ID}`);
        }
      }
    }
    expect(tried).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });
});
