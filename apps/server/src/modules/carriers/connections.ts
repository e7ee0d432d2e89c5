import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../../platform/config.js';
import type { Queryable } from '../../platform/db/client.js';
import { carrierSettings, type CarrierSettingsRow } from '../../platform/db/schema/index.js';
import type { SecretCipher } from '../../platform/secrets/cipher.js';
import type { Carrier } from './carrier.js';
import { SmppCarrier } from './smpp/smppCarrier.js';
import { TwilioCarrier } from './twilio/twilioCarrier.js';

/**
 * Accounts' own carrier connections (carrier_settings rows): what is stored, how the secret is bound to its
 * row, and the adapter a connection makes. The deployment's connections come from the config instead.
 */

/** The settings as stored in the row's jsonb (null values are left out: the column holds no nulls). */
const storedSmpp = z.object({
  host: z.string(),
  port: z.number().int(),
  systemId: z.string(),
  systemType: z.string().optional(),
  tls: z.boolean().optional(),
});
const storedTwilio = z.object({ accountSid: z.string(), callerId: z.string().optional() });

export type ConnectionSettings =
  | { carrier: 'smpp'; host: string; port: number; systemId: string; systemType: string | null; tls: boolean }
  | { carrier: 'twilio'; accountSid: string; callerId: string | null };

/** An account's connection with its secret decrypted. */
export interface CarrierConnection {
  id: string;
  accountId: string;
  name: string;
  settings: ConnectionSettings;
  secret: string;
  updatedAt: Date;
}

/** The additional data the secret is encrypted with: a secret copied into another row does not decrypt. */
export const secretContext = (settingsId: string): string => `carrier_settings:${settingsId}`;

/** What the settings column holds for these settings. */
export function storedSettings(settings: ConnectionSettings): Record<string, string | number | boolean> {
  switch (settings.carrier) {
    case 'smpp':
      return {
        host: settings.host,
        port: settings.port,
        systemId: settings.systemId,
        tls: settings.tls,
        ...(settings.systemType === null ? {} : { systemType: settings.systemType }),
      };
    case 'twilio':
      return { accountSid: settings.accountSid, ...(settings.callerId === null ? {} : { callerId: settings.callerId }) };
  }
}

/** The settings of a row; throws when the column does not hold what its carrier needs. */
export function readSettings(row: Pick<CarrierSettingsRow, 'id' | 'carrier' | 'settings'>): ConnectionSettings {
  switch (row.carrier) {
    case 'smpp': {
      const parsed = storedSmpp.safeParse(row.settings);
      if (!parsed.success) throw new Error(`carrier_settings ${row.id}: the SMPP settings are incomplete`);
      return { carrier: 'smpp', ...parsed.data, systemType: parsed.data.systemType ?? null, tls: parsed.data.tls ?? false };
    }
    case 'twilio': {
      const parsed = storedTwilio.safeParse(row.settings);
      if (!parsed.success) throw new Error(`carrier_settings ${row.id}: the Twilio settings are incomplete`);
      return { carrier: 'twilio', accountSid: parsed.data.accountSid, callerId: parsed.data.callerId ?? null };
    }
  }
}

/** A connection by id (of whichever account: webhooks and adapters find it by id alone), its secret decrypted. */
export async function loadCarrierConnection(q: Queryable, cipher: SecretCipher, settingsId: string): Promise<CarrierConnection | null> {
  if (!z.uuid().safeParse(settingsId).success) return null;
  const [row] = await q.select().from(carrierSettings).where(eq(carrierSettings.id, settingsId));
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    settings: readSettings(row),
    secret: cipher.decrypt(row.secret, secretContext(row.id)),
    updatedAt: row.updatedAt,
  };
}

/**
 * The paths Twilio posts to: the deployment's account, or an account's own connection. Messages: status and
 * inbound; voice (docs/calls.md): an incoming call (the number's VoiceUrl) and a call's status callback.
 */
export function twilioWebhookPaths(settingsId: string | null): { status: string; inbound: string; voice: string; callStatus: string } {
  const base = settingsId === null ? '/v1/carriers/twilio' : `/v1/carriers/twilio/${settingsId}`;
  return { status: `${base}/status`, inbound: `${base}/inbound`, voice: `${base}/voice`, callStatus: `${base}/calls/status` };
}

export interface TwilioWebhookUrls {
  statusCallbackUrl: string;
  inboundUrl: string;
  voiceUrl: string;
  callStatusUrl: string;
}

/** The same as absolute URLs under PUBLIC_URL. */
export function twilioWebhookUrls(publicUrl: string, settingsId: string | null): TwilioWebhookUrls {
  const paths = twilioWebhookPaths(settingsId);
  return {
    statusCallbackUrl: `${publicUrl}${paths.status}`,
    inboundUrl: `${publicUrl}${paths.inbound}`,
    voiceUrl: `${publicUrl}${paths.voice}`,
    callStatusUrl: `${publicUrl}${paths.callStatus}`,
  };
}

type CarrierLog = Pick<Logger, 'info' | 'warn' | 'error'>;

/** The adapter of SMPP or Twilio settings; `settingsId` null for the deployment's own. */
export function connectionAdapter(
  config: Config,
  log: CarrierLog,
  settingsId: string | null,
  settings: ConnectionSettings,
  secret: string,
): Carrier {
  switch (settings.carrier) {
    case 'smpp':
      return new SmppCarrier({
        host: settings.host,
        port: settings.port,
        systemId: settings.systemId,
        password: secret,
        tls: settings.tls,
        ...(settings.systemType === null ? {} : { systemType: settings.systemType }),
        windowSize: config.carriers.smppWindow,
        logger: log,
      });
    case 'twilio':
      return new TwilioCarrier({
        accountSid: settings.accountSid,
        authToken: secret,
        apiBaseUrl: config.carriers.twilioApiBaseUrl,
        callerId: settings.callerId,
        ...twilioWebhookUrls(config.publicUrl, settingsId),
      });
  }
}
