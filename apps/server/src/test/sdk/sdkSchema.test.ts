import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server.js';

/*
 * The SDK's types (packages/sdk/src/schema.ts) are generated from the API's own /v1/openapi.json, and this
 * test is their generator: it fails when a route's schema changed and the SDK did not follow. To write them
 * again: `npm run sdk:generate` (this file with `--update`).
 */

describe('the SDK follows the API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('holds the types generated from /v1/openapi.json', async () => {
    const document = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as OpenAPI3;
    const source = astToString(await openapiTS(document, { alphabetize: true, rootTypes: true, defaultNonNullable: false }));
    const header = `${COMMENT_HEADER}// Generated from Parley's /v1/openapi.json by \`npm run sdk:generate\`.\n\n`;
    await expect(header + source).toMatchFileSnapshot('../../../../../packages/sdk/src/schema.ts');
  });
});
