/**
 * The request log's shapes, declared once: an entry as the integrator console lists it and the
 * filter it is asked with. Their GraphQL types are derived from these (request-log-resolver.ts).
 */
import { z } from 'zod';

/** The token kinds that name an account, so their requests belong to its log. */
export const LOGGED_CREDENTIAL_KINDS = ['login', 'platform', 'master', 'tenant', 'marketplace_v1'] as const;

export const RequestLogEntry = z
  .strictObject({
    id: z.string().describe('The entry (newest entries have the highest ids)'),
    requestId: z.string().describe('The X-Request-Id the API answered the request with'),
    method: z.string(),
    route: z.string().describe('The route template the request matched (`/api/.../:keyId`), never the raw path'),
    status: z.number().int(),
    latencyMs: z.number().describe('From the request to the end of its response, in milliseconds'),
    credentialKind: z.string().describe('The token kind that authenticated it: login, platform, master, tenant or marketplace_v1'),
    apiKeyId: z.string().nullable().describe('The API key behind the token (platform, master, tenant and Marketplace V1 tokens)'),
    userId: z.string().nullable().describe('The platform user (login tokens)'),
    tenantId: z.string().nullable().describe('The tenant (tenant tokens)'),
    problem: z.string().nullable().describe('The problem-details body (JSON) of a failed request; null for a success, whose body is never stored'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'RequestLogEntry', description: 'One request of the account, as its request log keeps it' });
export type RequestLogEntry = z.infer<typeof RequestLogEntry>;

export const RequestLogPage = z
  .strictObject({
    nodes: z.array(RequestLogEntry),
    endCursor: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'RequestLogPage', description: 'A page of the request log, newest first' });
export type RequestLogPage = z.infer<typeof RequestLogPage>;

const STATUS_CLASSES = ['SUCCEEDED', 'FAILED', 'CLIENT_ERROR', 'SERVER_ERROR'] as const;

export const RequestLogFilter = z
  .strictObject({
    status: z.number().int().min(100).max(599).optional().describe('Exactly this HTTP status'),
    outcome: z
      .enum(STATUS_CLASSES, { message: `must be one of ${STATUS_CLASSES.join(', ')}` })
      .optional()
      .describe('SUCCEEDED (below 400), FAILED (400 and above), CLIENT_ERROR (4xx) or SERVER_ERROR (5xx)'),
    route: z.string().trim().min(1).max(300).optional().describe('Route templates containing this text (case-insensitive)'),
    credential: z.string().trim().min(1).max(64).optional().describe('An API key id, a user id or a token kind'),
    requestId: z.string().trim().min(1).max(200).optional().describe('Exactly this request id'),
    before: z
      .string()
      .regex(/^\d{1,19}$/, 'must be an entry id')
      .optional()
      .describe("Entries older than this one (the previous page's endCursor)"),
    first: z.number().int().min(1).max(200).default(50),
  })
  .meta({ description: 'Which requests to list: every given condition holds' });
export type RequestLogFilter = z.output<typeof RequestLogFilter>;
