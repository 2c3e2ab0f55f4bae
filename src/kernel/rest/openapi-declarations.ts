/**
 * What the OpenAPI document declares beside the REST rows (route-definition.ts): the webhooks the
 * gateway sends (OpenAPI 3.1 `webhooks`), each declared by the module that sends it, and operations
 * served outside the REST router (the identity provider's, whose errors are RFC 6749's, not problem
 * details), each declared beside its handler. Their schemas are the ones the code sends and parses.
 */
import type { z } from 'zod';
import type { HttpMethod } from './route-definition.js';

export interface WebhookDefinition {
  /** The event type (`webhook-event-type`), which names the webhook in the document. */
  eventType: string;
  operationId: string;
  summary: string;
  /** Markdown: when it is sent, where, and what the receiver does with it. */
  description: string;
  /** The JSON body, as the code declares what it sends. */
  body: z.ZodType;
  /** Who receives it: a lender (unless said), or an integrator account's endpoints. */
  audience?: 'integrator';
}

export interface OperationResponse {
  description: string;
  /** The body's schema by media type (absent: no body). */
  content?: Record<string, z.ZodType>;
}

export interface OperationServedElsewhere {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The request body's schema and the media types it is taken in. */
  body?: { schema: z.ZodType; mediaTypes: readonly string[] };
  responses: Record<string, OperationResponse>;
}
