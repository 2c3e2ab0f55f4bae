/** Gateway plugin (envelop hooks of the Hive gateway runtime): GraphQL operations by name, with their errors. */
import { getOperationAST, type DocumentNode, type GraphQLError } from 'graphql';
import { recordGraphqlOperation } from '../infra/metrics.js';

interface ExecuteArgs {
  document: DocumentNode;
  operationName?: string | null;
}

function errorCodes(errors: readonly GraphQLError[] | undefined): string[] {
  return (errors ?? []).map((e) => String((e.extensions as { code?: unknown } | undefined)?.code ?? 'UNKNOWN'));
}

export function graphqlMetricsPlugin() {
  const record = (args: ExecuteArgs, result: unknown) => {
    const operation = getOperationAST(args.document, args.operationName ?? undefined);
    const name = args.operationName ?? operation?.name?.value;
    recordGraphqlOperation(name, operation?.operation ?? 'unknown', errorCodes((result as { errors?: readonly GraphQLError[] } | undefined)?.errors));
  };
  return {
    onExecute({ args }: { args: ExecuteArgs }) {
      return { onExecuteDone: ({ result }: { result: unknown }) => record(args, result) };
    },
    onSubscribe({ args }: { args: ExecuteArgs }) {
      // A subscription counts once, when it starts (its events are not operations).
      return { onSubscribeResult: ({ result }: { result: unknown }) => record(args, Symbol.asyncIterator in Object(result) ? undefined : result) };
    },
  };
}
