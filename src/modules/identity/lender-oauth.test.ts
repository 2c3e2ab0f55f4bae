// The lenders' identity provider (spec 5.9) as a stock OIDC client and the lender API see it.
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from './bootstrap.js';
import { bearer, lenderCredentials, lenderIdToken, signUpIntegrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let lender: LenderCredentials;
beforeAll(async () => {
  app = await startTestApp();
  lender = await lenderCredentials(app);
});
afterAll(() => app?.close());

const audience = () => `${app.url}/api/platform/v1/funding`;
const applications = (headers: Record<string, string>) => fetch(`${app.url}/api/platform/v1/funding/applications`, { headers });

/** openid-client configured by discovery, authenticating with client_secret_post. */
function discover(...extensions: Array<(config: client.Configuration) => void>): Promise<client.Configuration> {
  return client.discovery(new URL(app.url), lender.clientId, lender.clientSecret, client.ClientSecretPost(lender.clientSecret), {
    execute: [client.allowInsecureRequests, ...extensions],
  });
}

function passwordGrant(config: client.Configuration, password = lender.password) {
  return client.genericGrantRequest(config, 'password', {
    username: lender.username,
    password,
    scope: 'openid email profile',
    audience: audience(),
  });
}

describe('a stock OIDC client (openid-client)', () => {
  it('discovers us, gets a 2-minute id_token naming the lender, and calls the lender API with it', async () => {
    const config = await discover();
    expect(config.serverMetadata()).toMatchObject({ issuer: app.url, token_endpoint: `${app.url}/oauth/token` });

    const tokens = await passwordGrant(config);
    expect(tokens.expires_in).toBe(120);
    expect(tokens.token_type).toBe('bearer'); // openid-client lower-cases it
    expect(tokens.scope).toBe('openid email profile');
    expect(tokens.claims()).toMatchObject({
      iss: app.url,
      sub: `lender:${lender.lenderId}`,
      aud: lender.clientId,
      azp: lender.clientId,
      tkn: 'lender',
      lid: lender.lenderId,
      env: 'demo',
    });

    const idToken = tokens.id_token!;
    const jwks = createRemoteJWKSet(new URL(`${app.url}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(idToken, jwks, { issuer: app.url, audience: lender.clientId, algorithms: ['RS256'] });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.exp! - payload.iat!).toBe(120);

    const res = await applications(bearer(idToken));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it('verifies the id_token signature itself only with non-repudiation checks, and then refuses a forgery', async () => {
    const verified = await passwordGrant(await discover(client.enableNonRepudiationChecks));
    expect(verified.claims()?.sub).toBe(`lender:${lender.lenderId}`);

    // Same header and claims, but the access token's signature: a forgery only a signature check can see.
    const forgeIdTokens: client.CustomFetch = async (url, options) => {
      const res = await fetch(url, options as RequestInit); // FetchBody vs @types/node BodyInit: same values, different typings
      if (!url.endsWith('/oauth/token')) return res;
      const body = await res.json();
      const [header, claims] = body.id_token.split('.');
      body.id_token = `${header}.${claims}.${body.access_token.split('.')[2]}`;
      return new Response(JSON.stringify(body), { status: res.status, headers: { 'content-type': 'application/json' } });
    };
    const trusting = await discover();
    trusting[client.customFetch] = forgeIdTokens;
    expect((await passwordGrant(trusting)).claims()?.sub).toBe(`lender:${lender.lenderId}`); // hence jose's jwtVerify above

    const checking = await discover(client.enableNonRepudiationChecks);
    checking[client.customFetch] = forgeIdTokens;
    await expect(passwordGrant(checking)).rejects.toMatchObject({
      code: 'OAUTH_INVALID_RESPONSE',
      cause: expect.objectContaining({ message: 'JWT signature verification failed' }),
    });
  });

  it('surfaces a wrong password as invalid_grant', async () => {
    await expect(passwordGrant(await discover(), 'not-the-password')).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('POST /oauth/token by hand', () => {
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/oauth/token`, { method: 'POST', headers, body: new URLSearchParams(fields) });
  const grant = () => ({ grant_type: 'password', username: lender.username, password: lender.password, scope: 'openid', audience: audience() });
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
  });

  it('takes a form-encoded grant with HTTP Basic client authentication', async () => {
    const res = await form(grant(), basic(lender.clientId, lender.clientSecret));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toMatchObject({ scope: 'openid', expires_in: 120, token_type: 'Bearer' });
    expect((await applications(bearer(body.id_token))).status).toBe(200);
  });

  it('answers another audience than the issued one with 400 invalid_request naming the expected value', async () => {
    expect(lender.audience).toBe(audience());
    const wrong = audience().replace('127.0.0.1', 'localhost');
    const res = await form({ ...grant(), audience: wrong }, basic(lender.clientId, lender.clientSecret));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: `audience must be ${audience()} (the audience issued with the lender's credentials), not ${wrong}`,
    });
  });

  it('takes the documented addresses of the lender API as aliases of its audience, and issues the token for ours', async () => {
    for (const alias of [`${app.url}/api/marketplace/v2`, `${app.url}/api/marketplace/v2/`, `${audience()}/`]) {
      const res = await form({ ...grant(), audience: alias }, basic(lender.clientId, lender.clientSecret));
      expect(res.status, alias).toBe(200);
      const body = await res.json();
      expect(decodeJwt(body.access_token).aud, alias).toEqual([audience(), 'funding-gateway:demo']);
      expect((await applications(bearer(body.id_token))).status).toBe(200);
    }
  });

  it('still refuses an audience that is no alias: another API of ours, or a look-alike', async () => {
    for (const wrong of [`${app.url}/api/platform/v1`, `${app.url}/api/marketplace/v1`, `${audience()}/applications`, `${audience()}x`]) {
      const res = await form({ ...grant(), audience: wrong }, basic(lender.clientId, lender.clientSecret));
      expect(res.status, wrong).toBe(400);
      expect((await res.json()).error, wrong).toBe('invalid_request');
    }
  });

  it('answers a wrong client secret with 401 invalid_client', async () => {
    const res = await form(grant(), basic(lender.clientId, 'lns_demo_wrong'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
    expect(await res.json()).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });
  });

  it('answers a wrong password with 400 invalid_grant', async () => {
    const res = await form({ ...grant(), password: 'wrong', client_id: lender.clientId, client_secret: lender.clientSecret });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: 'Wrong username or password' });
  });

  it('answers grant_type=client_credentials with 400 unsupported_grant_type', async () => {
    const res = await form({ grant_type: 'client_credentials', scope: 'openid' }, basic(lender.clientId, lender.clientSecret));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'unsupported_grant_type', error_description: 'Only grant_type=password is supported' });
  });

  it('takes the JSON body exactly as spec 5.9 shows it', async () => {
    const res = await postJson(`${app.url}/oauth/token`, {
      audience: audience(),
      client_id: lender.clientId,
      client_secret: lender.clientSecret,
      grant_type: 'password',
      password: lender.password,
      scope: 'openid email profile',
      username: lender.username,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'id_token', 'scope', 'token_type']);
    expect(body).toMatchObject({ scope: 'openid email profile', expires_in: 120, token_type: 'Bearer' });
  });
});

describe('configured audience aliases (LENDER_AUDIENCE_ALIASES)', () => {
  // The identifier a lender's client copied from the live platform's documents: not ours, but configured as an alias.
  const copied = 'https://api.live-platform.example/api/platform/v1/funding';
  let aliased: TestApp;
  let aliasedLender: LenderCredentials;
  beforeAll(async () => {
    aliased = await startTestApp({ config: { LENDER_AUDIENCE_ALIASES: [copied] } });
    aliasedLender = await lenderCredentials(aliased);
  });
  afterAll(() => aliased?.close());

  const tokenRequest = (target: TestApp, audienceValue: string) =>
    postJson(`${target.url}/oauth/token`, {
      audience: audienceValue,
      client_id: (target === aliased ? aliasedLender : lender).clientId,
      client_secret: (target === aliased ? aliasedLender : lender).clientSecret,
      grant_type: 'password',
      password: (target === aliased ? aliasedLender : lender).password,
      scope: 'openid email profile',
      username: (target === aliased ? aliasedLender : lender).username,
    });

  it('accepts the configured alias, copied body and all, and issues the token for our own audience', async () => {
    const res = await tokenRequest(aliased, copied);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(decodeJwt(body.access_token).aud).toEqual([`${aliased.url}/api/platform/v1/funding`, 'funding-gateway:demo']);
    const call = await fetch(`${aliased.url}/api/platform/v1/funding/applications`, { headers: bearer(body.id_token) });
    expect(call.status).toBe(200);
  });

  it('refuses the same value where it is not configured, and other values where it is', async () => {
    expect((await tokenRequest(app, copied)).status).toBe(400);
    const other = await tokenRequest(aliased, 'https://api.live-platform.example/api/marketplace/v1');
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('which API takes which token', () => {
  const expectUnauthenticated = async (res: Response, detail: string) => {
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', detail });
  };

  it('refuses a lender token on Business V1 and on the platform API', async () => {
    const idToken = await lenderIdToken(app, lender);
    await expectUnauthenticated(
      await postJson(`${app.url}/api/business/v1/tenants`, {}, bearer(idToken)),
      'This API does not accept a lender token; use a platform access, master or tenant token',
    );
    await expectUnauthenticated(
      await fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(idToken) }),
      'This API does not accept a lender token; use a platform login, platform access, master or tenant token',
    );
  });

  it("refuses an integrator's platform token on the lender API", async () => {
    const integrator = await signUpIntegrator(app);
    await expectUnauthenticated(await applications(bearer(integrator.platformToken)), 'This API does not accept a platform access token; use a lender token');
  });
});

describe('expiry, on an injected clock', () => {
  let current = new Date();
  let timed: TestApp;
  let timedLender: LenderCredentials;
  beforeAll(async () => {
    timed = await startTestApp({ clock: { now: () => current } });
    timedLender = await lenderCredentials(timed);
  });
  afterAll(() => timed?.close());

  it('takes the id_token until its 120 seconds are up, then answers 401 saying it expired', async () => {
    const idToken = await lenderIdToken(timed, timedLender);
    const call = () => fetch(`${timed.url}/api/platform/v1/funding/applications`, { headers: bearer(idToken) });
    const issuedAt = current.getTime();

    current = new Date(issuedAt + 119_000);
    expect((await call()).status).toBe(200);

    current = new Date(issuedAt + 121_000);
    const res = await call();
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', detail: 'Invalid token: it has expired' });
  });
});
