import { z } from 'zod';

/** Who a bearer token speaks for. */
export interface Principal {
  /** The token's subject: a user id, or for an API client (client_credentials) the client id. */
  userId: string;
  /** Set when the principal is an API client acting for the account in accountIds. */
  clientId?: string;
  /** The accounts the principal may act in. */
  accountIds: readonly string[];
  /** An API client's token: which of its secrets it was issued for (issuer/apiClientSecrets.ts). */
  secretVersion?: string;
}

export interface Authenticator {
  /** Resolves a bearer token to its principal, or null when the token is not valid. */
  authenticate(token: string): Promise<Principal | null>;
}

const uuidSchema = z.uuid();

/**
 * The explicit development sign-in (DEV_AUTH=true): a token `dev.<userId>.<accountId>` speaks for that
 * user in that account. It exists so websockets and API calls can be exercised before a real issuer
 * is configured; it is off unless turned on, and must never be turned on in production.
 */
export const devAuthenticator: Authenticator = {
  authenticate(token) {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'dev') return Promise.resolve(null);
    const userId = uuidSchema.safeParse(parts[1]);
    const accountId = uuidSchema.safeParse(parts[2]);
    if (!userId.success || !accountId.success) return Promise.resolve(null);
    return Promise.resolve({ userId: userId.data, accountIds: [accountId.data] });
  },
};

export function devToken(userId: string, accountId: string): string {
  return `dev.${userId}.${accountId}`;
}

/** Reads `Bearer <token>` from an Authorization header value. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}
