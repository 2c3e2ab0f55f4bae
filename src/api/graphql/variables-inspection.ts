/**
 * GraphQL variables get the look REST bodies get (src/kernel/json-inspection.ts) before the
 * operation is parsed, validated or coerced: nesting and size within the JSON limits, and no text
 * PostgreSQL cannot store. Over HTTP and graphql-ws alike (both pass onParams).
 */
import type { Plugin } from '@envelop/core';
import { inspectJson, unstorableTextRefusal } from '../../kernel/json-inspection.js';
import { toGraphQLError } from '../../infra/graphql/graphql-errors.js';

export function variablesInspectionPlugin(): Plugin {
  return {
    onParams({ params }: { params: { variables?: unknown } }) {
      if (params.variables === undefined || params.variables === null) return;
      try {
        const { unstorableText } = inspectJson(params.variables, '/variables', 'The variables');
        if (unstorableText.length > 0) throw unstorableTextRefusal(unstorableText);
      } catch (err) {
        throw toGraphQLError(err);
      }
    },
  } as Plugin;
}
