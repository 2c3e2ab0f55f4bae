/**
 * The raw baselines of the benchmarks: bare Express handlers doing the same SQL with `pg` and
 * returning the same JSON as the REST adapter (tenant; company search and lookup) and the federated
 * query (tenant with its profile, in the system's two statements). Run as its own process: `tsx bench/raw-baseline.ts` with
 * DATABASE_URL, PORT.
 *
 * Like for like: with JWKS_URL and ISSUER set, the tenant routes verify the request's bearer token
 * as the system does (RS256 against the published keys, issuer, expiry), so a ratio compares the
 * layers, not the cost of authentication.
 */
import express from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();

const keys = process.env.JWKS_URL ? createRemoteJWKSet(new URL(process.env.JWKS_URL)) : undefined;
async function authenticated(req: express.Request, res: express.Response): Promise<boolean> {
  if (!keys) return true;
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  try {
    if (!token) throw new Error('no token');
    await jwtVerify(token, keys, { issuer: process.env.ISSUER, algorithms: ['RS256'] });
    return true;
  } catch {
    res.status(401).json({ status: 401 });
    return false;
  }
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
  const { rows } = await pool.query(TENANT_SQL, [req.params.id, 'demo']);
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
  const tenant = (await pool.query(TENANT_SQL, [req.params.id, 'demo'])).rows[0];
  if (!tenant) return void res.status(404).json({ status: 404 });
  const profile = (await pool.query(PROFILE_OF_TENANT_SQL, [tenant.id, 'demo'])).rows[0];
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
  const { rows } = await pool.query(SEARCH_SQL, ['GB', `${lower}%`, infix ?? `${lower}%`, `${upper}%`, lower, upper, 10, infix]);
  res.json(rows);
});

app.get('/companies/:number', async (req, res) => {
  if (!(await authenticated(req, res))) return;
  const { rows } = await pool.query('SELECT * FROM company WHERE "countryCode" = $1 AND "registrationNumber" = $2', ['GB', req.params.number]);
  if (!rows[0]) return void res.status(404).json({ status: 404 });
  res.json(rows[0]);
});

app.listen(Number(process.env.PORT ?? 4999), '127.0.0.1');
