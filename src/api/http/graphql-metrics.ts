/** Gateway plugin (envelop hooks of the Hive gateway runtime): GraphQL operations by name, with their errors. */
import { getOperationAST, type DocumentNode, type GraphQLError } from 'graphql';
import { recordGraphqlOperation } from '../../infra/metrics.js';

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
    // An operation refused by validation never executes: it is counted here, with its errors.
    onValidate({ params, context }: { params: { documentAST: DocumentNode }; context: { params?: { operationName?: string | null } } }) {
      return ({ valid, result }: { valid: boolean; result: readonly unknown[] }) => {
        if (valid) return;
        const operation = getOperationAST(params.documentAST, context.params?.operationName ?? undefined);
        const name = context.params?.operationName ?? operation?.name?.value;
        recordGraphqlOperation(
          name,
          operation?.operation ?? 'unknown',
          result.map(() => 'GRAPHQL_VALIDATION_FAILED'),
        );
      };
    },
    onExecute({ args }: { args: ExecuteArgs }) {
      return { onExecuteDone: ({ result }: { result: unknown }) => record(args, result) };
    },
    onSubscribe({ args }: { args: ExecuteArgs }) {
      // A subscription counts once, when it starts (its events are not operations).
      return { onSubscribeResult: ({ result }: { result: unknown }) => record(args, Symbol.asyncIterator in Object(result) ? undefined : result) };
    },
  };
}
