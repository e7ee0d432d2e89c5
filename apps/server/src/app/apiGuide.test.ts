import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApiClient } from '../modules/identity/index.js';
import { readContract } from '../test/contract/contractSamples.js';
import { startIssuerServer } from '../test/identity.js';
import { sendingAccount } from '../test/sendingFixtures.js';
import type { TestServer } from '../test/server.js';
import { curlOf, HOSTED_API_TAG, hostedApiOperations, operationExamples, operationKey, type OperationExample } from './apiGuide.js';

/*
 * The reference at /docs: the hosted contract's operations are tagged, and every example it shows works as
 * written against a running server (docs/api.md, "The reference").
 */

const contract = readContract(new URL('../test/contract/hostedApiV1.json', import.meta.url));

/** The contract's `/v1/accounts/{accountId}/contacts/{contactId}` and ours `/v1/accounts/{acc}/contacts/{id}` alike. */
const shapeOf = (key: string): string => key.replace(/\{[^}]+\}/g, '{}');

type Operations = Record<string, Record<string, { tags?: string[]; description?: string; requestBody?: { content?: Record<string, { example?: unknown }> } }>>;

describe('the API reference', () => {
  let server: TestServer;
  let accountId = '';
  let paths: Operations = {};
  const client = { clientId: randomUUID(), secret: `${randomUUID()}${randomUUID()}` };

  beforeAll(async () => {
    server = await startIssuerServer('pglite');
    const account = await sendingAccount(server.database.db, { balance: '20' });
    accountId = account.accountId;
    await registerApiClient(server.database.db, { ...client, accountId });
    const document = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as { paths: Operations };
    paths = document.paths;
  });
  afterAll(async () => {
    await server.stop();
  });

  const tagged = (): string[] =>
    Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.tags?.includes(HOSTED_API_TAG))
        .map(([method]) => operationKey(method, path)),
    );

  it("tags exactly the hosted contract's operations", () => {
    const documented = contract.operations.map((operation) => shapeOf(`${operation.method} ${operation.path}`)).sort();
    expect([...hostedApiOperations].map(shapeOf).sort()).toEqual(documented);
    expect(tagged().sort()).toEqual([...hostedApiOperations].sort());
  });

  it('shows each example on its operation, as a curl line and as the body example', () => {
    for (const example of operationExamples) {
      const [method = '', path = ''] = example.operation.split(' ');
      const operation = paths[path]?.[method.toLowerCase()];
      expect(operation, example.operation).toBeDefined();
      expect(operation?.description).toContain(curlOf(example, server.baseUrl));
      if (example.body) expect(operation?.requestBody?.content?.['application/json']?.example).toEqual(example.body);
    }
  });

  /** Sends an example as its curl line does, with this test's client, token and account filled in. */
  async function send(example: OperationExample, token: string): Promise<Response> {
    const [method = 'GET', path = '/'] = example.operation.split(' ');
    const body =
      path === '/oauth2/token' ? { ...example.body, client_id: client.clientId, client_secret: client.secret } : example.body;
    return fetch(`${server.baseUrl}${path.replace('{acc}', accountId)}${example.query ? `?${example.query}` : ''}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  }

  it('answers every example as written', async () => {
    const [tokenExample, ...rest] = operationExamples;
    expect(tokenExample?.operation).toBe('POST /oauth2/token');
    const tokenAnswer = await send(tokenExample as OperationExample, '');
    expect(tokenAnswer.status).toBe(200);
    const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
    for (const example of rest) {
      const answer = await send(example, token);
      expect(answer.status, `${example.operation}: ${await answer.clone().text()}`).toBeLessThan(300);
    }
  });

  it('refuses an example sent without its token, so the examples prove the authenticated path', async () => {
    const contacts = operationExamples.find((example) => example.operation === 'GET /v1/accounts/{acc}/contacts');
    expect((await send(contacts as OperationExample, '')).status).toBe(401);
  });
});
