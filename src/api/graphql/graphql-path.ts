/** Where every process serves GraphQL, over HTTP and graphql-ws alike: the gateway, the subgraphs, the single process (which mounts it before loading the GraphQL stack, hence a module of its own), and the HTTP layers in front of them. */
export const GRAPHQL_PATH = '/graphql';
