/**
 * Token verification on node:crypto refuses what jose refused, with the same reasons, and the
 * cache of verified tokens never outlives a token's expiry.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignJWT, type JWK } from 'jose';
import { generateSigningJwk, type SigningKeySet } from '../../infra/signing-keys.js';
import { TokenAuthority } from './token-authority.js';

const ISSUER = 'http://issuer.test';
const start = new Date('2026-01-01T00:00:00Z');

async function authority(): Promise<{ tokens: TokenAuthority; jwk: JWK; clock: { at: Date; now(): Date } }> {
  const jwk = await generateSigningJwk();
  const { kid, n, e, kty } = jwk;
  const key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  const keys = { active: { kid: kid!, key }, publicJwks: { keys: [{ kty, n, e, kid, alg: 'RS256', use: 'sig' }] } } as unknown as SigningKeySet;
  const clock = {
    at: start,
    now() {
      return this.at;
    },
  };
  return { tokens: new TokenAuthority(keys, ISSUER, 'demo', clock), jwk, clock };
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token signed with the real key but with a header and claims of the test's choosing. */
function forge(jwk: JWK, header: object, claims: object): string {
  const input = `${encode(header)}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(input), createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' }));
  return `${input}.${signature.toString('base64url')}`;
}

const now = Math.floor(start.getTime() / 1000);
const claims = {
  tkn: 'platform',
  env: 'demo',
  scope: 'profile:read',
  acc: 'a',
  key: 'k',
  sub: 'k',
  iss: ISSUER,
  aud: 'funding-gateway:demo',
  iat: now,
  exp: now + 60,
};

describe('RS256 verification', () => {
  it('accepts our signed tokens and remembers them until they expire', async () => {
    const { tokens, clock } = await authority();
    const token = await tokens.sign({ tkn: 'platform', scope: 'profile:read', acc: 'a', key: 'k' }, { subject: 'k', ttlSeconds: 60 });
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ tkn: 'platform', sub: 'k', env: 'demo', iss: ISSUER });
    expect(await tokens.verify(token)).toBe(first);
    clock.at = new Date(start.getTime() + 60_000);
    await expect(tokens.verify(token)).rejects.toThrow('Invalid token: it has expired');
  });

  it('refuses what jose refused, saying why', async () => {
    const { tokens, jwk } = await authority();
    const header = { alg: 'RS256', kid: jwk.kid, typ: 'JWT' };
    const valid = forge(jwk, header, claims);
    const [h, p, s] = valid.split('.');
    const cases: Array<[string, string]> = [
      [`${h}.${encode({ ...claims, scope: 'everything' })}.${s}`, 'its signature does not verify'],
      [`${encode({ alg: 'none' })}.${p}.`, 'its signing algorithm is not accepted'],
      [`${encode({ alg: 'HS256', kid: jwk.kid })}.${p}.${s}`, 'its signing algorithm is not accepted'],
      [forge(jwk, { alg: 'RS256', kid: 'another-key' }, claims), 'it was not signed by any of our keys'],
      [forge(jwk, { ...header, crit: ['exp'] }, claims), 'it is not a well-formed signed JWT'],
      [forge(jwk, header, { ...claims, exp: now }), 'it has expired'],
      [forge(jwk, header, { ...claims, nbf: now + 1 }), 'claim nbf is not valid'],
      [forge(jwk, header, { ...claims, iss: 'http://elsewhere.test' }), 'claim iss is not valid'],
      [forge(jwk, header, { ...claims, iss: undefined }), 'claim iss is not valid'],
      [forge(jwk, header, { ...claims, iat: 'yesterday' }), 'claim iat is not valid'],
      [forge(jwk, header, { ...claims, sub: undefined }), 'claim sub is not valid'],
      [forge(jwk, header, { ...claims, env: 'production' }), 'the token belongs to the production environment, not demo'],
      [forge(jwk, header, { ...claims, aud: 'someone-else' }), 'the token was issued for another audience'],
      ['not-a-token', 'it is not a well-formed signed JWT'],
      [`${h}.${p}`, 'it is not a well-formed signed JWT'],
    ];
    for (const [token, reason] of cases) await expect(tokens.verify(token), reason).rejects.toThrow(`Invalid token: ${reason}`);
  });

  it('verifies signed links for their own subject and audience only', async () => {
    const { tokens } = await authority();
    const link = await tokens.signLink('search:1', 60);
    await expect(tokens.verifyLink(link, 'search:1')).resolves.toEqual({});
    await expect(tokens.verifyLink(link, 'search:2')).rejects.toThrow('This link is not valid: claim sub is not valid');
    await expect(tokens.verify(link)).rejects.toThrow('Invalid token: the token is not one of ours');
    const apiToken = await tokens.sign({ tkn: 'platform', scope: '' }, { subject: 'search:1', ttlSeconds: 60 });
    await expect(tokens.verifyLink(apiToken, 'search:1')).rejects.toThrow('This link is not valid: claim aud is not valid');
  });

  it('agrees with tokens signed by jose with any of our options', async () => {
    const { tokens, jwk } = await authority();
    const key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
    const token = await new SignJWT({ ...claims, aud: ['other', 'funding-gateway:demo'] }).setProtectedHeader({ alg: 'RS256', kid: jwk.kid }).sign(key);
    await expect(tokens.verify(token)).resolves.toMatchObject({ sub: 'k' });
  });
});
