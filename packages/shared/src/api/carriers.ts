import { z } from 'zod';
import { requiredText } from '../forms.js';
import { validationMessages } from '../validation.js';
import { listResponse, recordResponse } from './pagination.js';

/**
 * An account's own carrier connections (SMPP or Twilio credentials of its own). Numbers bought or added on
 * one send through it; other numbers use the deployment's carriers. The secret (the SMPP password, the Twilio
 * auth token) is written, never read back: answers carry it masked.
 */

export const connectionCarriers = ['smpp', 'twilio'] as const;
export type ConnectionCarrier = (typeof connectionCarriers)[number];

export const CARRIER_CONNECTION_NAME_MAX = 100;
/** SMPP 3.4 C-Octet String limits, the terminating NUL excluded. */
export const SMPP_SYSTEM_ID_MAX_LENGTH = 15;
export const SMPP_PASSWORD_MAX_LENGTH = 8;
export const SMPP_SYSTEM_TYPE_MAX_LENGTH = 12;

export const CARRIER_CONNECTION_IN_USE_MESSAGE = 'This connection is used by phone numbers; move or release them first';
export const CARRIER_CONNECTION_CARRIER_FIXED_MESSAGE = 'The carrier of a connection cannot be changed; add a new connection instead';

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const HOST_MESSAGE = 'Must be a host name or an IP address';

const host = requiredText(253).refine((v) => HOSTNAME.test(v) || z.ipv6().safeParse(v).success, { message: HOST_MESSAGE });

const port = z
  .number({ message: validationMessages.number })
  .int({ message: validationMessages.number })
  .min(1, { message: 'Must be a port from 1 to 65535' })
  .max(65535, { message: 'Must be a port from 1 to 65535' });

const noBlanks = (max: number) =>
  z
    .string({ message: validationMessages.required })
    .min(1, { message: validationMessages.required })
    .max(max, { message: `At most ${max} characters (SMPP 3.4)` })
    .regex(/^[\x21-\x7e]*$/, { message: 'Only printable ASCII characters without spaces' });

export const smppConnectionSettingsSchema = z
  .object({
    host,
    port,
    systemId: noBlanks(SMPP_SYSTEM_ID_MAX_LENGTH),
    /** Sent in the bind when the SMSC asks for one. */
    systemType: z
      .string()
      .trim()
      .max(SMPP_SYSTEM_TYPE_MAX_LENGTH, { message: `At most ${SMPP_SYSTEM_TYPE_MAX_LENGTH} characters (SMPP 3.4)` })
      .nullish()
      .transform((v) => (v === undefined || v === null || v === '' ? null : v)),
    /** SMPP over TLS; the SMSC's certificate must chain to a public CA. */
    tls: z.boolean({ message: 'Must be true or false' }).default(false),
  });

export const TWILIO_ACCOUNT_SID_MESSAGE = 'Must be a Twilio Account SID: AC followed by 32 hexadecimal digits';

export const twilioConnectionSettingsSchema = z
  .object({
    accountSid: requiredText(34).regex(/^AC[0-9a-fA-F]{32}$/, { message: TWILIO_ACCOUNT_SID_MESSAGE }),
    /** A number of the Twilio account that verification calls come from; null: the number being verified. */
    callerId: z
      .string()
      .trim()
      .regex(/^(\+[1-9]\d{6,14})?$/, { message: 'Must be a phone number in E.164 form, e.g. +14155550100' })
      .nullish()
      .transform((v) => (v === undefined || v === null || v === '' ? null : v)),
  });

export type SmppConnectionSettings = z.output<typeof smppConnectionSettingsSchema>;
export type TwilioConnectionSettings = z.output<typeof twilioConnectionSettingsSchema>;

const smppPassword = z
  .string({ message: validationMessages.required })
  .min(1, { message: validationMessages.required })
  .max(SMPP_PASSWORD_MAX_LENGTH, { message: `At most ${SMPP_PASSWORD_MAX_LENGTH} characters (SMPP 3.4)` });

export const twilioAuthTokenSchema = z
  .string({ message: validationMessages.required })
  .trim()
  .min(1, { message: validationMessages.required })
  .max(128, { message: 'At most 128 characters' })
  .regex(/^\S+$/, { message: 'An auth token has no spaces' });

/** On a change an omitted or empty secret keeps the stored one. */
const keptWhenEmpty = <T extends z.ZodType<string>>(secret: T) =>
  z
    .union([z.literal(''), secret])
    .optional()
    .transform((v) => (v === '' ? undefined : v));

const name = requiredText(CARRIER_CONNECTION_NAME_MAX);
const carrierMessage = { message: 'Must be smpp or twilio' };

/** POST /v1/accounts/{acc}/carriers. */
export const createCarrierConnectionSchema = z.discriminatedUnion(
  'carrier',
  [
    z.object({ carrier: z.literal('smpp'), name, settings: smppConnectionSettingsSchema, secret: smppPassword }),
    z.object({ carrier: z.literal('twilio'), name, settings: twilioConnectionSettingsSchema, secret: twilioAuthTokenSchema }),
  ],
  carrierMessage,
);

/** PUT /v1/accounts/{acc}/carriers/{id}: the whole connection; `secret` omitted (or empty) keeps the stored one. */
export const updateCarrierConnectionSchema = z.discriminatedUnion(
  'carrier',
  [
    z.object({ carrier: z.literal('smpp'), name, settings: smppConnectionSettingsSchema, secret: keptWhenEmpty(smppPassword) }),
    z.object({ carrier: z.literal('twilio'), name, settings: twilioConnectionSettingsSchema, secret: keptWhenEmpty(twilioAuthTokenSchema) }),
  ],
  carrierMessage,
);

export type CreateCarrierConnection = z.output<typeof createCarrierConnectionSchema>;
export type UpdateCarrierConnection = z.output<typeof updateCarrierConnectionSchema>;

// Answers are encoded without transforms: the settings as stored, apart from the input schemas above.
const smppSettingsSchema = z
  .object({ host: z.string(), port: z.number().int(), systemId: z.string(), systemType: z.string().nullable(), tls: z.boolean() })
  .meta({ id: 'SmppConnectionSettings' });
const twilioSettingsSchema = z
  .object({ accountSid: z.string(), callerId: z.string().nullable() })
  .meta({ id: 'TwilioConnectionSettings' });

const common = {
  id: z.uuid(),
  name: z.string(),
  /** The secret masked: its last four characters only when it is long enough for that to give nothing away. */
  secret: z.string(),
  /** How many of the account's phone numbers send through it. */
  phoneNumbers: z.number().int(),
  created: z.object({ at: z.iso.datetime() }),
  updated: z.object({ at: z.iso.datetime() }),
};

export const carrierConnectionSchema = z
  .discriminatedUnion('carrier', [
    z.object({ carrier: z.literal('smpp'), ...common, settings: smppSettingsSchema }),
    z.object({
      carrier: z.literal('twilio'),
      ...common,
      settings: twilioSettingsSchema,
      /** Where Twilio must send status callbacks, inbound messages and incoming calls of this account's numbers. */
      webhooks: z.object({ statusCallbackUrl: z.string(), inboundUrl: z.string(), voiceUrl: z.string() }),
    }),
  ])
  .meta({ id: 'CarrierConnection' });

export type CarrierConnection = z.infer<typeof carrierConnectionSchema>;

export const carrierConnectionListSchema = listResponse(carrierConnectionSchema);
export const carrierConnectionRecordSchema = recordResponse(carrierConnectionSchema);
