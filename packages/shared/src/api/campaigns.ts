import { z } from 'zod';
import { campaignScheduleSchema } from '../campaignSchedule.js';
import { importMappingMessages, isImportField } from '../contactImport.js';
import { requiredText } from '../forms.js';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE, validationMessages } from '../validation.js';
import {
  attributeComparators,
  attributeNameSchema,
  CONTACT_ATTRIBUTE_NAME_MAX,
  CONTACT_ATTRIBUTE_VALUE_MAX,
  contactTagSchema,
  isValidAttributeName,
} from './contacts.js';
import {
  MESSAGE_EMPTY_MESSAGE,
  MESSAGE_MEDIA_MAX,
  MESSAGE_MEDIA_MAX_MESSAGE,
  MESSAGE_TEXT_MAX,
  MESSAGE_TEXT_MAX_MESSAGE,
  messageMediaSchema,
  sendMessageMediaSchema,
} from './messages.js';
import { moneySchema } from './money.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/**
 * Campaigns (docs/campaigns.md): who gets a
 * message (`filters`, or the rows of an uploaded file for FU), what it says (`template` with tokens, and
 * `media`), where it comes from (`phoneNumberFilter`), when it goes (trigger M manual, S on `schedule`, FU
 * when a file is executed) and who hears how it went (`reporting`). Each execution is a job whose row the
 * campaign's table expands. docs/campaigns.md has the rules (audience, estimate, sending).
 */

// ---------------------------------------------------------------------------------------------------
// Words and limits

export const CAMPAIGNS_EMPTY_STATE = 'No Campaigns Exist';
/** The toast of a failed save. */
export const CAMPAIGN_SAVE_FAILED_TOAST = 'Unable to save campaign';
/** Asked after saving a Manual campaign. */
export const CAMPAIGN_EXECUTE_QUESTION = 'Execute Campaign?';
export const CAMPAIGN_INACTIVE_MESSAGE = 'This campaign is inactive. Activate it to execute it.';
export const CAMPAIGN_RUNNING_MESSAGE = 'This campaign is being executed. Remove it once the execution has finished.';
export const CAMPAIGN_FILE_REQUIRED_MESSAGE = 'A file upload campaign is executed with the rows of a file.';
export const CAMPAIGN_FILE_NOT_EXPECTED_MESSAGE = 'Only a file upload campaign is executed with file rows.';
export const CAMPAIGN_FILE_PREVIEW_MESSAGE = 'A file upload campaign has no audience until a file is executed.';
export const CAMPAIGN_SCHEDULE_PAST_MESSAGE = 'The schedule has no execution in the future.';
export const CAMPAIGN_TEMPLATE_UNKNOWN_MESSAGE = 'Choose an SMS template of this account';
export const CAMPAIGN_SENDER_UNKNOWN_MESSAGE = 'Choose a group or phone number of this account';
export const CAMPAIGN_LISTS_UNKNOWN_MESSAGE = 'One or more of the lists were not found.';
export const CAMPAIGN_CONTACTS_UNKNOWN_MESSAGE = 'One or more of the contacts were not found.';
export const campaignColumnMappedTwice = (column: string): string => `The column ${column} is mapped twice`;

export const CAMPAIGN_NAME_MAX = 100;
export const CAMPAIGN_DESCRIPTION_MAX = 1000;
export const CAMPAIGN_FILTER_TAGS_MAX = 100;
export const CAMPAIGN_FILTER_ATTRIBUTES_MAX = 20;
export const CAMPAIGN_FILTER_LISTS_MAX = 100;
/** Contacts chosen one by one; larger audiences are chosen by tag, attribute or list. */
export const CAMPAIGN_FILTER_CONTACTS_MAX = 10_000;
export const CAMPAIGN_FIELD_MAPPINGS_MAX = 200;
/** Rows one file upload execution may carry (the body may be at most CAMPAIGN_FILE_BODY_MAX_BYTES). */
export const CAMPAIGN_FILE_ROWS_MAX = 100_000;
export const CAMPAIGN_FILE_BODY_MAX_BYTES = 64 * 1024 * 1024;
export const CAMPAIGN_FILE_ROWS_MAX_MESSAGE = `At most ${CAMPAIGN_FILE_ROWS_MAX.toLocaleString('en-US')} rows per execution`;
export const CAMPAIGN_FILE_EMPTY_MESSAGE = 'The file has no rows';
export const CAMPAIGN_REPORTING_DELAY_MAX = 999;
export const CAMPAIGN_REPORTING_DESTINATIONS_MAX = 10;
/** An execution row lists the first left-out contacts; `invalidCount` and `invalidCounts` count them all. */
export const CAMPAIGN_INVALID_LISTED = 100;

export const campaignMessagingTypes = ['transactional', 'marketing'] as const;
export type CampaignMessagingType = (typeof campaignMessagingTypes)[number];
/**
 * A campaign saved without a messaging type (the hosted product's API has none) is marketing: one text to
 * many contacts is bulk messaging, and marketing is the stricter claim about consent.
 */
export const CAMPAIGN_DEFAULT_MESSAGING_TYPE: CampaignMessagingType = 'marketing';
export const campaignMessagingTypeLabels: Readonly<Record<CampaignMessagingType, string>> = {
  transactional: 'Transactional',
  marketing: 'Marketing',
};

/** M manual, S scheduled, FU file upload (V2 and FW are other products' and not offered). */
export const campaignTriggerCodes = ['M', 'S', 'FU'] as const;
export type CampaignTriggerCode = (typeof campaignTriggerCodes)[number];
export const campaignTriggerLabels: Readonly<Record<CampaignTriggerCode, string>> = {
  M: 'Manual',
  S: 'Scheduled',
  FU: 'File Upload',
};

/**
 * docs/campaigns.md, The wizard: the steps for each trigger (free to move between when editing). Only a Manual campaign
 * ends on a Summary, since it is executed right after saving; the others save from their Reporting step.
 */
export const campaignWizardSteps: Readonly<Record<CampaignTriggerCode, readonly string[]>> = {
  M: ['General', 'Select Contacts', 'Design Template', 'Reporting', 'Summary'],
  S: ['General', 'Schedule', 'Select Contacts', 'Design Template', 'Reporting'],
  FU: ['General', 'File Upload', 'Field Mapping', 'Design Template', 'Reporting'],
};

/**
 * When the report e-mail goes: `delay` `unit` after an execution starts, or after its last message was
 * queued (so the statistics have had time to settle).
 */
export const campaignReportingWhens = ['afterStart', 'afterFinish'] as const;
export type CampaignReportingWhen = (typeof campaignReportingWhens)[number];
export const campaignReportingWhenLabels: Readonly<Record<CampaignReportingWhen, string>> = {
  afterStart: 'After the execution starts',
  afterFinish: 'After the last message is queued',
};

/** Reporting delay units m, h, d. */
export const campaignReportingUnits = ['m', 'h', 'd'] as const;
export type CampaignReportingUnit = (typeof campaignReportingUnits)[number];
export const campaignReportingUnitLabels: Readonly<Record<CampaignReportingUnit, string>> = {
  m: 'Minutes',
  h: 'Hours',
  d: 'Days',
};

export const attributeComparatorLabels: Readonly<Record<(typeof attributeComparators)[number], string>> = {
  equals: 'equals',
  notEquals: 'does not equal',
  contains: 'contains',
};

/**
 * Why a contact or a file row was left out of an execution (never charged, never sent):
 * blocked, opted out of the account (STOP) or of every chosen list, an invalid number, a message that
 * renders empty or too long or goes to a country the plan has no price for; for a file, a row without a
 * mobile, a repeat of an earlier row's number, or a row the contact rules refuse.
 */
export const campaignInvalidReasons = [
  'blocked',
  'optedOut',
  'listOptedOut',
  'invalidNumber',
  'emptyMessage',
  'messageTooLong',
  'noPrice',
  'missingMobile',
  'duplicateRow',
  'badRow',
] as const;
export type CampaignInvalidReason = (typeof campaignInvalidReasons)[number];

export const campaignInvalidReasonLabels: Readonly<Record<CampaignInvalidReason, string>> = {
  blocked: 'Blocked',
  optedOut: 'Opted out',
  listOptedOut: 'Opted out of the list',
  invalidNumber: 'Invalid number',
  emptyMessage: 'Empty message',
  messageTooLong: 'Message too long',
  noPrice: 'No price for the country',
  missingMobile: 'No mobile number',
  duplicateRow: 'Repeated number',
  badRow: 'Invalid row',
};

export type CampaignInvalidCounts = Record<CampaignInvalidReason, number>;

export const emptyInvalidCounts = (): CampaignInvalidCounts =>
  Object.fromEntries(campaignInvalidReasons.map((reason) => [reason, 0])) as CampaignInvalidCounts;

// ---------------------------------------------------------------------------------------------------
// Parts of a campaign

const withoutNul = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine((text) => !hasNulCharacter(text), { message: NUL_CHARACTER_MESSAGE });

/** Attribute and comparator are required to add; the value may be empty (equals nothing). */
export const campaignAttributeFilterSchema = z
  .object({
    attribute: attributeNameSchema,
    comparator: z.enum(attributeComparators, { message: validationMessages.required }),
    value: z
      .string()
      .trim()
      .max(CONTACT_ATTRIBUTE_VALUE_MAX, { message: `At most ${String(CONTACT_ATTRIBUTE_VALUE_MAX)} characters` })
      .default(''),
  })
  .meta({ id: 'CampaignAttributeFilter' });

export type CampaignAttributeFilter = z.output<typeof campaignAttributeFilterSchema>;

/**
 * Who a Manual or Scheduled campaign goes to. Each kind left empty asks nothing; the kinds given must all
 * hold (AND): every tag (as the contact table's tag filter), every attribute comparison (ignoring case),
 * on at least one of the lists (not opted out of it), and one of the chosen contacts. No filter at all is
 * every contact of the account. Blocked, opted-out and invalid contacts are always left out and counted.
 */
export const campaignFiltersSchema = z
  .object({
    tags: z
      .array(contactTagSchema)
      .max(CAMPAIGN_FILTER_TAGS_MAX, { message: `At most ${String(CAMPAIGN_FILTER_TAGS_MAX)} tags` })
      .default([]),
    attributes: z
      .array(campaignAttributeFilterSchema)
      .max(CAMPAIGN_FILTER_ATTRIBUTES_MAX, { message: `At most ${String(CAMPAIGN_FILTER_ATTRIBUTES_MAX)} attribute filters` })
      .default([]),
    lists: z
      .array(z.uuid({ message: 'Choose a list' }))
      .max(CAMPAIGN_FILTER_LISTS_MAX, { message: `At most ${String(CAMPAIGN_FILTER_LISTS_MAX)} lists` })
      .default([]),
    contacts: z
      .array(z.uuid({ message: 'Choose a contact' }))
      .max(CAMPAIGN_FILTER_CONTACTS_MAX, { message: `At most ${CAMPAIGN_FILTER_CONTACTS_MAX.toLocaleString('en-US')} contacts` })
      .default([]),
  })
  .meta({ id: 'CampaignFilters' });

export type CampaignFilters = z.output<typeof campaignFiltersSchema>;

export const emptyCampaignFilters = (): CampaignFilters => ({ tags: [], attributes: [], lists: [], contacts: [] });

/** The reporting delay is required and numeric: a whole number of `unit`s, typed or sent as a number. */
const reportingDelaySchema = z
  .union([z.number(), z.string()], { message: validationMessages.required })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: validationMessages.required });
      return z.NEVER;
    }
    if (!/^\d+$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: validationMessages.number });
      return z.NEVER;
    }
    const delay = Number(text);
    if (delay > CAMPAIGN_REPORTING_DELAY_MAX) {
      ctx.addIssue({ code: 'custom', message: `Maximum value is ${String(CAMPAIGN_REPORTING_DELAY_MAX)}` });
      return z.NEVER;
    }
    return delay;
  });

const emailPattern = z.email();

/**
 * Reporting destination e-mails are required, separated by semicolons. Spaces and empty parts are
 * dropped; addresses are kept in lower case, joined by ';'.
 */
const reportingDestinationSchema = z
  .string({ message: validationMessages.required })
  .transform((value, ctx) => {
    const addresses = value
      .split(';')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => part !== '');
    if (addresses.length === 0) {
      ctx.addIssue({ code: 'custom', message: validationMessages.required });
      return z.NEVER;
    }
    if (addresses.some((address) => !emailPattern.safeParse(address).success)) {
      ctx.addIssue({ code: 'custom', message: validationMessages.email });
      return z.NEVER;
    }
    if (addresses.length > CAMPAIGN_REPORTING_DESTINATIONS_MAX) {
      ctx.addIssue({ code: 'custom', message: `At most ${String(CAMPAIGN_REPORTING_DESTINATIONS_MAX)} addresses` });
      return z.NEVER;
    }
    return [...new Set(addresses)].join(';');
  });

export const campaignReportingInputSchema = z.object({
  when: z.enum(campaignReportingWhens, { message: validationMessages.required }),
  delay: reportingDelaySchema,
  unit: z.enum(campaignReportingUnits, { message: validationMessages.required }),
  destination: reportingDestinationSchema,
});

export type CampaignReporting = z.output<typeof campaignReportingInputSchema>;

/**
 * The hosted product's way to ask for no report (its API's minimal campaign sends `{when: 'NoReport'}`):
 * read as no reporting at all, whatever else it carries (docs/decisions.md, the minimal campaign).
 */
export const CAMPAIGN_NO_REPORT = 'NoReport';

const noReportSchema = z.object({ when: z.literal(CAMPAIGN_NO_REPORT) }).transform(() => null);

/**
 * Reporting as saved: the report's settings, `{when: 'NoReport'}` or null for none. Split on `when`, so a
 * report missing its delay still says 'reporting.delay: Required'.
 */
const savedReportingSchema = z
  .discriminatedUnion('when', [noReportSchema, campaignReportingInputSchema], { message: validationMessages.required })
  .nullable()
  .default(null);

/** The addresses of a reporting destination ('a@x.test;b@y.test'). */
export const reportingAddresses = (destination: string): string[] => destination.split(';').filter((a) => a !== '');

/** FU: which column of an uploaded row feeds which contact field (mobile, firstName ...) or attribute. */
export const campaignFieldMappingSchema = z
  .object({
    column: requiredText(500),
    field: requiredText(CONTACT_ATTRIBUTE_NAME_MAX).superRefine((field, ctx) => {
      if (!isImportField(field) && !isValidAttributeName(field)) ctx.addIssue({ code: 'custom', message: importMappingMessages.badTarget(field) });
    }),
  })
  .meta({ id: 'CampaignFieldMapping' });

export type CampaignFieldMapping = z.output<typeof campaignFieldMappingSchema>;

// ---------------------------------------------------------------------------------------------------
// Saving (POST .../campaigns, PUT .../campaigns/{id})

/**
 * The whole campaign, on create and on update (PUT replaces it). A name is required; a messaging type left
 * out is marketing and an outbound group (a group or phone number id) left out is the account's own routing,
 * as the hosted product's minimal campaign needs, but one given must be valid ('Required' for an empty one,
 * which is what the wizard sends unchosen); a message needs text or media; reporting, when
 * given, needs a numeric delay and e-mail destinations separated by semicolons; a Scheduled campaign needs a
 * schedule; a File Upload campaign needs field mappings with the mobile mapped. What a trigger does not use
 * is not kept (a Manual campaign's schedule, the filters and schedule of a File Upload campaign, the field
 * mappings of the others). The server also checks that the group or number, the template, the lists and
 * the contacts are the account's.
 */
export const saveCampaignSchema = z
  .object({
    name: requiredText(CAMPAIGN_NAME_MAX),
    description: z
      .string()
      .trim()
      .max(CAMPAIGN_DESCRIPTION_MAX, { message: `At most ${String(CAMPAIGN_DESCRIPTION_MAX)} characters` })
      .default(''),
    // Defaults for the hosted product's minimal campaign (name, trigger, template, reporting); the wizard
    // always sends both, so its 'Required' stays (docs/decisions.md, the minimal campaign).
    messagingType: z.enum(campaignMessagingTypes, { message: validationMessages.required }).default(CAMPAIGN_DEFAULT_MESSAGING_TYPE),
    /** Null (or left out): the account's own routing, as a send without phoneNumberFilter (docs/campaigns.md). */
    phoneNumberFilter: z
      .object({ group: z.uuid({ message: validationMessages.required }) }, { message: validationMessages.required })
      .nullable()
      .default(null),
    trigger: z.object(
      { code: z.enum(campaignTriggerCodes, { message: 'Choose Manual, Scheduled or File Upload' }) },
      { message: validationMessages.required },
    ),
    schedule: campaignScheduleSchema.nullable().default(null),
    filters: campaignFiltersSchema.default(emptyCampaignFilters),
    template: withoutNul(z.string().max(MESSAGE_TEXT_MAX, { message: MESSAGE_TEXT_MAX_MESSAGE })).default(''),
    templateId: z.uuid({ message: CAMPAIGN_TEMPLATE_UNKNOWN_MESSAGE }).nullable().default(null),
    media: z.array(sendMessageMediaSchema).max(MESSAGE_MEDIA_MAX, { message: MESSAGE_MEDIA_MAX_MESSAGE }).default([]),
    reporting: savedReportingSchema,
    fieldMappings: z
      .array(campaignFieldMappingSchema)
      .max(CAMPAIGN_FIELD_MAPPINGS_MAX, { message: `At most ${String(CAMPAIGN_FIELD_MAPPINGS_MAX)} mappings` })
      .default([]),
    active: z.boolean({ message: 'Use true or false' }).default(true),
  })
  .superRefine((value, ctx) => {
    if (value.template.trim() === '' && value.media.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['template'], message: MESSAGE_EMPTY_MESSAGE });
    }
    const code = value.trigger.code;
    if (code === 'S' && value.schedule === null) ctx.addIssue({ code: 'custom', path: ['schedule'], message: validationMessages.required });
    if (code !== 'FU') return;
    if (!value.fieldMappings.some((m) => m.field === 'mobile')) {
      ctx.addIssue({ code: 'custom', path: ['fieldMappings'], message: importMappingMessages.missingMandatory('mobile') });
    }
    const columns = new Set<string>();
    const attributes = new Set<string>();
    value.fieldMappings.forEach((mapping, index) => {
      if (columns.has(mapping.column)) {
        ctx.addIssue({ code: 'custom', path: ['fieldMappings', index, 'column'], message: campaignColumnMappedTwice(mapping.column) });
      }
      columns.add(mapping.column);
      // A field may take several columns (the first that is not empty wins); an attribute takes one.
      if (isImportField(mapping.field)) return;
      const key = mapping.field.toLowerCase();
      if (attributes.has(key)) {
        ctx.addIssue({ code: 'custom', path: ['fieldMappings', index, 'field'], message: importMappingMessages.mappedTwice(mapping.field) });
      }
      attributes.add(key);
    });
  })
  .meta({ id: 'SaveCampaign' });

export type SaveCampaignInput = z.input<typeof saveCampaignSchema>;
export type SaveCampaign = z.output<typeof saveCampaignSchema>;

// ---------------------------------------------------------------------------------------------------
// The campaign as the API answers it

/**
 * The stored schedule as answered: the same fields, without the checks that judge a new schedule against
 * today (a once-only campaign that ran yesterday still answers its date).
 */
export const campaignScheduleValueSchema = z.object(campaignScheduleSchema.shape).meta({ id: 'CampaignScheduleValue' });

export const campaignSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    messagingType: z.enum(campaignMessagingTypes),
    /** Null: the account's own routing (each contact's last number, else the oldest active number). */
    phoneNumberFilter: z.object({ group: z.uuid() }).nullable(),
    trigger: z.object({ code: z.enum(campaignTriggerCodes) }),
    /** S: the schedule; null for the other triggers. */
    schedule: campaignScheduleValueSchema.nullable(),
    filters: z.object({
      tags: z.array(z.string()),
      attributes: z.array(z.object({ attribute: z.string(), comparator: z.enum(attributeComparators), value: z.string() })),
      lists: z.array(z.uuid()),
      contacts: z.array(z.uuid()),
    }),
    /** The text sent, with tokens. */
    template: z.string(),
    /** The saved template the text was taken from, if any. */
    templateId: z.uuid().nullable(),
    media: z.array(messageMediaSchema),
    reporting: z
      .object({
        when: z.enum(campaignReportingWhens),
        delay: z.number().int(),
        unit: z.enum(campaignReportingUnits),
        destination: z.string(),
      })
      .nullable(),
    fieldMappings: z.array(z.object({ column: z.string(), field: z.string() })),
    /** How many times it was executed. */
    executions: z.number().int(),
    lastJob: z.object({ id: z.uuid() }).nullable(),
    lastExecution: z.iso.datetime().nullable(),
    /** S, while active: when the scheduler runs it next. */
    nextExecution: z.iso.datetime().nullable(),
    created: z.object({ at: z.iso.datetime() }),
    updated: z.object({ at: z.iso.datetime() }),
    active: z.boolean(),
  })
  .meta({ id: 'Campaign' });

export type Campaign = z.infer<typeof campaignSchema>;

export const campaignListSchema = listResponse(campaignSchema).meta({ id: 'CampaignList' });
export const campaignRecordSchema = recordResponse(campaignSchema).meta({ id: 'CampaignRecord' });

const booleanQuery = z.enum(['true', 'false'], { message: 'Use true or false' }).transform((v) => v === 'true');

/** GET /v1/accounts/{acc}/campaigns: the most recently updated first; inactive ones only with showInactive=true. */
export const campaignListQuerySchema = listQuerySchema.extend({ showInactive: booleanQuery.default(false) });

export type CampaignListQuery = z.output<typeof campaignListQuerySchema>;

// ---------------------------------------------------------------------------------------------------
// Executions (GET .../campaigns/{id}/jobs, POST .../campaigns/{id}/execute)

export const campaignExecutionStatuses = ['running', 'done', 'failed'] as const;
export type CampaignExecutionStatus = (typeof campaignExecutionStatuses)[number];

/** A contact or file row left out of an execution. */
export const campaignInvalidEntrySchema = z
  .object({
    reason: z.enum(campaignInvalidReasons),
    /** In words, for the report (the contact's own error for an invalid number). */
    description: z.string(),
    contact: z.object({ id: z.uuid() }).nullable(),
    mobile: z.string().nullable(),
    /** FU: the row of the file (rows[0] is row 1). */
    row: z.number().int().nullable(),
  })
  .meta({ id: 'CampaignInvalidEntry' });

export type CampaignInvalidEntry = z.infer<typeof campaignInvalidEntrySchema>;

export const campaignInvalidCountsSchema = z
  .record(z.enum(campaignInvalidReasons), z.number().int())
  .meta({ id: 'CampaignInvalidCounts' });

/**
 * One execution (docs/campaigns.md, The execution row). `recipients` could be sent to; `submitted` were queued so
 * far; `invalid` lists the first CAMPAIGN_INVALID_LISTED left out (`invalidCount` and `invalidCounts` count
 * them all); `failures` could not be queued when their turn came (the balance ran out, the number went) or
 * were refused or not delivered by the carrier; `incoming` are the replies received in the conversations
 * it texted since; `price` is what was charged. `error` says why an execution failed or stopped.
 */
export const campaignExecutionSchema = z
  .object({
    id: z.uuid(),
    /** The campaign it ran; null for a send not made by a campaign (the column allows it; campaigns make all today). */
    campaign: z.object({ id: z.uuid() }).nullable(),
    status: z.enum(campaignExecutionStatuses),
    created: z.object({ at: z.iso.datetime() }),
    finished: z.object({ at: z.iso.datetime() }).nullable(),
    recipients: z.number().int(),
    submitted: z.number().int(),
    invalid: z.array(campaignInvalidEntrySchema),
    invalidCount: z.number().int(),
    invalidCounts: campaignInvalidCountsSchema,
    failures: z.number().int(),
    incoming: z.number().int(),
    price: moneySchema,
    error: z.object({ description: z.string() }).nullable(),
  })
  .meta({ id: 'CampaignExecution' });

export type CampaignExecution = z.infer<typeof campaignExecutionSchema>;

/** Newest first. */
export const campaignExecutionListQuerySchema = listQuerySchema;
export const campaignExecutionListSchema = listResponse(campaignExecutionSchema).meta({ id: 'CampaignExecutionList' });
/** POST .../execute answers 202 with the execution just started (`submitted` grows as it sends). */
export const campaignExecutionRecordSchema = recordResponse(campaignExecutionSchema).meta({ id: 'CampaignExecutionRecord' });

/**
 * GET .../campaigns/{id}/preview (the Execute Now dialog): how many contacts would be texted now, what it
 * would cost (the same prices execution charges), the contacts left out by reason, and whether the balance
 * is below the estimate (execution then answers 402 'Insufficient Credit').
 */
export const campaignPreviewSchema = z
  .object({
    contacts: z.number().int(),
    estimatedPrice: moneySchema,
    invalidCount: z.number().int(),
    invalidCounts: campaignInvalidCountsSchema,
    insufficientCredit: z.boolean(),
  })
  .meta({ id: 'CampaignPreview' });

export type CampaignPreview = z.infer<typeof campaignPreviewSchema>;
export const campaignPreviewRecordSchema = recordResponse(campaignPreviewSchema).meta({ id: 'CampaignPreviewRecord' });

const fileCellSchema = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

/**
 * The body of POST .../execute for a File Upload campaign: the file's rows, each an object of column →
 * value (keys as the file's header). Each row creates or updates its contact through the field mappings
 * and becomes one message.
 */
export const campaignFileRowsSchema = z
  .array(z.record(z.string().max(500), fileCellSchema), { message: 'Send the rows as a JSON array of objects' })
  .min(1, { message: CAMPAIGN_FILE_EMPTY_MESSAGE })
  .max(CAMPAIGN_FILE_ROWS_MAX, { message: CAMPAIGN_FILE_ROWS_MAX_MESSAGE })
  .meta({ id: 'CampaignFileRows' });

export type CampaignFileRows = z.output<typeof campaignFileRowsSchema>;
export type CampaignFileCell = z.output<typeof fileCellSchema>;

/** The body of POST .../execute: the rows for a File Upload campaign, nothing for the others (`{}` is taken as nothing). */
export const executeCampaignBodySchema = campaignFileRowsSchema.nullish();

