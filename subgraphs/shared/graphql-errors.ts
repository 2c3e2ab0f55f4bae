/**
 * The GraphQL error mapper: AppError → GraphQLError with `extensions.code`, the HTTP status it
 * would have on REST, and the failing fields. Anything else is a bug: logged, and answered as
 * INTERNAL without message or stack.
 */
import { GraphQLError } from 'graphql';
import type { MiddlewareFn } from 'type-graphql';
import { AppError, HTTP_STATUS_BY_CODE } from '../../src/domain/errors.js';
import type { ServiceContext } from '../../src/domain/context.js';

export function toGraphQLError(err: unknown, ctx?: Pick<ServiceContext, 'logger'>): GraphQLError {
  if (err instanceof GraphQLError) return err;
  if (err instanceof AppError) {
    return new GraphQLError(err.message, {
      extensions: { code: err.code, status: HTTP_STATUS_BY_CODE[err.code], fields: err.fields, ...err.details },
    });
  }
  ctx?.logger.error({ err }, 'unhandled error in GraphQL resolver');
  return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL', status: 500 } });
}

export const mapAppErrors: MiddlewareFn<ServiceContext> = async ({ context }, next) => {
  try {
    return await next();
  } catch (err) {
    throw toGraphQLError(err, context);
  }
};

/**
 * A @Subscription's `subscribe` runs outside TypeGraphQL's middlewares: this maps its errors
 * (e.g. the access check) the same way.
 */
export function mappedSubscribe<T>(subscribe: (ctx: ServiceContext) => AsyncIterable<T> | Promise<AsyncIterable<T>>) {
  return async ({ context }: { context: unknown }): Promise<AsyncIterable<T>> => {
    try {
      return await subscribe(context as ServiceContext);
    } catch (err) {
      throw toGraphQLError(err, context as ServiceContext);
    }
  };
}
