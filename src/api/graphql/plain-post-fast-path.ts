/**
 * The single-process /graphql fast path for the plain POST of a query or mutation Yoga has already
 * validated once: the JSON body the HTTP layer read is parsed here, the document Yoga parsed and
 * validated (with every limit and rule, see local-graphql.ts) is taken from a bounded cache keyed
 * by the query text, and the operation runs through the same server's envelop pipeline (metrics,
 * suggestion blocking, error masking) with the same context builder; the result is written as
 * Yoga's result processor writes it. Skipped are Yoga's Express-to-Fetch request conversion,
 * request parsers, parameter hooks, per-request parse and validation cache look-ups and the Fetch
 * response round trip: measured to be about half of what GraphQL adds to the use cases.
 *
 * Anything else goes on to Yoga unchanged: a query text not yet validated (its first request, so
 * refusals, limits and their metrics are Yoga's own), GET, persisted documents (`extensions`),
 * batches, subscriptions, multipart, an Accept asking for a stream, introspection (its access
 * depends on the caller), any body whose shape is not the plain one. A request handed on keeps the
 * context already being built, so its credential is still verified once.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { processRegularResult, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { getOperationAST, OperationTypeNode, type DocumentNode, type ExecutionResult, type GraphQLError } from 'graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { maskUnexpectedErrors } from './error-masking.js';
import { handOnWithContext, plainParams, type PlainParams } from './plain-graphql-request.js';

/** Distinct query texts kept; a text pushed out is validated by Yoga again on its next request. */
const MAX_DOCUMENTS = 1000;
/** Longer texts (a string literal can be long within the token limit) always go through Yoga: the cache stays small. */
const MAX_CACHED_QUERY_LENGTH = 32 * 1024;

/** Query texts whose documents passed Yoga's parsing and validation, with those documents. */
export class ValidatedDocuments {
  private readonly documents = new Map<string, DocumentNode>();

  /**
   * Records what Yoga validated. Only for texts whose validation is the same for every caller:
   * `callerIndependent` says no for introspection, which is decided per caller.
   */
  plugin(callerIndependent: (query: string) => boolean): Plugin {
    return {
      onValidate: ({ params, context }) => {
        const query = (context as { params?: { query?: unknown } }).params?.query;
        if (typeof query !== 'string' || query.length > MAX_CACHED_QUERY_LENGTH || !callerIndependent(query)) return undefined;
        return ({ valid }) => {
          if (valid) this.remember(query, params.documentAST);
        };
      },
    };
  }

  get(query: string): DocumentNode | undefined {
    const document = this.documents.get(query);
    if (document) {
      // Most recently used last: the oldest entry is the one pushed out.
      this.documents.delete(query);
      this.documents.set(query, document);
    }
    return document;
  }

  private remember(query: string, document: DocumentNode): void {
    if (this.documents.has(query)) return;
    if (this.documents.size >= MAX_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(query, document);
  }
}

type JsonMediaType = 'application/json' | 'application/graphql-response+json';

export function plainPostFastPath(
  yoga: YogaServerInstance<Record<string, unknown>, ServiceContext>,
  documents: ValidatedDocuments,
  contextFor: (headers: IncomingHttpHeaders) => Promise<ServiceContext>,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // Only `/graphql` itself (Yoga answers other paths below it), with the body the HTTP layer read.
    if (req.method !== 'POST' || req.url !== '/' || !Buffer.isBuffer(req.body) || !isJsonContent(req.headers['content-type'])) return next();
    const mediaType = regularMediaTypeOf(req.headers.accept);
    if (!mediaType) return next();
    const params = plainParamsOf(req.body);
    if (!params) return next();
    const document = documents.get(params.query);
    if (!document) return next();
    const operation = getOperationAST(document, params.operationName ?? undefined);
    if (!operation || operation.operation === OperationTypeNode.SUBSCRIPTION) return next();

    const building = contextFor(req.headers);
    building
      .then(
        (serviceContext) => {
          // Shaped as Yoga's context is: the initial context with the ServiceContext's fields assigned over it.
          const contextValue: object = Object.assign({ req, res, params }, serviceContext);
          const enveloped = yoga.getEnveloped(contextValue as Record<string, unknown>);
          return new Promise<unknown>((resolve) => {
            resolve(
              enveloped.execute({ schema: enveloped.schema, document, contextValue, variableValues: params.variables, operationName: params.operationName }),
            );
          }).then(
            (result) => send(res, result as ExecutionResult, mediaType, yoga.fetchAPI),
            // What Yoga answers when execution itself throws: the error through the same masking.
            (error: unknown) => send(res, { errors: [maskUnexpectedErrors(error) as GraphQLError] }, mediaType, yoga.fetchAPI),
          );
        },
        () => {
          // Yoga answers a refused credential as it always has, from this same verification.
          handOnWithContext(req, building);
          next();
        },
      )
      .catch(next);
  };
}

async function send(res: Response, result: ExecutionResult, mediaType: JsonMediaType, fetchAPI: YogaServerInstance<object, object>['fetchAPI']): Promise<void> {
  if (!result.errors?.length && !result.extensions) {
    // What Yoga's result processor writes for a result without errors: 200, the JSON, its media type.
    const body = JSON.stringify(result);
    res.writeHead(200, { 'content-type': `${mediaType}; charset=utf-8`, 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  // Errors decide the status and lose Yoga's internal extensions: Yoga's own processor does it.
  const response = processRegularResult(result, fetchAPI, mediaType);
  const body = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] ??= String(Buffer.byteLength(body));
  res.writeHead(response.status, headers);
  res.end(body);
}

/** The content types Yoga's JSON request parser takes (its first listed type only). */
function isJsonContent(contentType: string | undefined): boolean {
  const first = contentType?.split(',')[0];
  if (!first) return false;
  return ['application/json', 'application/graphql+json'].some((type) => first === type || first.startsWith(`${type};`));
}

/** Yoga's result processors for a single result, in its order (use-result-processor.ts); only the last answers in JSON. */
const PROCESSORS: ReadonlyArray<readonly string[]> = [['text/event-stream'], ['multipart/mixed'], ['application/graphql-response+json', 'application/json']];

/**
 * The media type Yoga would answer a single result in (its result processors matched against
 * Accept the way it matches them, the last match winning), when that is one of the JSON ones.
 * A stream (SSE, multipart) or no acceptable type at all is Yoga's to answer.
 */
export function regularMediaTypeOf(accept: string | undefined): JsonMediaType | undefined {
  // What almost every client sends, answered without the walk below (same answer).
  if (accept === undefined || accept === 'application/json' || accept === '*/*') return 'application/json';
  const asked: string[] = [];
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...parameters] = entry.split(';');
    if (mediaType === undefined) continue;
    const charset = parameters.find((p) => p.includes('charset=')) || 'charset=utf-8';
    if (charset === 'charset=utf-8') asked.push(mediaType);
  }
  asked.reverse();
  let chosen: string | undefined;
  for (const offeredTypes of PROCESSORS) {
    for (const askedType of asked) {
      for (const offered of offeredTypes) if (accepts(askedType, offered)) chosen = offered;
    }
  }
  return chosen === 'application/json' || chosen === 'application/graphql-response+json' ? chosen : undefined;
}

/** Whether the asked type (wildcards allowed) covers the offered one. */
function accepts(asked: string, offered: string): boolean {
  const [offeredType, offeredSubtype] = offered.split('/');
  const [type, subtype] = asked.split('/');
  return (type === '*' || type === offeredType) && (subtype === '*' || subtype === offeredSubtype);
}

function plainParamsOf(body: Buffer): PlainParams | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  return plainParams(parsed);
}
