/**
 * Every GraphQL document the dashboard sends, one file per view: GraphQL Code Generator reads the
 * exports of this module (strings are documents), with the committed supergraph, to generate their
 * result and variable types into ./generated/graphql.ts (`npm run codegen:dashboard`). Documents stay
 * at modest depth and size, well under the gateway's operation limits.
 */
export * from './board-queries.js';
export * from './review-queries.js';
export * from './deliveries-queries.js';
export * from './catalogue-queries.js';
export * from './insights-queries.js';
export * from './console-queries.js';
