import type { Bundle, HttpRequestOptions, HttpResponse, ZObject } from 'zapier-platform-core';
import { callAccount, parleyBase } from './parleyApi.js';

const TOKEN_PATH = '/oauth2/token';
const CREDENTIALS_REFUSED = 'Parley refused the client ID or secret';

const isTokenCall = (url: string | undefined): boolean => url !== undefined && new URL(url).pathname.endsWith(TOKEN_PATH);

/**
 * Client credentials for an access token (docs/identity.md): Zapier keeps it as the session key. The token
 * endpoint answers 401 to refused credentials, which the platform raises as RefreshAuthError for every call
 * of a session app; here it means the id or secret is wrong, and says so.
 */
async function getSessionKey(z: ZObject, bundle: Bundle): Promise<{ sessionKey: string }> {
  try {
    const response = await z.request<{ access_token: string }>({
      url: `${parleyBase(z, bundle.authData.serverUrl)}${TOKEN_PATH}`,
      method: 'POST',
      body: { grant_type: 'client_credentials', client_id: bundle.authData.clientId, client_secret: bundle.authData.clientSecret },
    });
    return { sessionKey: response.data.access_token };
  } catch (error) {
    if (error instanceof z.errors.RefreshAuthError) throw new z.errors.Error(CREDENTIALS_REFUSED, 'invalid_client', 401);
    throw error;
  }
}

/** The connected account: a cheap authenticated call that proves the credentials and names the connection. */
async function testConnection(z: ZObject, bundle: Bundle): Promise<{ id: string; name: string }> {
  const account = await callAccount<{ id: string; name: string }>(z, bundle, {});
  return { id: account.id, name: account.name };
}

/** The bearer token on every call but the one that gets it. */
export function addBearerToken(request: HttpRequestOptions, _z: ZObject, bundle: Bundle): HttpRequestOptions {
  const token = bundle.authData.sessionKey;
  if (token !== undefined && token !== '' && !isTokenCall(request.url)) request.headers = { ...request.headers, Authorization: `Bearer ${token}` };
  return request;
}

/** The message of an answer: Parley's `{error: {message}}`, or the token endpoint's OAuth error. */
function refusalOf(response: HttpResponse): { message: string; code: string } {
  let body: unknown;
  try {
    body = JSON.parse(response.content) as unknown;
  } catch {
    body = null;
  }
  if (typeof body === 'object' && body !== null) {
    const { error, error_description: description } = body as { error?: unknown; error_description?: unknown };
    if (typeof error === 'object' && error !== null) {
      const { message, code } = error as { message?: unknown; code?: unknown };
      if (typeof message === 'string') return { message, code: typeof code === 'string' ? code : 'error' };
    }
    if (error === 'invalid_client') return { message: CREDENTIALS_REFUSED, code: error };
    if (typeof error === 'string') return { message: typeof description === 'string' ? description : error, code: error };
  }
  return { message: `Parley answered ${String(response.status)}`, code: 'error' };
}

/**
 * A refused call fails with Parley's own message. A 401 never gets here: for a session app the platform
 * raises RefreshAuthError first, and Zapier gets a new token and tries again.
 */
export function failOnRefusal(response: HttpResponse, z: ZObject): HttpResponse {
  if (response.status < 400) return response;
  const { message, code } = refusalOf(response);
  throw new z.errors.Error(message, code, response.status);
}

export const authentication = {
  type: 'session' as const,
  fields: [
    { key: 'serverUrl', label: 'Parley URL', required: true, type: 'string' as const, helpText: 'The address of your Parley, for example `https://sms.example.com`.' },
    { key: 'clientId', label: 'Client ID', required: true, type: 'string' as const, helpText: 'From Parley: the account page, Plan tab, API credentials.' },
    { key: 'clientSecret', label: 'Client Secret', required: true, type: 'password' as const, helpText: 'Shown once when the credentials are requested or renewed.' },
    { key: 'accountId', label: 'Account ID', required: true, type: 'string' as const, helpText: "The account's id, shown beside the credentials." },
  ],
  sessionConfig: { perform: getSessionKey },
  test: testConnection,
  connectionLabel: (_z: ZObject, bundle: Bundle<{ name?: string }>): string => bundle.inputData.name ?? 'Parley',
};
