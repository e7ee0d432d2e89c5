import { and, eq } from 'drizzle-orm';
import type { Config } from '../../platform/config.js';
import { loadCarrierConnection } from '../carriers/index.js';
import type { Queryable } from '../../platform/db/client.js';
import { phoneNumbers } from '../../platform/db/schema/index.js';
import { existingSecretsCipher } from '../../platform/secrets/keyring.js';
import { basicAuthorization } from '../media/index.js';

/**
 * The Authorization an attachment URL needs: Twilio's media (when the deployment or the account turned on
 * HTTP basic auth for media) wants the account SID and auth token of the number's connection. They are only
 * ever sent to Twilio's own API address, never to another host an attachment URL might name.
 */
export async function inboundMediaAuthorization(
  q: Queryable,
  config: Config,
  accountId: string,
  phoneNumberId: string | null,
  url: string,
): Promise<string | null> {
  if (phoneNumberId === null) return null;
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return null;
  }
  if (origin !== new URL(config.carriers.twilioApiBaseUrl).origin) return null;
  const [number] = await q
    .select({ carrier: phoneNumbers.carrier, carrierSettingsId: phoneNumbers.carrierSettingsId })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, phoneNumberId), eq(phoneNumbers.accountId, accountId)));
  if (number?.carrier !== 'twilio') return null;
  if (number.carrierSettingsId === null) {
    const twilio = config.carriers.twilio;
    return twilio === null ? null : basicAuthorization(twilio.accountSid, twilio.authToken);
  }
  const cipher = await existingSecretsCipher(config.secrets);
  if (cipher === null) return null;
  const connection = await loadCarrierConnection(q, cipher, number.carrierSettingsId);
  if (connection?.accountId !== accountId || connection.settings.carrier !== 'twilio') return null;
  return basicAuthorization(connection.settings.accountSid, connection.secret);
}
