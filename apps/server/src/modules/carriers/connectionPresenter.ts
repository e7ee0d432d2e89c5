import { maskSecret, type CarrierConnection } from '@parley/shared';
import { readSettings, secretContext, twilioWebhookUrls } from './connections.js';
import type { SecretCipher } from '../../platform/secrets/cipher.js';
import type { ConnectionWithUse } from './connectionWriter.js';

/** Secrets shorter than this show no characters at all (an 8-character SMPP password would lose half). */
const SHOW_LAST_FOUR_FROM = 16;

/** The secret masked; '••••••••' alone when short or when it cannot be read (another key). */
export function maskedSecret(cipher: SecretCipher | null, row: ConnectionWithUse['row']): string {
  let secret: string;
  if (cipher === null) return maskSecret(null);
  try {
    secret = cipher.decrypt(row.secret, secretContext(row.id));
  } catch {
    return maskSecret(null);
  }
  return maskSecret(secret.length >= SHOW_LAST_FOUR_FROM ? secret.slice(-4) : null);
}

export function presentConnection(cipher: SecretCipher | null, publicUrl: string, { row, phoneNumbers }: ConnectionWithUse): CarrierConnection {
  const common = {
    id: row.id,
    name: row.name,
    secret: maskedSecret(cipher, row),
    phoneNumbers,
    created: { at: row.createdAt.toISOString() },
    updated: { at: row.updatedAt.toISOString() },
  };
  const settings = readSettings(row);
  switch (settings.carrier) {
    case 'smpp': {
      const { carrier, ...rest } = settings;
      return { carrier, ...common, settings: rest };
    }
    case 'twilio': {
      const { carrier, ...rest } = settings;
      const { statusCallbackUrl, inboundUrl, voiceUrl } = twilioWebhookUrls(publicUrl, row.id);
      return { carrier, ...common, settings: rest, webhooks: { statusCallbackUrl, inboundUrl, voiceUrl } };
    }
  }
}
