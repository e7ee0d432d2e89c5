import fs from 'node:fs';

/*
 * The hosted product's REST API v1 as it publishes it (hostedApiV1.json, an OpenAPI 3.0 document with a
 * curl sample for most operations; docs/api.md, "Compatibility"), read as requests to replay.
 */

export type ContractMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ContractOperation {
  operationId: string;
  method: ContractMethod;
  /** The documented path, with its `{name}` parameters. */
  path: string;
  /** Documented answers by status ('200', '201', '4XX' ...): their JSON schema, or null for no body. */
  responses: Record<string, object | null>;
  /** The operation's curl sample, when it has one. */
  sample: CurlSample | null;
  /** The documented example of each request body by content type, when it gives one ('text/csv' ...). */
  bodyExamples: Record<string, unknown>;
}

export interface CurlSample {
  /** The path and query after the documented host, placeholders ({{ACCOUNT_ID}} ...) left in. */
  path: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface ContractDocument {
  document: { components: object } & Record<string, unknown>;
  operations: ContractOperation[];
}

const METHODS: readonly ContractMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];
const DOCUMENTED_HOST = 'https://api.sakari.io';

/**
 * A curl sample's path, headers and body. The samples are written by hand and some are off (a PUT sample
 * that says POST, a stray quote, a DELETE with a lone `}'`): the replay takes the method and the path's
 * shape from the operation, and from the sample what a client would send (headers, body, query).
 */
export function parseCurlSample(source: string): CurlSample {
  const url = new RegExp(`${DOCUMENTED_HOST.replace(/[.]/g, '\\.')}(\\S+)`).exec(source)?.[1];
  if (url === undefined) throw new Error(`no ${DOCUMENTED_HOST} URL in the sample: ${source}`);
  const headers: Record<string, string> = {};
  for (const match of source.matchAll(/-H '([^':]+):\s*([^']*)'/g)) {
    const [, name = '', value = ''] = match;
    headers[name.trim().toLowerCase()] = value.trim();
  }
  const body = /-d '([\s\S]*)'\s*$/.exec(source.trim())?.[1] ?? null;
  return { path: url.replace(/\\$/, ''), headers, body };
}

/** The operations of the document, each with its curl sample. */
export function readContract(file: URL): ContractDocument {
  const document = JSON.parse(fs.readFileSync(file, 'utf8')) as ContractDocument['document'] & {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId: string;
          requestBody?: { content?: Record<string, { schema?: { example?: unknown } }> };
          responses: Record<string, { content?: Record<string, { schema?: object }> }>;
          'x-code-samples'?: { lang: string; source: string }[];
        }
      >
    >;
  };
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method.toLowerCase()];
      if (!operation) continue;
      const responses: Record<string, object | null> = {};
      for (const [status, answer] of Object.entries(operation.responses)) {
        responses[status] = answer.content?.['application/json']?.schema ?? null;
      }
      const bodyExamples: Record<string, unknown> = {};
      for (const [type, body] of Object.entries(operation.requestBody?.content ?? {})) {
        if (body.schema?.example !== undefined) bodyExamples[type] = body.schema.example;
      }
      const curl = operation['x-code-samples']?.find((sample) => sample.lang.toUpperCase() === 'CURL');
      const sample = curl ? parseCurlSample(curl.source) : null;
      operations.push({ operationId: operation.operationId, method, path, responses, sample, bodyExamples });
    }
  }
  return { document, operations };
}

/** The documented answer for a status: the exact code, else its class ('4XX'). */
export function documentedResponse(operation: ContractOperation, status: number): { schema: object | null } | null {
  const exact = operation.responses[String(status)];
  if (exact !== undefined) return { schema: exact };
  const range = operation.responses[`${String(status)[0] ?? ''}XX`];
  return range === undefined ? null : { schema: range };
}
