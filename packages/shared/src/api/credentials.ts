import { z } from 'zod';
import { recordResponse } from './pagination.js';

/**
 * An account's API credentials (client_credentials). The secret is whole only in the answer that
 * creates or renews it; afterwards it is masked to its last four characters.
 */
export const apiCredentialsSchema = z
  .object({
    accountId: z.uuid(),
    clientId: z.string(),
    secret: z.string(),
  })
  .meta({ id: 'ApiCredentials' });

export type ApiCredentials = z.infer<typeof apiCredentialsSchema>;

/** `{ data: null }` when the account has not requested credentials yet. */
export const apiCredentialsRecordSchema = recordResponse(apiCredentialsSchema.nullable());
export const issuedApiCredentialsSchema = recordResponse(apiCredentialsSchema);

/** What stands in for all but the last four characters of a stored secret. */
export const SECRET_MASK = '••••••••';

export const maskSecret = (lastFour: string | null): string => `${SECRET_MASK}${lastFour ?? ''}`;

export const CREDENTIALS_EXIST_MESSAGE = 'Credentials already exist; renew them instead.';

/**
 * POST /oauth2/token, the token endpoint of the hosted product's API for API clients: a JSON or form body,
 * with the client's id and secret in it or as HTTP Basic authentication (docs/api.md).
 */
export const oauth2TokenRequestSchema = z
  .object({
    grant_type: z.literal('client_credentials', { message: 'Only grant_type client_credentials is supported' }),
    client_id: z.string().max(255, { message: 'At most 255 characters' }).optional(),
    client_secret: z.string().max(1024, { message: 'At most 1024 characters' }).optional(),
  })
  .meta({ id: 'OAuth2TokenRequest' });

export type OAuth2TokenRequest = z.infer<typeof oauth2TokenRequestSchema>;

/** The token endpoint's answer (RFC 6749 section 5.1). */
export const oauth2TokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.string(),
    expires_in: z.number().int().optional(),
    scope: z.string().optional(),
  })
  .meta({ id: 'OAuth2TokenResponse' });

export type OAuth2TokenResponse = z.infer<typeof oauth2TokenResponseSchema>;

/** The token endpoint's refusal (RFC 6749 section 5.2), which OAuth 2 client libraries read. */
export const oauth2TokenErrorSchema = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .meta({ id: 'OAuth2TokenError' });

export type OAuth2TokenError = z.infer<typeof oauth2TokenErrorSchema>;
