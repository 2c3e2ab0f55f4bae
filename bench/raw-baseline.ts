/**
 * The raw baselines of the benchmarks: bare Express handlers doing the same SQL with `pg` and
 * returning the same JSON as the REST adapter (tenant; company search and lookup) and the federated
 * query (tenant with its profile, in the system's two statements). Run as its own process: `tsx bench/raw-baseline.ts` with
 * DATABASE_URL, PORT.
 *
 * Like for like, neither more work nor less than the system does for the same request:
 * - with JWKS_URL and ISSUER set, a bearer token is verified as the system verifies it: RS256 on
 *   node:crypto against the published keys (imported once), issuer and expiry, and remembered until
 *   it expires in a bounded cache, so a token sent again is not verified again;
 * - statements are named (prepared once per connection), as the system's hot reads are;
 * - one pino line per request at info level, as the system's access log writes.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { pino } from 'pino';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
const logger = pino({ level: 'info' });

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  res.on('finish', () =>
    logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request'),
  );
  next();
});

/** The published keys by kid, imported once (fetched on first use: the system serves them). */
let publishedKeys: Promise<Map<string, KeyObject>> | undefined;
function keysByKid(): Promise<Map<string, KeyObject>> {
  publishedKeys ??= fetch(process.env.JWKS_URL!)
    .then((res) => res.json() as Promise<{ keys: Array<{ kid: string; kty: string; n: string; e: string }> }>)
    .then(({ keys }) => new Map(keys.map((jwk) => [jwk.kid, createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: 'jwk' })])));
  return publishedKeys;
}

/** Token text -> its expiry (seconds), bounded; the oldest entry goes first. */
const verifiedTokens = new Map<string, number>();
const VERIFIED_TOKENS_KEPT = 10_000;

async function verifiedToken(token: string): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  const expiry = verifiedTokens.get(token);
  if (expiry !== undefined) {
    if (expiry > now) return true;
    verifiedTokens.delete(token);
  }
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string; kid?: string };
  const key = (await keysByKid()).get(kid ?? '');
  if (alg !== 'RS256' || !key) return false;
  if (!verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: string; exp?: number };
  if (claims.iss !== process.env.ISSUER || typeof claims.exp !== 'number' || claims.exp <= now) return false;
  if (verifiedTokens.size >= VERIFIED_TOKENS_KEPT) verifiedTokens.delete(verifiedTokens.keys().next().value!);
  verifiedTokens.set(token, claims.exp);
  return true;
}

async function authenticated(req: express.Request, res: express.Response): Promise<boolean> {
  if (!process.env.JWKS_URL) return true;
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (token && (await verifiedToken(token).catch(() => false))) return true;
  res.status(401).json({ status: 401 });
  return false;
}

const TENANT_SQL = 'SELECT id, "referenceId", "createdDateTime", "updatedDateTime" FROM tenant WHERE id = $1 AND environment = $2';
// The federated query runs two statements in the system (the tenant in its subgraph, then
// Tenant.profile in the profiles subgraph): the baseline runs the same two, not a join, which
// would flatter it with one round trip fewer.
const PROFILE_OF_TENANT_SQL = 'SELECT id FROM profile WHERE "tenantId" = $1 AND environment = $2';

app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});

app.get('/tenants/:id', async (req, res) => {
  if (!(await authenticated(req, res))) return;
  const { rows } = await pool.query({ name: 'tenant', text: TENANT_SQL, values: [req.params.id, 'demo'] });
  const row = rows[0];
  if (!row) return void res.status(404).json({ status: 404 });
  res.json({
    id: row.id,
    referenceId: row.referenceId,
    createdDateTime: row.createdDateTime.toISOString(),
    updatedDateTime: row.updatedDateTime.toISOString(),
  });
});

app.get('/tenants/:id/with-profile', async (req, res) => {
  if (!(await authenticated(req, res))) return;
  const tenant = (await pool.query({ name: 'tenant', text: TENANT_SQL, values: [req.params.id, 'demo'] })).rows[0];
  if (!tenant) return void res.status(404).json({ status: 404 });
  const profile = (await pool.query({ name: 'profile-of-tenant', text: PROFILE_OF_TENANT_SQL, values: [tenant.id, 'demo'] })).rows[0];
  res.json({ data: { tenant: { id: tenant.id, referenceId: tenant.referenceId, profile: profile ? { uuid: profile.id } : null } } });
});

// The same ranked search the registry runs (src/modules/companies/company-registry.ts).
const SEARCH_SQL = `SELECT name, "registrationNumber" AS number FROM company
  WHERE "countryCode" = $1 AND ("nameLower" LIKE $2 OR "nameLower" LIKE $3 OR "registrationNumber" LIKE $4 OR "previousNamesLower" LIKE $8)
  ORDER BY CASE WHEN "nameLower" = $5 OR "registrationNumber" = $6 THEN 0
                WHEN "nameLower" LIKE $2 OR "registrationNumber" LIKE $4 THEN 1
                WHEN "nameLower" LIKE $3 THEN 2 ELSE 3 END,
    CASE WHEN status = 'DISSOLVED' THEN 1 ELSE 0 END, name, "registrationNumber"
  LIMIT $7`;

app.get('/companies/search/:term', async (req, res) => {
  if (!(await authenticated(req, res))) return;
  const lower = req.params.term.toLowerCase();
  const upper = req.params.term.toUpperCase();
  // Previous names are matched inside from three characters (a null pattern matches nothing).
  const infix = lower.length >= 3 ? `%${lower}%` : null;
  const { rows } = await pool.query({
    name: 'company-search',
    text: SEARCH_SQL,
    values: ['GB', `${lower}%`, infix ?? `${lower}%`, `${upper}%`, lower, upper, 10, infix],
  });
  res.json(rows);
});

app.get('/companies/:number', async (req, res) => {
  if (!(await authenticated(req, res))) return;
  const { rows } = await pool.query({
    name: 'company',
    text: 'SELECT * FROM company WHERE "countryCode" = $1 AND "registrationNumber" = $2',
    values: ['GB', req.params.number],
  });
  if (!rows[0]) return void res.status(404).json({ status: 404 });
  res.json(rows[0]);
});

app.listen(Number(process.env.PORT ?? 4999), '127.0.0.1');
