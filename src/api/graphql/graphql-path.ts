/** Where every process serves GraphQL, over HTTP and graphql-ws alike (a module of its own: the single process mounts it before loading the GraphQL stack). */
export const GRAPHQL_PATH = '/graphql';
