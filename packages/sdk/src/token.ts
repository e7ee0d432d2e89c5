export interface TokenRequest {
  baseUrl: string;
  /** The API client's id and secret (account settings, API credentials). */
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
}

export interface Token {
  accessToken: string;
  /** Seconds the token lives. */
  expiresIn: number;
  /** When to ask for the next one: a minute before it expires. */
  renewAt: Date;
}

/** Thrown when the token endpoint refuses: its OAuth 2 error and description. */
export class TokenError extends Error {
  constructor(
    readonly error: string,
    description: string,
    readonly status: number,
  ) {
    super(description === '' ? error : `${error}: ${description}`);
    this.name = 'TokenError';
  }
}

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
}

/** A token for an API client (OAuth 2 client credentials, `POST /oauth2/token`). */
export async function requestToken(request: TokenRequest): Promise<Token> {
  const doFetch = request.fetch ?? fetch;
  const response = await doFetch(`${request.baseUrl.replace(/\/+$/, '')}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: request.clientId, client_secret: request.clientSecret }),
  });
  const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
  if (!response.ok || typeof answer.access_token !== 'string') {
    throw new TokenError(answer.error ?? 'invalid_response', answer.error_description ?? '', response.status);
  }
  const expiresIn = answer.expires_in ?? 0;
  return { accessToken: answer.access_token, expiresIn, renewAt: new Date(Date.now() + Math.max(0, expiresIn - 60) * 1000) };
}

/**
 * A token function for `createParleyClient` that asks for a token when it has none or the one it has is
 * about to expire; calls at the same time share one request.
 */
export function clientCredentials(request: TokenRequest): () => Promise<string> {
  let current: Token | null = null;
  let pending: Promise<Token> | null = null;
  return async () => {
    if (current !== null && current.renewAt.getTime() > Date.now()) return current.accessToken;
    pending ??= requestToken(request).finally(() => {
      pending = null;
    });
    current = await pending;
    return current.accessToken;
  };
}
