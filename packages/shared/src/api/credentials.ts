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
