/**
 * The console's calls of the Lender Application API (REST, as a lender's own servers make them),
 * typed by the OpenAPI document's generated types, with the signed-in lender's bearer. A 401 means
 * the session ended (expired or credentials rotated): the caller returns to sign-in.
 */
import type { components, operations } from '../../clients/typescript/src/generated/openapi.js';

/** The JSON body an operation answers with 200. */
type Answer<Operation extends keyof operations> = operations[Operation]['responses'] extends { 200: { content: { 'application/json': infer Body } } }
  ? Body
  : never;

export type ApplicationDocument = components['schemas']['FundingApplication'];
export type Delivery = components['schemas']['LenderDelivery'];
export type DeliveryPage = Answer<'LenderDeliveryController_list'>;
export type ReplayResult = Answer<'LenderDeliveryController_replay'>;
export type EndpointTestResult = Answer<'LenderEndpointController_test'>;
export type ApplicationTotals = Answer<'LenderApplicationController_totals'>;
export type Endpoint = components['schemas']['LenderEndpoint'];
export type Endpoints = Answer<'LenderEndpointController_list'>;
export type RotatedSecret = Answer<'LenderEndpointController_rotateSecret'>;

const LENDER_API = '/api/platform/v1/funding';

export interface FieldProblem {
  pointer: string;
  message: string;
}

/** A refusal as the API words it (problem details), with the fields it names. */
export class ApiProblem extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: FieldProblem[],
  ) {
    super(message);
  }
}

/** The token was refused: expired, or the lender's credentials changed. */
export class SessionEnded extends Error {}

async function send(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${LENDER_API}${path}`, {
    method,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status === 401) throw new SessionEnded('Your session has ended: sign in again.');
  if (!res.ok) {
    const problem = (await res.json().catch(() => ({}))) as { title?: string; detail?: string; errors?: FieldProblem[] };
    throw new ApiProblem(problem.detail ?? problem.title ?? `The API answered ${res.status}`, res.status, problem.errors ?? []);
  }
  return res;
}

export async function lenderApi<T>(token: string, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
  return (await (await send(token, method, path, body)).json()) as T;
}

/** A query string of the values given (empty ones left out). */
export function queryOf(values: Record<string, string | number | undefined>): string {
  const entries = Object.entries(values).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '');
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : '';
}

/**
 * Downloads an application's document with the bearer (a plain link could not carry it) and hands
 * it to the browser as a file of its own name. `url` is the attachment's, on this origin's API.
 */
export async function downloadDocument(token: string, url: string, fileName: string): Promise<void> {
  const path = new URL(url, location.origin).pathname;
  const res = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
  if (res.status === 401) throw new SessionEnded('Your session has ended: sign in again.');
  if (!res.ok) throw new ApiProblem(`The document could not be downloaded (${res.status})`, res.status, []);
  const href = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
