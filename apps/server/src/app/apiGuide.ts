/*
 * What the API reference at /docs adds to the document the routes generate: which operations also answer
 * the hosted product's REST API v1 (tagged, so a team moving to Parley finds them together) and a worked
 * example for the common calls: the request body as a schema example and a curl line in the description.
 * Every example here is sent to a running server by apiGuide.test.ts, so none can drift from the API
 * (docs/api.md, "The reference").
 */

export const HOSTED_API_TAG = 'Hosted API v1 compatible';

/** The operations of the hosted product's contract, as Parley's routes name them (docs/api.md). */
export const hostedApiOperations: readonly string[] = [
  'POST /oauth2/token',
  'GET /v1/accounts/{acc}/campaigns',
  'POST /v1/accounts/{acc}/campaigns',
  'GET /v1/accounts/{acc}/campaigns/{id}',
  'PUT /v1/accounts/{acc}/campaigns/{id}',
  'DELETE /v1/accounts/{acc}/campaigns/{id}',
  'GET /v1/accounts/{acc}/contacts',
  'POST /v1/accounts/{acc}/contacts',
  'GET /v1/accounts/{acc}/contacts/{id}',
  'PUT /v1/accounts/{acc}/contacts/{id}',
  'DELETE /v1/accounts/{acc}/contacts/{id}',
  'GET /v1/accounts/{acc}/conversations',
  'GET /v1/accounts/{acc}/conversations/{id}',
  'PUT /v1/accounts/{acc}/conversations/{id}/close',
  'GET /v1/accounts/{acc}/messages',
  'POST /v1/accounts/{acc}/messages',
  'GET /v1/accounts/{acc}/messages/{id}',
  'GET /v1/accounts/{acc}/templates',
  'POST /v1/accounts/{acc}/templates',
  'GET /v1/accounts/{acc}/templates/{id}',
  'PUT /v1/accounts/{acc}/templates/{id}',
  'DELETE /v1/accounts/{acc}/templates/{id}',
  'GET /v1/accounts/{acc}/webhooks',
  'POST /v1/accounts/{acc}/webhooks',
  'DELETE /v1/accounts/{acc}/webhooks/{url}',
  'POST /v1/tools/sharefile',
];

export interface OperationExample {
  /** `METHOD /path` as the route is registered. */
  operation: string;
  /** What the example does, one line. */
  title: string;
  /** The query string the curl line adds, without `?`. */
  query?: string;
  /** The JSON body sent. */
  body?: Record<string, unknown>;
}

/**
 * `{acc}` in a path is the account's id, `$TOKEN` the bearer token of `POST /oauth2/token`. Numbers are
 * from the ranges kept for fiction (+1 202-555-01xx), so no one is texted by a copied example.
 */
export const operationExamples: readonly OperationExample[] = [
  {
    operation: 'POST /oauth2/token',
    title: "An API client's access token (client credentials; a form body or Basic auth works too)",
    body: { grant_type: 'client_credentials', client_id: 'YOUR_CLIENT_ID', client_secret: 'YOUR_CLIENT_SECRET' },
  },
  {
    operation: 'POST /v1/accounts/{acc}/contacts',
    title: 'Add a contact',
    body: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      mobile: { number: '+12025550143', country: 'US' },
      email: 'ada@example.com',
      tags: ['customer'],
      attributes: { plan: 'gold' },
    },
  },
  {
    operation: 'GET /v1/accounts/{acc}/contacts',
    title: 'The first page of contacts; ask for the next with ?after=<pagination.next>',
    query: 'limit=25',
  },
  {
    operation: 'POST /v1/accounts/{acc}/messages',
    title: 'Text a number (its contact is found, or added in the same transaction)',
    body: {
      contacts: [{ mobile: { number: '+12025550188', country: 'US' }, firstName: 'Grace' }],
      template: 'Hi {{{firstName}}}, your order is ready for pickup.',
    },
  },
  {
    operation: 'POST /v1/accounts/{acc}/templates',
    title: 'Save a template',
    body: { name: 'Order ready', type: 'SMS', template: 'Hi {{{firstName}}}, your order is ready for pickup.' },
  },
  {
    operation: 'POST /v1/accounts/{acc}/campaigns',
    title: "A manual campaign with the account's defaults (the hosted product's minimal campaign)",
    body: {
      name: 'Spring sale',
      trigger: { code: 'M' },
      template: 'Hi {{{firstName}}}, 20% off this week. Reply STOP to opt out.',
      reporting: { when: 'NoReport' },
    },
  },
  {
    operation: 'POST /v1/accounts/{acc}/webhooks',
    title: 'Subscribe a URL to events (the answer carries its signing secret, once)',
    body: { url: 'https://hooks.example.com/parley', eventTypes: ['message-received', 'message-status'] },
  },
];

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation's key as hostedApiOperations and operationExamples write it. */
export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

export function curlOf(example: OperationExample, baseUrl: string): string {
  const [method = 'GET', path = '/'] = example.operation.split(' ');
  const url = `${baseUrl}${path.replace('{acc}', '$ACCOUNT_ID')}${example.query ? `?${example.query}` : ''}`;
  const lines = [`curl -X ${method} "${url}"`];
  if (path !== '/oauth2/token') lines.push('  -H "Authorization: Bearer $TOKEN"');
  if (example.body) {
    lines.push('  -H "Content-Type: application/json"');
    lines.push(`  -d '${JSON.stringify(example.body)}'`);
  }
  return lines.join(' \\\n');
}

function describeExample(operation: JsonObject, example: OperationExample, baseUrl: string): void {
  const sample = `**Example: ${example.title}**\n\n\`\`\`sh\n${curlOf(example, baseUrl)}\n\`\`\``;
  const description = typeof operation.description === 'string' ? `${operation.description}\n\n` : '';
  operation.description = `${description}${sample}`;
  const content = isObject(operation.requestBody) && isObject(operation.requestBody.content) ? operation.requestBody.content : null;
  const json = content && isObject(content['application/json']) ? content['application/json'] : null;
  if (json && example.body) json.example = example.body;
}

/** Tags the hosted contract's operations and writes the examples into the generated document, in place. */
export function addApiGuide<T extends object>(document: T, baseUrl: string): T {
  const root = document as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const hosted = new Set(hostedApiOperations);
  const examples = new Map(operationExamples.map((example) => [example.operation, example]));
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation)) continue;
      const key = operationKey(method, path);
      if (hosted.has(key)) {
        const tags = Array.isArray(operation.tags) ? (operation.tags as unknown[]) : [];
        operation.tags = [...tags, HOSTED_API_TAG];
      }
      const example = examples.get(key);
      if (example) describeExample(operation, example, baseUrl);
    }
  }
  return document;
}
