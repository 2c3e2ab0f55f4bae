/**
 * `npm run lender-simulator -- [--scenario S] [--fail-first N] [--port P]`: a lender to test
 * against. It serves its webhook on loopback, verifies each delivery's Standard Webhooks signature,
 * authenticates with the OAuth password grant before every API call (tokens last 120 s), and
 * answers new applications with one of the go-live scenarios of spec section 6:
 *
 *   minimum   acknowledge with a reference only (minimum mandatory fields)
 *   reject    outright rejection: reason Ineligible with a clear message for the user
 *   fail      failed validation: reason Failed with an actionable message
 *   review    manual review: acknowledgement with a reference and a timeline comment
 *   offer     a full indicative term-loan offer
 *   cycle     each new application gets the next scenario, in that order (default)
 *
 * Credentials come from the environment (printed by `npm run admin -- register-lender`):
 * GATEWAY_URL, LENDER_CLIENT_ID, LENDER_CLIENT_SECRET, LENDER_USERNAME, LENDER_PASSWORD, LENDER_AUDIENCE,
 * LENDER_WEBHOOK_SECRET, and optionally LENDER_AUTHORIZATION_TOKEN_KEY (the printed
 * authorizationTokenKey): then each delivery's apiProvider.authorizationToken must be the
 * application's own, computed here as a lender would (docs/security/lender-secrets.md).
 * --fail-first N answers the first N deliveries with 500 (retries are then exercised). The webhook
 * URL to register is printed at start.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { commandLine } from './command-line.js';

const SCENARIOS = ['minimum', 'reject', 'fail', 'review', 'offer'] as const;
type Scenario = (typeof SCENARIOS)[number];

const USAGE = `npm run lender-simulator -- [--scenario cycle|${SCENARIOS.join('|')}] [--fail-first N] [--port P]
  environment: GATEWAY_URL, LENDER_CLIENT_ID, LENDER_CLIENT_SECRET, LENDER_USERNAME, LENDER_PASSWORD,
  LENDER_AUDIENCE, LENDER_WEBHOOK_SECRET (printed by npm run admin -- register-lender),
  LENDER_AUTHORIZATION_TOKEN_KEY (optional)`;
const values = commandLine('lender-simulator', USAGE, {
  scenario: { type: 'string', default: 'cycle' },
  'fail-first': { type: 'string', default: '0' },
  port: { type: 'string', default: '0' },
});
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(`lender-simulator: ${name} is required (see npm run admin -- register-lender)`);
    process.exit(2);
  }
  return value;
};
const gateway = env('GATEWAY_URL').replace(/\/+$/, '');
const credentials = {
  client_id: env('LENDER_CLIENT_ID'),
  client_secret: env('LENDER_CLIENT_SECRET'),
  username: env('LENDER_USERNAME'),
  password: env('LENDER_PASSWORD'),
};
// The audience is issued with the credentials: one derived from GATEWAY_URL differs whenever the
// gateway is reached by another name than its PUBLIC_URL (127.0.0.1 for localhost).
const audience = env('LENDER_AUDIENCE');
const verifier = new Webhook(env('LENDER_WEBHOOK_SECRET'));
const authorizationTokenKey = process.env.LENDER_AUTHORIZATION_TOKEN_KEY || undefined;

/** The application's token is base64url(HMAC-SHA256(key, "application:<id>")): checked when the key is given. */
function genuineToken(document: { apiProvider?: { authorizationToken?: string | null }; application: { id: number } }): boolean {
  if (!authorizationTokenKey) return true;
  const expected = Buffer.from(createHmac('sha256', authorizationTokenKey).update(`application:${document.application.id}`).digest('base64url'));
  const given = Buffer.from(document.apiProvider?.authorizationToken ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
let failuresLeft = Number(values['fail-first']);
let nextScenario = 0;
const seen = new Set<string>();

/** A fresh id_token for every call: the spec says not to store them (they last 120 s). */
async function idToken(): Promise<string> {
  const res = await fetch(`${gateway}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', scope: 'openid email profile', audience, ...credentials }),
  });
  if (!res.ok) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id_token: string }).id_token;
}

async function call(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${gateway}/api/platform/v1/funding${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await idToken()}` },
    body: JSON.stringify(body),
  });
  log({ call: path, status: res.status });
}

const ANSWERS: Record<Scenario, (id: number) => Array<[string, unknown]>> = {
  minimum: (id) => [['acknowledgement', { reference: `SIM-${id}` }]],
  reject: (id) => [
    [
      'rejection',
      { reason: 'Ineligible', reference: `SIM-${id}`, comment: 'We do not lend to businesses in this sector; the client may look at other lenders.' },
    ],
  ],
  fail: (id) => [
    ['rejection', { reason: 'Failed', reference: `SIM-${id}`, comment: 'companyNumber is missing: add the 8-character Companies House number and resubmit.' }],
  ],
  review: (id) => [['acknowledgement', { reference: `SIM-${id}`, comment: 'In manual review: an underwriter will reply within 2 working days.' }]],
  offer: (id) => [
    ['acknowledgement', { reference: `SIM-${id}` }],
    [
      'offer',
      {
        reference: `SIM-${id}-OFFER`,
        status: 'INDICATIVE',
        comment: 'Indicative, subject to underwriting',
        termLoan: {
          maximumAmount: { code: 'GBP', value: 100000 },
          term: 36,
          interestRate: 0.79,
          representativeAPR: 10.4,
          monthlyRepayment: 3238.4,
          totalRepayment: 116582.4,
          likelihoodOfRate: 0.7,
          likelihoodOfAcceptance: 0.65,
        },
      },
    ],
  ],
};

function log(fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ simulator: 'lender', ...fields }));
}

async function handle(document: { application: { id: number; status: string } }, event: string): Promise<void> {
  if (event !== 'created') return;
  const chosen: Scenario = values.scenario === 'cycle' ? SCENARIOS[nextScenario++ % SCENARIOS.length]! : (values.scenario as Scenario);
  log({ application: document.application.id, scenario: chosen });
  for (const [path, body] of ANSWERS[chosen](document.application.id)) await call(`/applications/${document.application.id}/${path}`, body);
}

if (values.scenario !== 'cycle' && !(SCENARIOS as readonly string[]).includes(values.scenario!)) {
  console.error(`lender-simulator: --scenario must be one of cycle, ${SCENARIOS.join(', ')}`);
  process.exit(2);
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    if (failuresLeft > 0) {
      failuresLeft--;
      log({ delivery: req.headers['webhook-id'], answered: 500 });
      return void res.writeHead(500).end();
    }
    let document: { apiProvider?: { authorizationToken?: string | null }; application: { id: number; status: string } };
    try {
      document = verifier.verify(body, req.headers as Record<string, string>) as typeof document;
    } catch {
      log({ delivery: req.headers['webhook-id'], answered: 401, reason: 'bad signature' });
      return void res.writeHead(401).end();
    }
    if (!genuineToken(document)) {
      log({ delivery: req.headers['webhook-id'], answered: 401, reason: 'bad authorization token' });
      return void res.writeHead(401).end();
    }
    res.writeHead(204).end();
    const deliveryId = String(req.headers['webhook-id']);
    if (seen.has(deliveryId)) return; // at-least-once delivery: de-duplicate on webhook-id
    seen.add(deliveryId);
    const event = req.url?.endsWith('/updates') ? 'updated' : 'created';
    log({ delivery: deliveryId, event, application: document.application.id, status: document.application.status });
    handle(document, event).catch((err: Error) => log({ error: err.message }));
  });
});
// Credentials that cannot get a token would leave every application unanswered: refuse to start.
idToken().then(
  () =>
    server.listen(Number(values.port), '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      log({ ready: true, applicationUrl: `http://127.0.0.1:${port}/applications`, updateUrl: `http://127.0.0.1:${port}/updates` });
    }),
  (err: Error) => {
    console.error(`lender-simulator: cannot sign in to ${gateway}: ${err.message}`);
    process.exit(2);
  },
);
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
