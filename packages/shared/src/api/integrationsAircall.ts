import { z } from 'zod';
import { validationMessages } from '../validation.js';
import { callRailPropertiesSchema } from './integrationsCallrail.js';

/**
 * AirCall and Cradle (docs/integrations.md, "AirCall", "Cradle"): cloud phone systems. Their calls go into the
 * callers' conversations (docs/calls.md) and a missed call can be texted back, as CallRail's: the same
 * text-back properties. Shared by the server and the integrations' pages.
 */

export const AIRCALL_REFRESH_FAILED_MESSAGE = 'Refresh failed';

/** AirCall: CallRail's text-back properties, and whether a text-back is shown on the AirCall call. */
export const aircallPropertiesSchema = z
  .object({
    ...callRailPropertiesSchema.shape,
    /** Post each text-back on the AirCall call it answers, as an insight card. */
    recordTextBacks: z.boolean(),
  })
  .strict()
  .meta({ id: 'AirCallProperties' });
export type AirCallProperties = z.output<typeof aircallPropertiesSchema>;

export const AIRCALL_DEFAULT_PROPERTIES: AirCallProperties = { textBackEnabled: false, textBackTemplateId: '', textBackWindowHours: 24, callNumberId: '', recordTextBacks: true };

/** One AirCall number and where its calls go: one of the account's numbers, a group (its first number), or neither. */
export const aircallLineSchema = z
  .object({
    /** AirCall's number id. */
    id: z.string(),
    name: z.string(),
    /** E.164 ('' when AirCall's digits are not a number). */
    number: z.string(),
    phoneNumberId: z.uuid().nullable(),
    groupId: z.uuid().nullable(),
    /** 'auto': matched on refresh by its digits; 'admin': chosen on the page (a refresh keeps it). */
    mappedBy: z.enum(['auto', 'admin']),
  })
  .meta({ id: 'AirCallLine' });
export type AirCallLine = z.infer<typeof aircallLineSchema>;

export const aircallUserSchema = z.object({ id: z.string(), name: z.string(), email: z.string() }).meta({ id: 'AirCallUser' });
export type AirCallUser = z.infer<typeof aircallUserSchema>;

export const aircallDirectorySchema = z
  .object({ lines: z.array(aircallLineSchema), users: z.array(aircallUserSchema) })
  .meta({ id: 'AirCallDirectory' });
export type AirCallDirectory = z.infer<typeof aircallDirectorySchema>;

export const aircallDirectoryResponseSchema = z.object({ data: aircallDirectorySchema }).meta({ id: 'AirCallDirectoryResponse' });

/** GET .../aircall/refresh: the spec reads `success`; a failure at AirCall answers false with its message. */
export const aircallRefreshResponseSchema = z
  .union([
    z.object({ success: z.literal(true), data: aircallDirectorySchema }),
    z.object({ success: z.literal(false), error: z.object({ message: z.string() }) }),
  ])
  .meta({ id: 'AirCallRefreshResponse' });
export type AirCallRefreshResponse = z.infer<typeof aircallRefreshResponseSchema>;

export const AIRCALL_LINE_TARGET_MESSAGE = 'Choose a number or a group, not both';

/** PUT .../aircall/lines: where each named AirCall number's calls go (both null: back to matching by digits). */
export const aircallLinesBodySchema = z
  .object({
    lines: z
      .array(
        z
          .object({ id: z.string().min(1).max(64), phoneNumberId: z.uuid().nullable(), groupId: z.uuid().nullable() })
          .strict()
          .refine((l) => l.phoneNumberId === null || l.groupId === null, { message: AIRCALL_LINE_TARGET_MESSAGE }),
      )
      .min(1, { message: validationMessages.required })
      .max(500),
  })
  .strict()
  .meta({ id: 'AirCallLinesChange' });
export type AirCallLinesChange = z.infer<typeof aircallLinesBodySchema>;

/** Cradle: an API key (the connect form), and CallRail's text-back properties. */
export const cradleConnectSchema = z
  .object({ apiKey: z.string().trim().min(1, { message: validationMessages.required }).max(200) })
  .strict()
  .meta({ id: 'CradleConnect' });
export type CradleConnect = z.output<typeof cradleConnectSchema>;

export const cradlePropertiesSchema = z.object({ ...callRailPropertiesSchema.shape }).strict().meta({ id: 'CradleProperties' });
export type CradleProperties = z.output<typeof cradlePropertiesSchema>;

export const CRADLE_DEFAULT_PROPERTIES: CradleProperties = { textBackEnabled: false, textBackTemplateId: '', textBackWindowHours: 24, callNumberId: '' };

/** The header Cradle signs a webhook with (assumed; docs/integrations.md, "Cradle"): `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const CRADLE_SIGNATURE_HEADER = 'x-cradle-signature';
