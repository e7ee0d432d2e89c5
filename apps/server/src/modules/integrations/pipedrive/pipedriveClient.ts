import { Configuration as V1Configuration, NotesApi, UsersApi } from 'pipedrive/v1';
import { ActivitiesApi, Configuration as V2Configuration, DealsApi, PersonsApi } from 'pipedrive/v2';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { checkAnswer, pipedriveFetch } from './pipedriveHttp.js';

/*
 * Pipedrive's official clients (v1 and v2) on the company's API domain, every request sent by the guarded
 * fetcher: the clients take axios request options (`baseOptions`) on their configuration, and axios takes an
 * `adapter`, the function that performs a request. Ours hands it to the guarded fetcher and answers axios
 * with the body as text (axios parses the JSON); a failure is thrown as the ProviderError it means, so the
 * clients never see an error answer.
 */

/** Where a connection's calls go and with what. */
export interface PipedriveTarget {
  /** The company's API origin (its api_domain, checked against PIPEDRIVE_API_BASE_URL). */
  apiOrigin: string;
  accessToken: string;
  fetch: GuardedFetch;
}

/** The part of an axios request config the adapter reads (axios's own types belong to the client). */
interface AdapterRequest {
  url?: string;
  method?: string;
  headers?: unknown;
  data?: unknown;
}

function plainHeaders(headers: unknown): Record<string, string> {
  // axios hands its AxiosHeaders instance, whose toJSON gives the plain object.
  const toJSON = typeof headers === 'object' && headers !== null && 'toJSON' in headers ? headers.toJSON : null;
  const source = typeof toJSON === 'function' ? (toJSON as () => unknown).call(headers) : headers;
  if (typeof source !== 'object' || source === null) return {};
  return Object.fromEntries(Object.entries(source).flatMap(([name, value]) => (typeof value === 'string' || typeof value === 'number' ? [[name, String(value)]] : [])));
}

/** An axios adapter that sends through the guarded fetcher. */
export function guardedAdapter(fetch: GuardedFetch) {
  return async (config: AdapterRequest) => {
    const url = config.url ?? '';
    const body = typeof config.data === 'string' ? config.data : undefined;
    const answer = await pipedriveFetch(fetch, url, { method: (config.method ?? 'get').toUpperCase(), headers: plainHeaders(config.headers), ...(body === undefined ? {} : { body }) });
    checkAnswer(answer, url);
    return { data: answer.body.toString('utf8'), status: answer.status, statusText: '', headers: Object.fromEntries(answer.headers), config, request: {} };
  };
}

function configured<C extends { baseOptions?: unknown }>(configuration: C, fetch: GuardedFetch): C {
  // The constructor leaves baseOptions out; it is a public field the generated calls read on each request.
  configuration.baseOptions = { adapter: guardedAdapter(fetch) };
  return configuration;
}

const v1 = (t: PipedriveTarget): V1Configuration => configured(new V1Configuration({ accessToken: t.accessToken, basePath: `${t.apiOrigin}/v1` }), t.fetch);
const v2 = (t: PipedriveTarget): V2Configuration => configured(new V2Configuration({ accessToken: t.accessToken, basePath: `${t.apiOrigin}/api/v2` }), t.fetch);

export const personsApi = (t: PipedriveTarget): PersonsApi => new PersonsApi(v2(t));
export const dealsApi = (t: PipedriveTarget): DealsApi => new DealsApi(v2(t));
export const activitiesApi = (t: PipedriveTarget): ActivitiesApi => new ActivitiesApi(v2(t));
export const notesApi = (t: PipedriveTarget): NotesApi => new NotesApi(v1(t));
export const usersApi = (t: PipedriveTarget): UsersApi => new UsersApi(v1(t));
