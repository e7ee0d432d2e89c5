import { z } from 'zod';
import { validationMessages } from '../validation.js';

/**
 * CallRail (docs/integrations.md, "CallRail"): call tracking. Its calls go into the callers' conversations
 * (docs/calls.md) and a missed call can be texted back. Shared by the server and the integration's page.
 */

export const CALLRAIL_ACCOUNT_ID_MESSAGE = 'Enter the account id shown in CallRail (letters and digits)';
export const CALLRAIL_MAX_WINDOW_HOURS = 720;

export const callRailConnectSchema = z
  .object({
    apiKey: z.string().trim().min(1, { message: validationMessages.required }).max(200),
    accountId: z
      .string()
      .trim()
      .min(1, { message: validationMessages.required })
      .max(64)
      .regex(/^[A-Za-z0-9]+$/, { message: CALLRAIL_ACCOUNT_ID_MESSAGE }),
    /** The company's webhook signing key (CallRail: Integrations, Webhooks): how Parley checks a webhook is CallRail's. */
    signingKey: z.string().trim().min(1, { message: validationMessages.required }).max(200),
  })
  .strict()
  .meta({ id: 'CallRailConnect' });
export type CallRailConnect = z.output<typeof callRailConnectSchema>;

export const callRailPropertiesSchema = z
  .object({
    /** Text a caller whose call was missed, went to voicemail or was busy. */
    textBackEnabled: z.boolean(),
    /** The saved template sent ('' for none). */
    textBackTemplateId: z.union([z.literal(''), z.uuid({ message: 'Choose a template' })]),
    /** One text-back per caller per this many hours. */
    textBackWindowHours: z
      .number({ message: validationMessages.number })
      .int({ message: validationMessages.number })
      .min(1, { message: 'Minimum value is 1' })
      .max(CALLRAIL_MAX_WINDOW_HOURS, { message: `Maximum value is ${String(CALLRAIL_MAX_WINDOW_HOURS)}` }),
    /** The account's number calls are filed under and text-backs go from ('': the account's first active number). */
    callNumberId: z.union([z.literal(''), z.uuid()]),
  })
  .strict()
  .meta({ id: 'CallRailProperties' });
export type CallRailProperties = z.output<typeof callRailPropertiesSchema>;

export const CALLRAIL_DEFAULT_PROPERTIES: CallRailProperties = { textBackEnabled: false, textBackTemplateId: '', textBackWindowHours: 24, callNumberId: '' };

/** The path CallRail's post-call webhook is set to, with the connection's token. */
export const callRailWebhookPath = (token: string): string => `/v1/integrations/callrail/webhook/${token}`;
