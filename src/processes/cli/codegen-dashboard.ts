/** `npm run codegen:dashboard`: regenerates the dashboard's GraphQL types from the committed supergraph. */
import { DASHBOARD_GRAPHQL_TYPES_PATH, writeDashboardGraphqlTypes } from './dashboard-graphql-types.js';

const changed = await writeDashboardGraphqlTypes();
console.log(changed ? `wrote ${DASHBOARD_GRAPHQL_TYPES_PATH}` : `${DASHBOARD_GRAPHQL_TYPES_PATH} is up to date`);
