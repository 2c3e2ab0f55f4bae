/** Thin adapter: the integrator console's request log over request-log-service. */
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { listRequestLog } from './request-log-service.js';
import {
  RequestLogFilter as RequestLogFilterSchema,
  RequestLogPage as RequestLogPageSchema,
  type RequestLogPage as RequestLogPageResult,
} from './request-log-schemas.js';

const RequestLogPage = objectTypeFrom(RequestLogPageSchema);
const RequestLogFilter = inputTypeFrom(RequestLogFilterSchema, { name: 'RequestLogFilter', exactName: true });

/** An explicit null means "not given", as an absent field does. */
const given = (filter: object | null | undefined) =>
  Object.fromEntries(Object.entries(filter ?? {}).filter(([, value]) => value !== null && value !== undefined));

@Resolver()
export class RequestLogResolver {
  @Query(() => RequestLogPage, { description: "The signed-in user's account's recent API requests, newest first (account admins)" })
  requestLog(
    @Arg('filter', () => RequestLogFilter, { nullable: true }) filter: Record<string, unknown> | null,
    @Ctx() ctx: ServiceContext,
  ): Promise<RequestLogPageResult> {
    return listRequestLog(ctx, given(filter));
  }
}
