/**
 * Contract checks: every REST response the shared test clients receive is validated against the
 * OpenAPI document generated from the code (status declared for the operation, body valid against
 * that status's schema). A response outside the contract fails the test that received it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { buildOpenApiDocument } from '../../src/api/rest/openapi-document.js';

type Operation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: unknown };

let compiled: { document: Document; ajv: Ajv2020; matchers: Array<{ pattern: RegExp; path: string; methods: Record<string, Operation> }> } | undefined;

function contract() {
  if (compiled) return compiled;
  const document = buildOpenApiDocument() as unknown as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  const matchers = Object.entries(document.paths)
    // Literal segments first (e.g. /applications/validate-continue-url before /applications/{id}/…).
    .sort(([a], [b]) => parameterCount(a) - parameterCount(b))
    .map(([path, methods]) => ({ pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[A-Za-z]+\}/g, '[^/]+')}$`), path, methods }));
  compiled = { document, ajv, matchers };
  return compiled;
}

const parameterCount = (path: string) => path.split('{').length - 1;

const validators = new Map<string, ValidateFunction>();
const DOCUMENT_ID = 'https://funding-gateway.invalid/openapi.json';

export interface ContractViolation {
  method: string;
  path: string;
  status: number;
  message: string;
}

/** Undefined when the response fits the document (or is not one of the documented REST paths). */
export function contractViolation(method: string, url: string, status: number, contentType: string | null, bodyText: string): ContractViolation | undefined {
  const path = new URL(url, 'http://host.invalid').pathname;
  const { ajv, matchers } = contract();
  const match = matchers.find((m) => m.pattern.test(path) && m.methods[method.toLowerCase()]);
  // Outside the REST bases, only the operations the document has (the identity provider's) are held to it.
  if (!path.startsWith('/api/') && !match) return undefined;
  const violation = (message: string) => ({ method, path, status, message });
  // A path or method the API does not have is answered 404/405 as problem details (checked below).
  const operation = match?.methods[method.toLowerCase()];
  const responses = operation?.responses ?? {
    default: { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } } },
  };
  const response = responses[String(status)] ?? (status >= 400 ? responses.default : undefined);
  if (!response) return violation(`status ${status} is not declared for ${method} ${match?.path ?? path}`);
  if (!response.content) return bodyText === '' ? undefined : violation(`a ${status} of ${match?.path} has no body, but one was sent`);
  const mediaType = (contentType ?? '').split(';')[0]!.trim();
  const declared = response.content[mediaType];
  if (!declared) return violation(`content type ${mediaType || '(none)'} is not declared (${Object.keys(response.content).join(', ')})`);
  if (!mediaType.endsWith('json')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return violation('the body is not JSON');
  }
  const key = `${match?.path ?? '*'} ${method} ${status} ${mediaType}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `https://funding-gateway.invalid/responses/${validators.size}`,
      ...rewriteToDocument(declared.schema),
    } as object);
    validators.set(key, validate);
  }
  if (validate(body)) return undefined;
  return violation(ajv.errorsText(validate.errors, { separator: '; ' }) + ` in ${bodyText.slice(0, 300)}`);
}

/** The document's local refs (#/components/…) point into the schema registered as DOCUMENT_ID. */
function rewriteToDocument(schema: unknown): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOCUMENT_ID}${v}` : walk(v)]),
    );
  };
  return walk(schema) as Record<string, unknown>;
}

/** Throws, failing the test, when a response breaks the contract. */
export function assertContract(method: string, url: string, status: number, contentType: string | null, bodyText: string): void {
  const violation = contractViolation(method, url, status, contentType, bodyText);
  if (violation)
    throw new Error(`REST response outside the OpenAPI document: ${violation.method} ${violation.path} → ${violation.status}: ${violation.message}`);
}

/**
 * fetch, then the contract check of the response (its body read from a clone, so the caller reads
 * it as usual). The shared test clients send their requests through it.
 */
export async function contractFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, init);
  if (res.status === 302 || !new URL(url).pathname.startsWith('/api/')) return res;
  const text = await res.clone().text();
  assertContract(init.method ?? 'GET', url, res.status, res.headers.get('content-type'), text);
  return res;
}
