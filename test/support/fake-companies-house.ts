/**
 * A Companies House public data API on a local port, written from its published reference: HTTP
 * basic authentication with the API key as the user name, `GET /company/{company_number}` (the
 * companyProfile resource, 404 with `company-profile-not-found`), `GET /search/companies?q=` (a
 * `search#companies` page), and the rate limit: every answer carries X-Ratelimit-Limit,
 * X-Ratelimit-Remain, X-Ratelimit-Reset (epoch seconds) and X-Ratelimit-Window, and a spent window
 * answers 429 until its reset. Also the streaming API's companies stream (`GET /companies`,
 * `?timepoint=` to resume): one JSON event per line (`resource_kind`, `resource_id`, `resource_uri`,
 * `data` the company profile, `event: { timepoint, published_at, type }`), blank-line heartbeats
 * while nothing is new, and connections the test can drop.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeProfile {
  company_name: string;
  company_number: string;
  company_status: string;
  type: string;
  date_of_creation?: string;
  sic_codes?: string[];
  previous_company_names?: Array<{ name: string; ceased_on: string; effective_from: string }>;
  registered_office_address?: Record<string, string>;
}

export interface FakeCompaniesHouse {
  url: string;
  apiKey: string;
  companies: Map<string, FakeProfile>;
  /** Every request received: its path and answer status. */
  requests: Array<{ path: string; status: number }>;
  /** Spends the window: `remain` requests are left until the reset, `resetInSeconds` from now. */
  setBudget(remain: number, resetInSeconds: number): void;
  /** Answers this status to every request (e.g. 500) until called with null. */
  failWith(status: number | null): void;
  /** Publishes a companies-stream event (`changed` with the profile, or `deleted`); returns its timepoint. */
  publish(profile: FakeProfile, type?: 'changed' | 'deleted', publishedAt?: Date): number;
  /** Ends every open stream connection abruptly (a dropped connection). */
  dropStreams(): void;
  /** Stream connections open now. */
  openStreams(): number;
  close(): Promise<void>;
}

export async function startFakeCompaniesHouse(apiKey = 'fake-companies-house-key'): Promise<FakeCompaniesHouse> {
  const limit = 600;
  let remain = limit;
  let resetAt = Math.ceil(Date.now() / 1000) + 300;
  let failure: number | null = null;
  const companies = new Map<string, FakeProfile>();
  const requests: FakeCompaniesHouse['requests'] = [];
  const expected = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;

  const events: string[] = [];
  const streams = new Set<http.ServerResponse>();
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.write('\n');
  }, 100);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const answer = (status: number, body: unknown) => {
      requests.push({ path: `${url.pathname}${url.search}`, status });
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remain': String(Math.max(remain, 0)),
        'x-ratelimit-reset': String(resetAt),
        'x-ratelimit-window': '5m',
      });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== expected) return answer(401, { error: 'Invalid Authorization', type: 'ch:service' });
    if (Date.now() / 1000 >= resetAt) {
      remain = limit;
      resetAt = Math.ceil(Date.now() / 1000) + 300;
    }
    if (remain <= 0) return answer(429, { error: 'Too Many Requests' });
    remain--;
    if (failure !== null) return answer(failure, { error: 'Service unavailable' });
    if (req.method === 'GET' && url.pathname === '/companies') {
      // Timepoints are 1-based positions in `events`; a given timepoint is included.
      const from = Math.max(Number(url.searchParams.get('timepoint') ?? events.length + 1), 1);
      requests.push({ path: `${url.pathname}${url.search}`, status: 200 });
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const event of events.slice(from - 1)) res.write(`${event}\n`);
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    const company = /^\/company\/([A-Za-z0-9]+)$/.exec(url.pathname);
    if (req.method === 'GET' && company) {
      const profile = companies.get(company[1]!);
      return profile ? answer(200, profile) : answer(404, { errors: [{ error: 'company-profile-not-found', type: 'ch:service' }] });
    }
    if (req.method === 'GET' && url.pathname === '/search/companies') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const perPage = Number(url.searchParams.get('items_per_page') ?? 20);
      const found = [...companies.values()].filter((c) => c.company_name.toLowerCase().includes(q));
      return answer(200, {
        kind: 'search#companies',
        items_per_page: perPage,
        start_index: 0,
        total_results: found.length,
        items: found.slice(0, perPage).map((c) => ({
          kind: 'searchresults#company',
          title: c.company_name,
          company_number: c.company_number,
          company_status: c.company_status,
          company_type: c.type,
        })),
      });
    }
    return answer(404, { errors: [{ error: 'not-found', type: 'ch:service' }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    companies,
    requests,
    setBudget(left, resetInSeconds) {
      remain = left;
      resetAt = Math.ceil(Date.now() / 1000) + resetInSeconds;
    },
    failWith(status) {
      failure = status;
    },
    publish(profile, type = 'changed', publishedAt = new Date()) {
      const timepoint = events.length + 1;
      const event = JSON.stringify({
        resource_kind: 'company-profile',
        resource_id: profile.company_number,
        resource_uri: `/company/${profile.company_number}`,
        data: profile,
        event: { timepoint, published_at: publishedAt.toISOString(), type },
      });
      events.push(event);
      for (const stream of streams) stream.write(`${event}\n`);
      return timepoint;
    },
    dropStreams() {
      for (const stream of streams) stream.socket?.destroy();
    },
    openStreams: () => streams.size,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(heartbeat);
        for (const stream of streams) stream.socket?.destroy();
        server.close(() => resolve());
      }),
  };
}
