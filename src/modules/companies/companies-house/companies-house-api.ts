/**
 * The Companies House public data API as a company-data source: `GET /company/{number}` for a
 * number the local register does not hold, `GET /search/companies` when the register has no hit.
 * HTTP basic authentication with the API key as the user name and no password.
 *
 * The key's budget (600 requests a 5-minute window) is read from every answer's X-Ratelimit-Remain
 * and X-Ratelimit-Reset (epoch seconds): with nothing left, search does not ask at all (it answers
 * from the register), and a lookup waits for the reset when that is within `maxWaitMs`, else it
 * gives up. A 429 marks the budget spent until its reset. Consecutive failures (5xx, timeouts,
 * refused connections) open a circuit for `circuitOpenMs`, during which nothing is sent.
 */
import type { Logger } from '../../../infra/logger.js';
import type { CompanyDataSource, SearchHit } from '../company-registry.js';
import type { RegisterAddress, RegisterFacts } from '../register-facts.js';
import { companyStatusCode, companyStatusOf, companyTypeCode, companyTypeOf, sectorOf, sicCodeOf } from './code-lists.js';

export interface CompaniesHouseApiOptions {
  baseUrl: string;
  apiKey: string;
  /** Each request's time limit. */
  timeoutMs: number;
  /** The longest a lookup waits for the budget's reset (search never waits). */
  maxWaitMs: number;
  /** Failures in a row that open the circuit, and how long it stays open. */
  failuresToOpen?: number;
  circuitOpenMs?: number;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

/** The profile fields read (the API's companyProfile resource). */
export interface CompanyProfile {
  company_name?: string;
  company_number?: string;
  company_status?: string;
  type?: string;
  date_of_creation?: string;
  sic_codes?: string[];
  previous_company_names?: Array<{ name?: string; ceased_on?: string }>;
  registered_office_address?: {
    care_of?: string;
    po_box?: string;
    premises?: string;
    address_line_1?: string;
    address_line_2?: string;
    locality?: string;
    region?: string;
    postal_code?: string;
    country?: string;
  };
}

interface SearchResults {
  items?: Array<{ title?: string; company_number?: string }>;
}

/** Why a request was not answered: the budget is spent until `until`, or the circuit is open. */
class CompaniesHouseUnavailable extends Error {
  constructor(
    message: string,
    readonly until: number,
  ) {
    super(message);
  }
}

export interface CompaniesHouseApi extends CompanyDataSource {
  /** What the source knows of its budget and circuit (readiness details, tests). */
  state(): { remaining: number | null; resetAt: number | null; circuitOpenUntil: number | null };
}

export function companiesHouseApi(options: CompaniesHouseApiOptions): CompaniesHouseApi {
  const authorization = `Basic ${Buffer.from(`${options.apiKey}:`).toString('base64')}`;
  const failuresToOpen = options.failuresToOpen ?? 5;
  const circuitOpenMs = options.circuitOpenMs ?? 30_000;
  let remaining: number | null = null;
  let resetAt: number | null = null;
  let failures = 0;
  let circuitOpenUntil: number | null = null;

  const budgetSpentUntil = (): number | null => (remaining !== null && remaining <= 0 && resetAt !== null && resetAt > Date.now() ? resetAt : null);
  const blockedUntil = (): number | null => {
    const circuit = circuitOpenUntil !== null && circuitOpenUntil > Date.now() ? circuitOpenUntil : null;
    return circuit ?? budgetSpentUntil();
  };

  function readBudget(res: Response): void {
    const remain = Number(res.headers.get('x-ratelimit-remain'));
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    if (res.headers.has('x-ratelimit-remain') && Number.isFinite(remain)) remaining = remain;
    if (res.headers.has('x-ratelimit-reset') && Number.isFinite(reset)) resetAt = reset * 1000;
  }

  function failed(err: unknown): never {
    failures++;
    if (failures >= failuresToOpen && circuitOpenUntil === null) {
      circuitOpenUntil = Date.now() + circuitOpenMs;
      options.logger?.warn({ err, failures }, 'Companies House API failing: not asked for a while');
    }
    throw err;
  }

  /** One GET; null for 404. Waits for the budget's reset only when `wait` allows. */
  async function get<T>(path: string, wait: boolean): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      const until = blockedUntil();
      if (until !== null) {
        const circuit = circuitOpenUntil !== null && circuitOpenUntil > Date.now();
        // A lookup waits at most twice: for a budget known spent, then after a 429.
        if (circuit || !wait || attempt > 1 || until - Date.now() > options.maxWaitMs) {
          throw new CompaniesHouseUnavailable(circuit ? 'the Companies House API is failing' : 'the Companies House API budget is spent', until);
        }
        await new Promise((resolve) => setTimeout(resolve, until - Date.now()));
      }
      if (circuitOpenUntil !== null && circuitOpenUntil <= Date.now()) circuitOpenUntil = null;
      let res: Response;
      try {
        res = await fetch(new URL(path, options.baseUrl), {
          headers: { authorization, accept: 'application/json' },
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (err) {
        failed(err);
      }
      readBudget(res);
      if (res.status === 429) {
        // Spent: nothing is sent until the reset the answer names (or a window from now, when it names none).
        remaining = 0;
        if (resetAt === null || resetAt <= Date.now()) resetAt = Date.now() + 300_000;
        options.logger?.info({ resetAt: new Date(resetAt).toISOString() }, 'Companies House API rate limit reached');
        await res.body?.cancel();
        continue;
      }
      if (res.status >= 500) {
        await res.body?.cancel();
        failed(new Error(`Companies House API answered ${res.status} to ${path}`));
      }
      failures = 0;
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`Companies House API answered ${res.status} to ${path}`);
      }
      return (await res.json()) as T;
    }
  }

  return {
    name: 'companies-house-api',

    async lookup(registrationNumber, countryCode) {
      if (countryCode !== 'GB' || !/^[A-Z0-9]{8}$/.test(registrationNumber)) return null;
      try {
        const profile = await get<CompanyProfile>(`/company/${encodeURIComponent(registrationNumber)}`, true);
        return profile ? factsOfProfile(profile, registrationNumber) : null;
      } catch (err) {
        options.logger?.warn({ err, registrationNumber }, 'Companies House API lookup not answered');
        throw err;
      }
    },

    async search(term, limit) {
      if (blockedUntil() !== null) return null;
      const query = new URLSearchParams({ q: term, items_per_page: String(limit), start_index: '0' });
      try {
        const results = await get<SearchResults>(`/search/companies?${query}`, false);
        return (results?.items ?? []).flatMap((item): SearchHit[] =>
          item.title && item.company_number ? [{ name: item.title, number: item.company_number }] : [],
        );
      } catch {
        return null;
      }
    },

    state: () => ({ remaining, resetAt, circuitOpenUntil }),
  };
}

/** The API's company profile as register facts (the same mapping as the bulk file's). */
export function factsOfProfile(profile: CompanyProfile, asked: string): RegisterFacts | null {
  const number = (profile.company_number ?? asked).toUpperCase();
  if (!profile.company_name) return null;
  const registerType = profile.type ? companyTypeCode(profile.type) : null;
  const registerStatus = profile.company_status ? companyStatusCode(profile.company_status) : null;
  const sicCodes = (profile.sic_codes ?? []).flatMap((code) => sicCodeOf(code) ?? []);
  const created = profile.date_of_creation && /^\d{4}-\d{2}-\d{2}$/.test(profile.date_of_creation) ? new Date(`${profile.date_of_creation}T00:00:00Z`) : null;
  return {
    countryCode: 'GB',
    registrationNumber: number,
    name: profile.company_name,
    type: companyTypeOf(registerType),
    registerType,
    status: companyStatusOf(registerStatus),
    registerStatus,
    sector: sectorOf(sicCodes),
    sicCodes,
    incorporatedAt: created,
    address: registeredOffice(profile.registered_office_address),
    previousNames: (profile.previous_company_names ?? []).flatMap((previous) => (previous.name ? [previous.name] : [])),
  };
}

function registeredOffice(office: CompanyProfile['registered_office_address']): RegisterAddress | null {
  if (!office) return null;
  const firstLine = [office.premises, office.address_line_1].filter(Boolean).join(' ');
  const street = [office.care_of && `C/O ${office.care_of}`, office.po_box && `PO BOX ${office.po_box}`, firstLine, office.address_line_2]
    .filter(Boolean)
    .join(', ');
  const simpleValue = [street, office.locality, office.region, office.postal_code].filter(Boolean).join(', ');
  if (!simpleValue) return null;
  return {
    simpleValue,
    ...(street ? { street } : {}),
    ...(office.locality ? { city: office.locality } : {}),
    ...(office.region ? { province: office.region } : {}),
    ...(office.postal_code ? { postalCode: office.postal_code } : {}),
  };
}
