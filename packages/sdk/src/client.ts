import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type ParleyClient = Client<paths>;

export interface ParleyClientOptions {
  /** Where Parley answers, e.g. `https://parley.example.com` (the `/v1` paths are added by each call). */
  baseUrl: string;
  /** A bearer token: from `requestToken`, or a function asked before every call (so it can be renewed). */
  token: string | (() => string | Promise<string>);
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

/**
 * A typed client for every call of the API: paths, parameters, bodies and answers are checked by
 * TypeScript against the API's own OpenAPI document.
 */
export function createParleyClient(options: ParleyClientOptions): ParleyClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), ...(options.fetch ? { fetch: options.fetch } : {}) });
  const bearer: Middleware = {
    async onRequest({ request }) {
      const token = typeof options.token === 'string' ? options.token : await options.token();
      request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(bearer);
  return client;
}
