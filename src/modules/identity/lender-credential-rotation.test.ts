/**
 * A lender rotates its own client secret and password through the lender API, as the
 * least-privileged lender credential: each new one is shown once and works at /oauth/token, the old
 * one stops at once (invalid_client, invalid_grant), a token issued before keeps working until it
 * expires; a second lender's credentials are untouched; other token kinds are refused.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from './bootstrap.js';
import { bearer, leastPrivilegedLender, lenderCredentials, lenderPasswordGrant, platformToken, signUpIntegrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { expectJson } from '../../../test/support/rest-calls.js';

let app: TestApp;
let lenderA: LenderCredentials;
let lenderB: LenderCredentials;
const db = () => app.runtime.database.prisma;
const L = '/api/platform/v1/funding';
const tokenRequest = (credentials: LenderCredentials) =>
  postJson(`${app.url}/oauth/token`, { ...lenderPasswordGrant(credentials), audience: `${app.url}${L}` });

beforeAll(async () => {
  app = await startTestApp();
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  lenderA = await lenderCredentials(app, first!.id);
  lenderB = await lenderCredentials(app, second!.id);
});
afterAll(async () => {
  await app?.close();
});

describe('POST /credentials/{client-secret,password}/rotate', () => {
  it('shows a new client secret once; the old one stops at once, a token issued before keeps working', async () => {
    const authA = await leastPrivilegedLender(app, lenderA);
    const before = await db().lender.findUniqueOrThrow({ where: { id: lenderB.lenderId } });
    const rotated = await expectJson(await postJson(`${app.url}${L}/credentials/client-secret/rotate`, undefined, authA), 200);
    expect(rotated.clientId).toBe(lenderA.clientId);
    expect(rotated.clientSecret).not.toBe(lenderA.clientSecret);
    const old = await tokenRequest(lenderA);
    expect(old.status).toBe(401);
    expect((await old.json()).error).toBe('invalid_client');
    expect((await tokenRequest({ ...lenderA, clientSecret: rotated.clientSecret })).status).toBe(200);
    expect((await fetch(`${app.url}${L}/applications`, { headers: authA })).status).toBe(200);
    lenderA = { ...lenderA, clientSecret: rotated.clientSecret };
    // Nothing of lender B changed; B still signs in.
    expect(await db().lender.findUniqueOrThrow({ where: { id: lenderB.lenderId } })).toEqual(before);
    expect((await tokenRequest(lenderB)).status).toBe(200);
  });

  it('shows a new password once; the old one stops at once', async () => {
    const authA = await leastPrivilegedLender(app, lenderA);
    const rotated = await expectJson(await postJson(`${app.url}${L}/credentials/password/rotate`, undefined, authA), 200);
    expect(rotated).toEqual({ username: lenderA.username, password: expect.any(String) });
    expect(rotated.password).not.toBe(lenderA.password);
    const old = await tokenRequest(lenderA);
    expect(old.status).toBe(400);
    expect((await old.json()).error).toBe('invalid_grant');
    expect((await tokenRequest({ ...lenderA, password: rotated.password })).status).toBe(200);
    expect((await tokenRequest(lenderB)).status).toBe(200);
  });

  it('refuses other token kinds and no token (401), changing nothing', async () => {
    const before = await db().lender.findUniqueOrThrow({ where: { id: lenderA.lenderId } });
    const integrator = await signUpIntegrator(app, `rotate-${randomUUID().slice(0, 6)}`);
    const platform = bearer((await platformToken(app, integrator.apiKey)).access_token);
    for (const path of ['client-secret', 'password']) {
      expect((await postJson(`${app.url}${L}/credentials/${path}/rotate`, undefined, platform)).status).toBe(401);
      expect((await postJson(`${app.url}${L}/credentials/${path}/rotate`, undefined, {})).status).toBe(401);
    }
    expect(await db().lender.findUniqueOrThrow({ where: { id: lenderA.lenderId } })).toEqual(before);
  });
});
