/**
 * The integrator console's API keys: create a key with chosen scopes (its secret shown once, here),
 * list the account's keys with their last use, rotate (a new secret for the same key) and revoke.
 * The API decides who may do what (a member may not hand out admin-only scopes or touch another
 * user's key); the view marks the admin-only scopes for a member and shows any refusal.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import type {
  ApiKeysQuery,
  CreateApiKeyMutation,
  CreateApiKeyMutationVariables,
  RevokeApiKeyMutation,
  RevokeApiKeyMutationVariables,
  RotateApiKeyMutation,
  RotateApiKeyMutationVariables,
} from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { API_KEYS, CREATE_API_KEY, REVOKE_API_KEY, ROTATE_API_KEY } from './console-queries.js';
import { app, attempt, focusAfterRender, token, update } from './app.js';

type Key = ApiKeysQuery['apiKeys'][number];

/** The scopes a key may hold (spec 2.5), and those only an account admin may hand out. */
const SCOPES = [
  'profile:read',
  'profile:write',
  'questionnaire:read',
  'questionnaire:write',
  'funding:read',
  'funding:write',
  'scoring:read',
  'offline_access',
  'profile:multiples',
  'insights:read',
] as const;
const ADMIN_ONLY_SCOPES: readonly string[] = ['profile:multiples', 'insights:read'];

const keys = {
  rows: [] as Key[],
  /** A secret just made (created or rotated): shown until the view is left. */
  secret: null as { name: string; key: string; rotated: boolean } | null,
};

export async function loadApiKeys(): Promise<void> {
  keys.rows = (await graphql<ApiKeysQuery>(token(), API_KEYS)).apiKeys;
}

export function closeApiKeys(): void {
  keys.rows = [];
  keys.secret = null;
}

const isAdmin = () => app.session?.role === 'ADMIN' || app.session?.role === 'STAFF';

function secretPanel(): TemplateResult | typeof nothing {
  const secret = keys.secret;
  if (!secret) return nothing;
  return html`<div class="panel" data-testid="new-secret" role="region" aria-labelledby="secret-title">
    <h3 id="secret-title" tabindex="-1">${secret.rotated ? `New secret of ${secret.name}` : `API key ${secret.name} created`}</h3>
    <p>Copy it now: it is shown this once and cannot be read again.${secret.rotated ? ' The old secret no longer works.' : ''}</p>
    <p><code data-testid="secret">${secret.key}</code></p>
    <button type="button" @click=${() => {
      keys.secret = null;
      update();
    }}>I have copied it</button>
  </div>`;
}

function createForm(): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    const scopes = data.getAll('scope').map(String);
    void attempt(async () => {
      const created = (await graphql<CreateApiKeyMutation, CreateApiKeyMutationVariables>(token(), CREATE_API_KEY, { input: { name, scopes } })).createApiKey;
      keys.secret = { name: created.name, key: shownSecret(created.key), rotated: false };
      form.reset();
      await loadApiKeys();
      focusAfterRender('secret-title');
    });
  };
  return html`<form class="grid" aria-label="Create an API key" @submit=${submit}>
    <div><label for="key-name">Name</label><input id="key-name" name="name" required maxlength="100" autocomplete="off"></div>
    <fieldset class="scopes">
      <legend>Scopes</legend>
      ${SCOPES.map((scope) => {
        const adminOnly = ADMIN_ONLY_SCOPES.includes(scope);
        const id = `scope-${scope.replace(/[^a-z]/g, '-')}`;
        return html`<div><input type="checkbox" id=${id} name="scope" value=${scope} ?disabled=${adminOnly && !isAdmin()}><label for=${id}>${scope}${adminOnly ? html` <span class="muted">(account admins)</span>` : nothing}</label></div>`;
      })}
    </fieldset>
    <div><button type="submit">Create key</button></div>
  </form>`;
}

/**
 * The secret of a key just made. The type allows none because an idempotent replay of a creation
 * answers without it (it is never stored); the dashboard never replays, so none here is a fault.
 */
function shownSecret(key: string | null | undefined): string {
  if (!key) throw new Error('The answer carried no secret for the new key: revoke it and create another.');
  return key;
}

export function apiKeysView(): TemplateResult {
  const rotate = (key: Key) =>
    attempt(async () => {
      const rotated = (await graphql<RotateApiKeyMutation, RotateApiKeyMutationVariables>(token(), ROTATE_API_KEY, { id: key.id })).rotateApiKey;
      keys.secret = { name: rotated.name, key: shownSecret(rotated.key), rotated: true };
      await loadApiKeys();
      focusAfterRender('secret-title');
    });
  const revoke = (key: Key) =>
    attempt(async () => {
      await graphql<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>(token(), REVOKE_API_KEY, { id: key.id });
      await loadApiKeys();
    }, `API key ${key.name} revoked.`);
  return html`<section aria-labelledby="keys-title" class="console">
    <h2 id="keys-title">API keys</h2>
    ${secretPanel()}
    <h3>New key</h3>
    ${createForm()}
    <h3>The account's keys</h3>
    ${
      keys.rows.length === 0
        ? html`<p class="muted">No API keys yet.</p>`
        : html`<table class="stacked" data-testid="api-keys">
      <thead><tr><th scope="col">Name</th><th scope="col">Key id</th><th scope="col">Scopes</th><th scope="col">Last used</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${keys.rows.map(
        (k) => html`<tr data-testid="key-${k.keyPrefix}" data-revoked=${k.revokedAt ? 'true' : 'false'}>
          <td data-label="Name">${k.name}${k.isMaster ? html` <span class="badge">master</span>` : nothing}</td>
          <td data-label="Key id"><code>${k.keyPrefix}</code></td>
          <td data-label="Scopes">${k.scopes.join(', ')}</td>
          <td data-label="Last used" data-testid="last-used">${k.lastUsedAt ? formatMoment(k.lastUsedAt) : 'never'}</td>
          <td data-label="Created">${formatMoment(k.createdAt)}</td>
          <td data-label="Status">${k.revokedAt ? html`<span class="badge" data-status="DEAD">revoked</span>` : html`<span class="badge" data-status="DELIVERED">active</span>`}</td>
          <td data-label="">${k.revokedAt ? nothing : html`<button type="button" @click=${() => rotate(k)} aria-label="Rotate ${k.name}">Rotate</button> <button type="button" @click=${() => revoke(k)} aria-label="Revoke ${k.name}">Revoke</button>`}</td>
        </tr>`,
      )}</tbody>
    </table>`
    }
  </section>`;
}
