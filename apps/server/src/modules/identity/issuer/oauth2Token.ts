import { oauth2TokenErrorSchema, oauth2TokenResponseSchema, type OAuth2TokenError, type OAuth2TokenResponse } from '@parley/shared';
import type { FastifyInstance } from 'fastify';
import { ISSUER_PATH } from './provider.js';

/** What the issuer's own token endpoint answered: a token, or its refusal with the status it chose. */
export type TokenEndpointAnswer = { status: 200; body: OAuth2TokenResponse } | { status: 400 | 401; body: OAuth2TokenError };

/** The client's id and secret as HTTP Basic credentials (RFC 6749 section 2.3.1: each form-encoded first). */
export function basicCredentials(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`, 'utf8').toString('base64')}`;
}

/**
 * A client_credentials grant at the embedded issuer's token endpoint (/oidc/token), so the tokens of the
 * hosted product's endpoint are the issuer's own: the same keys, claims, lifetime and client check.
 */
export async function exchangeClientCredentials(app: FastifyInstance, authorization: string): Promise<TokenEndpointAnswer> {
  const answer = await app.inject({
    method: 'POST',
    url: `${ISSUER_PATH}/token`,
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    payload: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
  });
  const body: unknown = answer.json();
  if (answer.statusCode === 200) return { status: 200, body: oauth2TokenResponseSchema.parse(body) };
  if (answer.statusCode === 400 || answer.statusCode === 401) return { status: answer.statusCode, body: oauth2TokenErrorSchema.parse(body) };
  throw new Error(`the issuer's token endpoint answered ${String(answer.statusCode)}`);
}
