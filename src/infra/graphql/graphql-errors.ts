/**
 * The GraphQL error mapper: AppError → GraphQLError with `extensions.code`, the HTTP status it
 * would have on REST, and the failing fields. Anything else is a bug: logged, and answered as
 * INTERNAL without message or stack.
 */
import { GraphQLError } from 'graphql';
import { AppError, HTTP_STATUS_BY_CODE } from '../../kernel/errors.js';
import type { ServiceContext } from '../../kernel/context.js';
import { databaseError } from '../prisma-errors.js';

export function toGraphQLError(err: unknown, ctx?: Pick<ServiceContext, 'logger'>): GraphQLError {
  if (err instanceof GraphQLError) return err;
  const appError = err instanceof AppError ? err : databaseError(err);
  if (appError && !(err instanceof AppError))
    ctx?.logger.warn(
      { err },
      appError.code === 'SERVICE_UNAVAILABLE' ? 'the database was unavailable to a GraphQL operation' : 'a database constraint refused a GraphQL operation',
    );
  if (appError) {
    return new GraphQLError(appError.message, {
      extensions: { code: appError.code, status: HTTP_STATUS_BY_CODE[appError.code], fields: appError.fields, ...appError.details },
    });
  }
  ctx?.logger.error({ err }, 'unhandled error in GraphQL resolver');
  return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL', status: 500 } });
}

/**
 * A @Subscription's `subscribe` is not among the resolvers whose errors the schema build maps
 * (src/api/graphql/build-federated-schema.ts): this maps its errors (e.g. the access check) the same way.
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
