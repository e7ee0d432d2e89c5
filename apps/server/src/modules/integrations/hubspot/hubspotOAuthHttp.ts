import { z } from 'zod';
import type { GuardedFetch } from '../../../platform/net/guardedFetch.js';
import { HubSpotAuthError, HubSpotRateLimited, HubSpotRequestError, reasonOf, retryAfterMs } from './hubspotErrors.js';

/*
 * HubSpot's dated OAuth API (docs/integrations-hubspot.md, "Connecting"): `POST /oauth/2026-03/token`,
 * `/token/introspect` and `/token/revoke`, every parameter form-encoded in the body (never in the query or the
 * path, as the v1 endpoints had them), made through the guarded fetcher. HubSpot's v1 endpoints end on
 * 16 February 2027.
 */

export const HUBSPOT_OAUTH_VERSION = '2026-03';
export const HUBSPOT_OAUTH_TIMEOUT_MS = 20_000;

/** The app's credentials and where HubSpot's API is. */
export interface HubSpotOAuthClient {
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** The token endpoint's answer, as far as Parley reads it. */
const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().positive(),
});
export type HubSpotTokenAnswer = z.infer<typeof tokenAnswer>;

/** The introspection answer, as far as Parley reads it (`active` false: HubSpot no longer honours the token). */
const introspection = z.object({
  active: z.boolean(),
  hub_id: z.number().int().optional(),
  hub_domain: z.string().nullish(),
  scopes: z.array(z.string()).optional(),
});
export interface HubSpotTokenInfo {
  hubId: number;
  hubDomain: string | null;
  scopes: string[];
}

interface OAuthAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function postForm(fetch: GuardedFetch, client: HubSpotOAuthClient, path: 'token' | 'token/introspect' | 'token/revoke', form: Record<string, string>): Promise<OAuthAnswer> {
  const url = `${client.apiBaseUrl.replace(/\/+$/, '')}/oauth/${HUBSPOT_OAUTH_VERSION}/${path}`;
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ ...form, client_id: client.clientId, client_secret: client.clientSecret }).toString(),
    maxRedirects: 0,
    timeoutMs: HUBSPOT_OAUTH_TIMEOUT_MS,
  });
  return { status: answer.status, headers: Object.fromEntries(answer.headers.entries()), body: parseBody(answer.body.toString('utf8')) };
}

/**
 * The typed error of an answer outside 2xx: a 429 waits; a 400 or 401 (a refused code, refresh token or
 * client: RFC 6749's invalid_grant and invalid_client) needs connecting again; the rest is a request error.
 */
export function hubspotOAuthRefusal(answer: OAuthAnswer, nowMs = Date.now()): Error {
  const reason = reasonOf(answer.body, answer.status);
  if (answer.status === 429) return new HubSpotRateLimited(retryAfterMs(answer.headers, answer.body, nowMs));
  if (answer.status === 400 || answer.status === 401) return new HubSpotAuthError(reason, answer.status);
  return new HubSpotRequestError(answer.status, reason);
}

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** A token grant: `authorization_code` (code, redirect_uri) or `refresh_token` (refresh_token). */
export async function postHubSpotToken(fetch: GuardedFetch, client: HubSpotOAuthClient, grant: Record<string, string>): Promise<HubSpotTokenAnswer> {
  const answer = await postForm(fetch, client, 'token', grant);
  if (!isSuccess(answer.status)) throw hubspotOAuthRefusal(answer);
  const parsed = tokenAnswer.safeParse(answer.body);
  if (!parsed.success) throw new HubSpotRequestError(answer.status, "HubSpot's token answer is not as documented");
  return parsed.data;
}

/** The portal, its domain and the scopes an access token carries. */
export async function introspectHubSpotToken(fetch: GuardedFetch, client: HubSpotOAuthClient, accessToken: string): Promise<HubSpotTokenInfo> {
  const answer = await postForm(fetch, client, 'token/introspect', { token: accessToken, token_type_hint: 'access_token' });
  if (!isSuccess(answer.status)) throw hubspotOAuthRefusal(answer);
  const parsed = introspection.safeParse(answer.body);
  if (!parsed.success) throw new HubSpotRequestError(answer.status, "HubSpot's introspection answer is not as documented");
  const { active, hub_id: hubId, hub_domain: hubDomain, scopes } = parsed.data;
  if (!active) throw new HubSpotAuthError('the access token is not active', 401);
  if (hubId === undefined) throw new HubSpotRequestError(answer.status, "HubSpot's introspection answer names no hub_id");
  return { hubId, hubDomain: hubDomain ?? null, scopes: scopes ?? [] };
}

/** Revokes a refresh token; the answer's status is the caller's to judge. */
export async function postHubSpotRevoke(fetch: GuardedFetch, client: HubSpotOAuthClient, refreshToken: string): Promise<OAuthAnswer> {
  return postForm(fetch, client, 'token/revoke', { token: refreshToken, token_type_hint: 'refresh_token' });
}
