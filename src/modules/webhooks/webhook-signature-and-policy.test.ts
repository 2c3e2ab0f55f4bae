/**
 * Standard Webhooks signatures (verified with the `standardwebhooks` library), the document a
 * delivery sends (its token added to the stored JSON text) and the webhook URL policy.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook } from './webhook-signature.js';
import { sentDocument, withAuthorizationToken } from './authorization-token.js';
import { addressAllowed, assertWebhookUrl } from './webhook-url-policy.js';

describe('webhook signatures', () => {
  it('verify with the standardwebhooks library, and fail when the body changes', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ application: { id: 7, status: 'In Review' } });
    const headers = signWebhook(secret, 'delivery-1', new Date(), body);
    const verifier = new Webhook(secret);
    expect(verifier.verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => verifier.verify(body.replace('7', '8'), { ...headers })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it('is stable for the same delivery id and timestamp', () => {
    const secret = newWebhookSecret();
    const at = new Date('2026-11-21T10:00:00Z');
    expect(signWebhook(secret, 'd', at, '{}')).toEqual(signWebhook(secret, 'd', at, '{}'));
  });
});

describe('the document a delivery sends', () => {
  it.each([
    ['with other apiProvider fields', { application: { id: 7, note: 'a "quoted", {braced} text' }, apiProvider: { name: 'fg', url: 'https://x' } }],
    ['with an empty apiProvider', { application: { id: 7 }, apiProvider: {} }],
    ['of apiProvider alone', { apiProvider: { name: 'fg' } }],
  ])('is the stored document with the token in apiProvider (%s), as JSON text built without parsing it', (_case, stored) => {
    const { apiProvider, ...rest } = stored;
    // As PostgreSQL writes jsonb out: ", " and ": " between members.
    const text = (value: unknown) => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\{ /g, '{').replace(/ \}/g, '}');
    for (const token of ['tok-1', null]) {
      const sent = sentDocument(text(rest), text(apiProvider), token);
      expect(JSON.parse(sent)).toEqual(withAuthorizationToken(stored, token));
    }
  });

  it('is the stored document as it is when it has no apiProvider object', () => {
    expect(sentDocument('{"application": {"id": 7}}', null, 'tok')).toBe('{"application": {"id": 7}}');
  });
});

describe('webhook URL policy', () => {
  it.each([
    ['127.0.0.1', 'demo', true],
    ['127.0.0.1', 'production', false],
    ['::1', 'production', false],
    ['10.1.2.3', 'production', false],
    ['192.168.1.10', 'demo', false],
    ['169.254.169.254', 'demo', false],
    ['0.0.0.0', 'demo', false],
    ['93.184.216.34', 'production', true],
  ] as const)('%s in %s → %s', (address, environment, allowed) => {
    expect(addressAllowed(address, { environment })).toBe(allowed);
  });

  it('private networks only when configuration allows them', () => {
    expect(addressAllowed('10.1.2.3', { environment: 'production', allowPrivateAddresses: true })).toBe(true);
  });

  it('refuses non-http(s) schemes and non-public hosts with 422 naming the reason', async () => {
    await expect(assertWebhookUrl('ftp://lender.example/hook', { environment: 'demo' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    await expect(assertWebhookUrl('http://169.254.169.254/latest/meta-data', { environment: 'production' })).rejects.toMatchObject({
      fields: [{ pointer: '/url', message: expect.stringContaining('linkLocal') }],
    });
    await expect(assertWebhookUrl('http://localhost:8080/hook', { environment: 'production' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    await expect(assertWebhookUrl('http://127.0.0.1:8080/hook', { environment: 'demo' })).resolves.toBeInstanceOf(URL);
  });
});
