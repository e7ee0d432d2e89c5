import { z } from 'zod';
import { requiredText } from '../forms.js';
import { isContactTokenField, templateTokensOf, tokenText } from '../templateTokens.js';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE, validationMessages } from '../validation.js';
import {
  MESSAGE_EMPTY_MESSAGE,
  MESSAGE_MEDIA_MAX,
  MESSAGE_MEDIA_MAX_MESSAGE,
  MESSAGE_TEXT_MAX,
  MESSAGE_TEXT_MAX_MESSAGE,
  messageMediaSchema,
  sendMessageMediaSchema,
} from './messages.js';
import { MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT, createdListResponse, listResponse, recordResponse } from './pagination.js';

/**
 * Templates (docs/templates.md): saved wording with `{{{token}}}`
 * tokens and up to 5 attachments. SMS templates are chosen in the send box and by campaigns; a Web template
 * is sent by an integration's web-hook call; an OptIn template is a public sign-up page whose text is the
 * confirmation a person gets when joining `optInList`. A private template is seen only by the user who
 * made it and by administrators (and API clients). docs/templates.md has the rules.
 */

export const templateTypes = ['SMS', 'Web', 'OptIn'] as const;
export type TemplateType = (typeof templateTypes)[number];

/** The path segment of each type's table (/templates/sms, /templates/web, /templates/optin). */
export const templatePathSegments: Readonly<Record<TemplateType, string>> = { SMS: 'sms', Web: 'web', OptIn: 'optin' };

/** A type from its name in any case ('sms', 'OptIn', 'optin'), or null. */
export const templateTypeOf = (value: string): TemplateType | null =>
  templateTypes.find((type) => type.toLowerCase() === value.trim().toLowerCase()) ?? null;

export const TEMPLATE_NAME_MAX = 100;
export const TEMPLATES_EMPTY_STATE = 'No Templates Exist';
/** The toast of a failed save. */
export const TEMPLATE_SAVE_FAILED_TOAST = 'Unable to save template';
export const TEMPLATE_TYPE_MESSAGE = 'Use SMS, Web or OptIn';
export const TEMPLATE_OPT_IN_LIST_ONLY_MESSAGE = 'Only an OptIn template has a list';
/** An unknown list and another account's read the same, so neither is confirmed to exist. */
export const TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE = 'Choose a list of this account';

/** The tokens of `text` that name neither a contact field nor one of `attributeNames` (each once, in order). */
export function unknownTemplateTokens(text: string, attributeNames: Iterable<string>): string[] {
  const known = new Set(attributeNames);
  return templateTokensOf(text).filter((name) => !isContactTokenField(name) && !known.has(name));
}

/** The refusal of a template naming unknown tokens (the same rule as sending: a contact field or an attribute). */
export const unknownTokensMessage = (names: readonly string[]): string =>
  `${names.length === 1 ? 'Unknown token' : 'Unknown tokens'} ${names.map(tokenText).join(', ')}: use firstName, lastName, mobile, email or an attribute of the account's contacts`;

export const templateSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    type: z.enum(templateTypes),
    template: z.string(),
    media: z.array(messageMediaSchema),
    private: z.boolean(),
    /** OptIn: the list a person who signs up joins; absent for the other types (left out, not null). */
    optInList: z.object({ id: z.uuid(), name: z.string() }).optional(),
    created: z.object({ at: z.iso.datetime() }),
    updated: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'Template' });

export type Template = z.infer<typeof templateSchema>;

/** The fields a list call may ask for (`fields=`); `id` always comes. */
export const templateFields = ['name', 'type', 'template', 'media', 'private', 'optInList', 'created', 'updated'] as const;
export type TemplateField = (typeof templateFields)[number];

/** A template with only the fields asked for (and its id). */
export const templateSelectionSchema = templateSchema.partial().required({ id: true }).meta({ id: 'TemplateSelection' });
export type TemplateSelection = z.infer<typeof templateSelectionSchema>;

export const templateListSchema = listResponse(templateSchema).meta({ id: 'TemplateList' });
/** What GET .../templates answers: whole templates, or the fields asked for. */
export const templateSelectionListSchema = listResponse(templateSelectionSchema).meta({ id: 'TemplateSelectionList' });
export const templateRecordSchema = recordResponse(templateSchema).meta({ id: 'TemplateRecord' });
/** POST .../templates answers the template made in a list, as the hosted product's API does. */
export const templateCreatedSchema = createdListResponse(templateSchema).meta({ id: 'TemplateCreated' });

export type TemplateList = z.infer<typeof templateListSchema>;

/** Fetched by type, name, fields; limit 5 or 0: 0 answers every template. */
export const TEMPLATE_LIST_ALL = 0;

/**
 * GET /v1/accounts/{acc}/templates, by name (ignoring case). `type` in any case; `name` keeps templates
 * whose name contains it, ignoring case; `fields` (comma-separated or repeated) trims each template to
 * those fields and its id; `limit` 1 to 100, or 0 for all (default 10).
 */
export const templateListQuerySchema = z.object({
  type: z
    .string()
    .transform((value, ctx) => {
      if (value.trim() === '') return undefined;
      const type = templateTypeOf(value);
      if (type === null) {
        ctx.addIssue({ code: 'custom', message: TEMPLATE_TYPE_MESSAGE });
        return z.NEVER;
      }
      return type;
    })
    .optional(),
  name: z
    .string()
    .trim()
    .max(TEMPLATE_NAME_MAX, { message: `At most ${String(TEMPLATE_NAME_MAX)} characters` })
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  fields: z
    .union([z.string(), z.array(z.string())])
    .transform((value, ctx) => {
      const names = (Array.isArray(value) ? value : [value])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '' && v !== 'id');
      const unknown = names.filter((n) => !(templateFields as readonly string[]).includes(n));
      if (unknown.length > 0) {
        ctx.addIssue({ code: 'custom', message: `Unknown field ${unknown.join(', ')}: use ${templateFields.join(', ')}` });
        return z.NEVER;
      }
      return [...new Set(names)] as TemplateField[];
    })
    .optional(),
  limit: z.coerce
    .number({ message: validationMessages.number })
    .int({ message: validationMessages.number })
    .min(0, { message: 'Minimum value is 0' })
    .max(MAX_PAGE_LIMIT, { message: `Maximum value is ${String(MAX_PAGE_LIMIT)}` })
    .default(DEFAULT_PAGE_LIMIT),
  offset: z.coerce
    .number({ message: validationMessages.number })
    .int({ message: validationMessages.number })
    .min(0, { message: 'Minimum value is 0' })
    .default(0),
});

export type TemplateListQueryInput = z.input<typeof templateListQuerySchema>;
export type TemplateListQuery = z.output<typeof templateListQuerySchema>;

// PostgreSQL text cannot hold NUL, and no carrier sends it.
const hasNoNul = (text: string): boolean => !hasNulCharacter(text);

/**
 * POST /v1/accounts/{acc}/templates and PUT .../templates/{id} (the whole template). The name is trimmed
 * and required; the text may be empty only with media (a media-only message sends an empty template); an
 * OptIn template needs `optInListId`, the others take none. On the server every token must be a contact
 * field or an attribute of the account, and the list one of the account's.
 */
export const saveTemplateSchema = z
  .object({
    name: requiredText(TEMPLATE_NAME_MAX).refine(hasNoNul, { message: NUL_CHARACTER_MESSAGE }),
    type: z.enum(templateTypes, { message: TEMPLATE_TYPE_MESSAGE }),
    template: z
      .string({ message: validationMessages.required })
      .max(MESSAGE_TEXT_MAX, { message: MESSAGE_TEXT_MAX_MESSAGE })
      .refine(hasNoNul, { message: NUL_CHARACTER_MESSAGE })
      .default(''),
    media: z.array(sendMessageMediaSchema).max(MESSAGE_MEDIA_MAX, { message: MESSAGE_MEDIA_MAX_MESSAGE }).default([]),
    private: z.boolean({ message: 'Use true or false' }).default(false),
    optInListId: z.uuid({ message: TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE }).nullable().default(null),
  })
  .superRefine((value, ctx) => {
    if (value.template.trim() === '' && value.media.length === 0) {
      ctx.addIssue({ code: 'custom', message: MESSAGE_EMPTY_MESSAGE, path: ['template'] });
    }
    if (value.type === 'OptIn' && value.optInListId === null) {
      ctx.addIssue({ code: 'custom', message: validationMessages.required, path: ['optInListId'] });
    }
    if (value.type !== 'OptIn' && value.optInListId !== null) {
      ctx.addIssue({ code: 'custom', message: TEMPLATE_OPT_IN_LIST_ONLY_MESSAGE, path: ['optInListId'] });
    }
  })
  .meta({ id: 'SaveTemplate' });

export type SaveTemplateInput = z.input<typeof saveTemplateSchema>;
export type SaveTemplate = z.output<typeof saveTemplateSchema>;

/** The fields of the save body, in the form's order (where the server's messages land). */
export const saveTemplateFields = ['name', 'type', 'template', 'media', 'private', 'optInListId'] as const;

// ---------------------------------------------------------------------------------------------------
// Web-hook links of a Web template (the link format: docs/optIn.md)

export const templateWebhookIntegrationNames = { hubspot: 'HubSpot', activecampaign: 'ActiveCampaign' } as const;
export type TemplateWebhookIntegrationName = keyof typeof templateWebhookIntegrationNames;

export const TEMPLATE_WEBHOOK_WEB_ONLY_MESSAGE = 'Only a Web template has web-hook links';
export const TEMPLATE_WEBHOOK_USER_MESSAGE = 'Choose a member of this account who may send messages';
export const TEMPLATE_WEBHOOK_OTHER_USER_MESSAGE = 'Only an administrator may make a link that sends as another member';
export const TEMPLATE_WEBHOOK_GROUP_MESSAGE = 'Choose a group or phone number of this account';

/**
 * GET /v1/accounts/{acc}/templates/{id}/webhooks: the links an integration calls to send the template.
 * `user` is the member the messages go out as (the caller by default; another member only for
 * administrators and API clients); `group` a group or phone number whose numbers send (none: the account's).
 */
export const templateWebhookQuerySchema = z.object({
  user: z
    .union([z.literal(''), z.uuid({ message: TEMPLATE_WEBHOOK_USER_MESSAGE })])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  group: z
    .union([z.literal(''), z.uuid({ message: TEMPLATE_WEBHOOK_GROUP_MESSAGE })])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

export type TemplateWebhookQuery = z.output<typeof templateWebhookQuerySchema>;

/** `available` is false when the deployment has no secrets key to sign links with (then `links` is empty). */
export const templateWebhookLinksSchema = z
  .object({
    available: z.boolean(),
    links: z.array(z.object({ integration: z.enum(['hubspot', 'activecampaign']), link: z.string() })),
  })
  .meta({ id: 'TemplateWebhookLinks' });

export type TemplateWebhookLinks = z.infer<typeof templateWebhookLinksSchema>;
export const templateWebhookLinksRecordSchema = recordResponse(templateWebhookLinksSchema).meta({ id: 'TemplateWebhookLinksRecord' });
