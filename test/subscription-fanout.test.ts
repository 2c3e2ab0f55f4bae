/**
 * Subscription fan-out (src/api/graphql/subscription-fanout.ts): subscribers of one audience share each
 * event's execution (one per event, `graphql_subscription_event_executions_total`), yet each one's credential still counts: a revoked key stops receiving while
 * the other key of the same account, in the same group, keeps receiving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle, subscribe } from './support/graphql-client.js';
import { bearer, createApiKey, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { UNRELATED_KEY_SCOPE } from './support/credentials.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { subscriptionEventExecutions } from '../src/infra/metrics.js';

const TENANT_CREATED = 'subscription FanOutSingle { tenantCreated { id referenceId } }';

/** Subscription events executed for this test's operation (the counter the distributed test reads from /metrics). */
async function executions(): Promise<number> {
  const { values } = await subscriptionEventExecutions.get();
  return values.filter((v) => v.labels.operation === 'FanOutSingle').reduce((sum, v) => sum + v.value, 0);
}

let app: TestApp;
let integrator: Integrator;
beforeAll(async () => {
  app = await startTestApp();
  integrator = await signUpIntegrator(app);
});
afterAll(() => app?.close());

/** A platform token of a fresh key of the integrator's account holding no scope any rule names (tenants.subscribe needs none). */
async function keyToken(name: string): Promise<{ keyId: string; token: string }> {
  const key = await createApiKey(app, integrator.loginToken, { name, scopes: [UNRELATED_KEY_SCOPE] });
  return { keyId: key.id, token: (await platformToken(app, key.key)).access_token };
}

describe('subscription fan-out', () => {
  it('two keys of one account share the events; once one key is revoked, only the other receives', async () => {
    const [kept, revoked] = await Promise.all([keyToken('fanout-kept'), keyToken('fanout-revoked')]);
    const keptSub = await subscribe(app.url, TENANT_CREATED, {}, bearer(kept.token));
    const revokedSub = await subscribe(app.url, TENANT_CREATED, {}, bearer(revoked.token));
    try {
      await settle();
      const before = await executions();
      const first = await (await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'fanout-1' }, bearer(integrator.platformToken))).json();
      const expected = { data: { tenantCreated: { id: first.id, referenceId: 'fanout-1' } } };
      expect(await keptSub.next()).toEqual(expected);
      expect(await revokedSub.next()).toEqual(expected);
      // One audience, one group: the event was executed once for both subscribers.
      expect((await executions()) - before).toBe(1);

      const revoke = await fetch(`${app.url}/api/platform/v1/api-key/${revoked.keyId}`, { method: 'DELETE', headers: bearer(integrator.loginToken) });
      expect(revoke.status).toBe(204);
      const second = await (await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'fanout-2' }, bearer(integrator.platformToken))).json();
      expect(await keptSub.next()).toEqual({ data: { tenantCreated: { id: second.id, referenceId: 'fanout-2' } } });
      // The revoked key is told why, instead of the tenant, and hears nothing more.
      const refused = await revokedSub.next();
      expect(refused.data).toBeUndefined();
      expect(refused.errors).toEqual([
        expect.objectContaining({ message: 'Invalid token: its API key has been revoked', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
      ]);

      const third = await (await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'fanout-3' }, bearer(integrator.platformToken))).json();
      expect(await keptSub.next()).toEqual({ data: { tenantCreated: { id: third.id, referenceId: 'fanout-3' } } });
      await expect(Promise.race([revokedSub.next(), settle(500).then(() => 'nothing')])).resolves.toBe('nothing');
    } finally {
      await Promise.all([keptSub.close(), revokedSub.close()]);
    }
  });
});
