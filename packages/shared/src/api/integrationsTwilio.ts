import { z } from 'zod';
import { requiredText } from '../forms.js';
import { CARRIER_CONNECTION_NAME_MAX, twilioAuthTokenSchema, twilioConnectionSettingsSchema } from './carriers.js';
import { phoneNumberSchema } from './phoneNumbers.js';

/**
 * The Twilio integration page (docs/integrations.md, "Twilio"): the account's own Twilio connection (a carrier
 * connection, docs/carriers.md), connected with the account SID and auth token checked against Twilio, the
 * Twilio account's numbers listed and chosen ones imported into Parley.
 */

export const TWILIO_CREDENTIALS_REFUSED_MESSAGE = 'Twilio refused the Account SID and auth token';
export const TWILIO_ACCOUNT_INACTIVE_MESSAGE = 'This Twilio account is not active';
export const TWILIO_ACCOUNT_CONNECTED_MESSAGE = 'This Twilio account is already connected';
export const TWILIO_IMPORT_MAX = 20;

/** POST /v1/accounts/{acc}/integrations/twilio/connections. */
export const connectTwilioSchema = z
  .object({
    name: requiredText(CARRIER_CONNECTION_NAME_MAX).default('Twilio'),
    settings: twilioConnectionSettingsSchema,
    secret: twilioAuthTokenSchema,
  })
  .meta({ id: 'TwilioConnect' });
export type ConnectTwilio = z.output<typeof connectTwilioSchema>;

/** A number of the Twilio account, and the Parley number it was imported as (null: not imported). */
export const twilioAccountNumberSchema = z
  .object({
    sid: z.string(),
    number: z.string(),
    friendlyName: z.string(),
    smsEnabled: z.boolean(),
    phoneNumberId: z.uuid().nullable(),
  })
  .meta({ id: 'TwilioAccountNumber' });
export type TwilioAccountNumber = z.infer<typeof twilioAccountNumberSchema>;

/** A page of the Twilio account's numbers; `nextCursor` asks for the next (null: the last page). */
export const twilioAccountNumberPageSchema = z.object({ data: z.array(twilioAccountNumberSchema), nextCursor: z.string().nullable() });

export const twilioNumbersQuerySchema = z.object({ cursor: z.string().max(2000).optional() });

const phoneNumberSid = z.string().regex(/^PN[0-9a-fA-F]{32}$/, { message: 'Must be a Twilio phone number SID: PN followed by 32 hexadecimal digits' });

/** POST .../connections/{id}/numbers: the Twilio numbers to import. */
export const importTwilioNumbersSchema = z
  .object({
    sids: z
      .array(phoneNumberSid)
      .min(1, { message: 'Choose at least one number' })
      .max(TWILIO_IMPORT_MAX, { message: `At most ${String(TWILIO_IMPORT_MAX)} numbers at once` }),
  })
  .meta({ id: 'TwilioImportNumbers' });

export const importedTwilioNumbersSchema = z.object({ data: z.array(phoneNumberSchema) });
