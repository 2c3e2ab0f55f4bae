import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateOpenApiTypes, OPENAPI_TYPES_FILE } from '../src/processes/cli/openapi-types.js';

// When this fails, the REST API changed: run `npm run openapi:types` and commit the result.
describe('committed OpenAPI client types', () => {
  it('test/support/openapi-types.ts matches the document generated from the code', async () => {
    expect(await generateOpenApiTypes()).toBe(await readFile(OPENAPI_TYPES_FILE, 'utf8'));
  });
});
