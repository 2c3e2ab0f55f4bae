/**
 * The typed REST client of the test suite: openapi-fetch over the types the published client package
 * declares (clients/typescript/src/generated/openapi.ts, `npm run client:generate`), so paths,
 * parameters and bodies are checked by the compiler, and each response by the contract check at run time.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { assertContract } from './openapi-contract.js';
import type { paths } from '../../clients/typescript/src/generated/openapi.js';

export type RestClient = Client<paths>;

const contractCheck: Middleware = {
  async onResponse({ request, response }) {
    if (response.status !== 302)
      assertContract(request.method, request.url, response.status, response.headers.get('content-type'), await response.clone().text());
    return response;
  },
};

export function restClient(baseUrl: string, headers: Record<string, string> = {}): RestClient {
  const client = createClient<paths>({ baseUrl, headers });
  client.use(contractCheck);
  return client;
}
