import { z } from 'zod';
import { httpUrl, requiredText } from '../forms.js';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE, validationMessages } from '../validation.js';
import {
  attributeComparators,
  attributeNameSchema,
  CONTACT_ATTRIBUTE_VALUE_MAX,
  contactByMobileSchema,
  contactTagSchema,
  type AttributeComparator,
  type AttributeFilter,
} from './contacts.js';
import { CURSOR_WITH_OFFSET_MESSAGE, cursorQuery, listQuerySchema, listResponse, recordResponse } from './pagination.js';

export const messageStatuses = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'received'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

export const messageMediaSchema = z
  .object({ url: z.string(), type: z.string(), filename: z.string() })
  .meta({ id: 'MessageMedia' });

export type MessageMedia = z.infer<typeof messageMediaSchema>;

/**
 * A message, in and out (docs/messaging.md), in the shape of the hosted product's contract (docs/api.md): an
 * absent value is left out, never null. `encoding`, `segments` and `price` are what the account was charged for
 * (inbound messages cost nothing). `error` carries the carrier's code and text when a send failed.
 */
export const messageSchema = z
  .object({
    id: z.uuid(),
    conversation: z.object({ id: z.uuid() }),
    contact: z.object({ id: z.uuid() }),
    /** The account's number the message went through, E.164 ('+14155550100'), as the contract writes it. */
    phoneNumber: z.string(),
    /** That number's record, left out once the number left the account. */
    phoneNumberId: z.uuid().optional(),
    /**
     * The saved template it was sent from (a campaign's). The contract's `template` is a text, the template before
     * its tokens were filled in, which Parley does not keep: it is left out (docs/decisions.md).
     */
    templateId: z.uuid().optional(),
    message: z.string(),
    direction: z.enum(['inbound', 'outbound']),
    outgoing: z.boolean(),
    status: z.enum(messageStatuses),
    read: z.boolean(),
    encoding: z.enum(['GSM-7', 'UCS-2']),
    segments: z.number().int(),
    /** USD, as a JSON number written from the exact decimal (moneyAsNumber): the contract has a number. */
    price: z.number(),
    media: z.array(messageMediaSchema),
    error: z.object({ code: z.string().optional(), description: z.string() }).optional(),
    eventType: z.string().optional(),
    jobId: z.uuid().optional(),
    /** When quiet hours hold it: the time it may go. */
    sendAfter: z.string().optional(),
    created: z.object({ at: z.string() }),
    sent: z.object({ at: z.string() }).optional(),
    updated: z.object({ at: z.string() }),
  })
  .meta({ id: 'Message' });

export type Message = z.infer<typeof messageSchema>;

/** The data of the messageSent, messageStatus and messageReceived events. */
export interface MessageEventData {
  message: Message;
}

// ---------------------------------------------------------------------------------------------------
// Sending (POST /v1/accounts/{acc}/messages)

/** At most 5 attachments a message. */
export const MESSAGE_MEDIA_MAX = 5;
/** The longest text a message may have once rendered (carriers refuse longer bodies: 10 UCS-2 or GSM-7 parts and more). */
export const MESSAGE_TEXT_MAX = 1600;
/** One call texts at most this many contacts and conversations together; campaigns send larger audiences. */
export const SEND_RECIPIENTS_MAX = 1000;

export const MESSAGE_EMPTY_MESSAGE = 'Enter a message or attach media';
export const MESSAGE_RECIPIENT_REQUIRED_MESSAGE = 'Choose at least one contact or conversation';
export const SEND_NOW_ONE_RECIPIENT_MESSAGE = 'Sending outside acceptable hours is for one recipient at a time';
export const MESSAGE_MEDIA_MAX_MESSAGE = `At most ${MESSAGE_MEDIA_MAX} attachments`;
export const MESSAGE_TEXT_MAX_MESSAGE = `At most ${MESSAGE_TEXT_MAX} characters`;

export const sendMessageMediaSchema = z.object({
  url: httpUrl,
  type: requiredText(100),
  filename: z.string().trim().max(255, { message: 'At most 255 characters' }).default(''),
});

/**
 * Who sends from which number: `group` is a group id (one of its active numbers) or a phone number id
 * (that number), as a campaign's phoneNumberFilter (docs/campaigns.md).
 */
export const phoneNumberFilterSchema = z.object({ group: z.uuid({ message: 'Choose a group or phone number' }) }).meta({ id: 'PhoneNumberFilter' });

export type PhoneNumberFilter = z.infer<typeof phoneNumberFilterSchema>;

/** A send's phoneNumberFilter: Parley's `{group: id}` or the contract's `{group: {id}}`, read as the first. */
export const sendPhoneNumberFilterSchema = z.object({
  group: z
    .union([z.uuid(), z.object({ id: z.uuid() }).transform((group) => group.id)], { message: 'Choose a group or phone number' }),
});

/**
 * One message per contact and per conversation (a contact named twice, or also through one of its
 * conversations, gets one). A conversation answers from its own number; contacts follow phoneNumberFilter,
 * else the number they last talked to, else the account's oldest active number. A media-only message sends
 * an empty template.
 */
export const SEND_CONTACT_MESSAGE = "Give the contact's id or its mobile";

/**
 * A contact to text: its id, `{id}`, or `{mobile: {number, country}}` with optional names and e-mail, which
 * texts the account's contact with that number or adds it (docs/api.md). Normalised to `{id}` or the mobile.
 */
export const sendContactSchema = z
  .union([
    z.uuid({ message: SEND_CONTACT_MESSAGE }).transform((id) => ({ id })),
    z.object({ id: z.uuid({ message: 'Not a contact id' }) }).loose(),
    contactByMobileSchema,
  ], { message: SEND_CONTACT_MESSAGE })
  .meta({ id: 'SendContact' });

export type SendContact = z.output<typeof sendContactSchema>;

/** A send's filters may name at most this many tags and attribute comparisons (as a campaign's). */
export const SEND_FILTER_TAGS_MAX = 100;
export const SEND_FILTER_ATTRIBUTES_MAX = 20;

export const SEND_FILTER_COMPARATOR_MESSAGE = 'Use =, !=, equals, notEquals or contains';
/** The contract's order comparisons have no counterpart: attributes are text, compared as the contact table does. */
export const sendFilterOrderMessage = (comparator: string): string =>
  `The comparator ${comparator} is not supported: attributes are text, compared with =, != or contains`;
export const SEND_FILTERS_EMPTY_MATCH_MESSAGE = 'No contact matches the filters.';
export const sendFiltersTooManyMessage = (max: number): string =>
  `The filters and recipients come to more than ${String(max)} contacts: one call texts at most ${String(max)}; a campaign texts more.`;
/**
 * The contract names `conversationStrategy` without its values or their meaning, so Parley cannot honour
 * one: it always texts a contact in its open conversation on the sending number, or opens one (docs/api.md).
 */
export const CONVERSATION_STRATEGY_MESSAGE =
  "conversationStrategy is not supported: a message goes into the contact's open conversation on the sending number, or starts one";

const contractComparators: Readonly<Record<string, AttributeComparator>> = { '=': 'equals', '!=': 'notEquals' };
const orderComparators: ReadonlySet<string> = new Set(['<', '<=', '>', '>=']);

/**
 * One attribute comparison of a send's `filters`: the contract's `{name, comparator: '=' | '!=', value}` or
 * Parley's own `{attribute, comparator: equals | notEquals | contains, value}`, read as the contact table's
 * attribute filter (ignoring case; a contact without the attribute equals nothing).
 */
export const sendAttributeFilterSchema = z
  .object({
    name: attributeNameSchema.optional(),
    attribute: attributeNameSchema.optional(),
    comparator: z.string({ message: validationMessages.required }).trim(),
    value: z
      .union([z.string(), z.number()], { message: 'Must be text' })
      .transform(String)
      .pipe(z.string().max(CONTACT_ATTRIBUTE_VALUE_MAX, { message: `At most ${String(CONTACT_ATTRIBUTE_VALUE_MAX)} characters` }))
      .default(''),
  })
  .transform((filter, ctx): AttributeFilter => {
    const attribute = filter.attribute ?? filter.name;
    const comparator = contractComparators[filter.comparator] ?? filter.comparator;
    if (attribute === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: validationMessages.required });
    if (orderComparators.has(comparator)) ctx.addIssue({ code: 'custom', path: ['comparator'], message: sendFilterOrderMessage(comparator) });
    else if (!(attributeComparators as readonly string[]).includes(comparator)) {
      ctx.addIssue({ code: 'custom', path: ['comparator'], message: SEND_FILTER_COMPARATOR_MESSAGE });
    }
    return { attribute: attribute ?? '', comparator: comparator as AttributeComparator, value: filter.value };
  });

/**
 * The contract's `filters`: the account's contacts that carry every tag and meet every attribute comparison
 * are texted too (the rule of a campaign's filters and of the contact table). Filters naming nothing add
 * nobody: the whole address book is a campaign's, not one call's.
 */
export const sendFiltersSchema = z
  .object({
    tags: z.array(contactTagSchema).max(SEND_FILTER_TAGS_MAX, { message: `At most ${String(SEND_FILTER_TAGS_MAX)} tags` }).default([]),
    attributes: z
      .array(sendAttributeFilterSchema)
      .max(SEND_FILTER_ATTRIBUTES_MAX, { message: `At most ${String(SEND_FILTER_ATTRIBUTES_MAX)} attribute filters` })
      .default([]),
  })
  .meta({ id: 'SendFilters' });

export type SendFilters = z.output<typeof sendFiltersSchema>;

const namesSomeone = (filters: SendFilters | null | undefined): boolean =>
  filters != null && (filters.tags.length > 0 || filters.attributes.length > 0);

export const sendMessageSchema = z
  .object({
    contacts: z.array(sendContactSchema).max(SEND_RECIPIENTS_MAX, { message: `At most ${SEND_RECIPIENTS_MAX} contacts` }).default([]),
    conversations: z
      .array(z.uuid())
      .max(SEND_RECIPIENTS_MAX, { message: `At most ${SEND_RECIPIENTS_MAX} conversations` })
      .default([]),
    template: z
      .string()
      .max(MESSAGE_TEXT_MAX, { message: MESSAGE_TEXT_MAX_MESSAGE })
      // PostgreSQL text cannot hold NUL, and no carrier sends it.
      .refine((text) => !hasNulCharacter(text), { message: NUL_CHARACTER_MESSAGE })
      .default(''),
    phoneNumberFilter: sendPhoneNumberFilterSchema.nullish(),
    filters: sendFiltersSchema.nullish(),
    /** Read only to be refused: see CONVERSATION_STRATEGY_MESSAGE. */
    conversationStrategy: z.unknown().optional(),
    media: z.array(sendMessageMediaSchema).max(MESSAGE_MEDIA_MAX, { message: MESSAGE_MEDIA_MAX_MESSAGE }).default([]),
    sendNow: z
      .boolean()
      .default(false)
      .describe(
        'One recipient only: send at once even when it is outside the account’s acceptable hours in the recipient’s zone ' +
          '(the sender confirmed it). A reply to a contact who wrote in the last 24 hours goes at once anyway.',
      ),
  })
  .superRefine((value, ctx) => {
    if (value.contacts.length + value.conversations.length === 0 && !namesSomeone(value.filters)) {
      ctx.addIssue({ code: 'custom', message: MESSAGE_RECIPIENT_REQUIRED_MESSAGE, path: ['contacts'] });
    }
    if (value.conversationStrategy != null) {
      ctx.addIssue({ code: 'custom', message: CONVERSATION_STRATEGY_MESSAGE, path: ['conversationStrategy'] });
    }
    if (value.contacts.length + value.conversations.length > SEND_RECIPIENTS_MAX) {
      ctx.addIssue({ code: 'custom', message: `At most ${SEND_RECIPIENTS_MAX} recipients`, path: ['contacts'] });
    }
    if (value.sendNow && value.contacts.length + value.conversations.length > 1) {
      ctx.addIssue({ code: 'custom', message: SEND_NOW_ONE_RECIPIENT_MESSAGE, path: ['sendNow'] });
    }
    if (value.template.trim() === '' && value.media.length === 0) {
      ctx.addIssue({ code: 'custom', message: MESSAGE_EMPTY_MESSAGE, path: ['template'] });
    }
  })
  .meta({ id: 'SendMessage' });

export type SendMessageInput = z.input<typeof sendMessageSchema>;
export type SendMessage = z.output<typeof sendMessageSchema>;

/**
 * A recipient left out of a send (blocked, opted out, invalid, a closed conversation ...): the contract's
 * Contact (its identifiers, and `error` with the reason), with `contact`, `conversation` and `reason` for
 * the web app. `email` is left out when the contact has none.
 */
export const invalidRecipientSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().optional(),
    mobile: z.object({ number: z.string(), country: z.string() }),
    error: z.object({ code: z.string(), description: z.string() }),
    contact: z.object({ id: z.uuid() }),
    conversation: z.object({ id: z.uuid() }).nullable(),
    reason: z.string(),
  })
  .meta({ id: 'InvalidRecipient' });

export type InvalidRecipient = z.infer<typeof invalidRecipientSchema>;

/**
 * 200, the contract's SendMessagesResponse: the queued messages; the recipients left out; how many were
 * asked for (contacts, conversations and the filters' contacts, each once) and how many got a message;
 * `estimatedPrice`, what the account was charged, as a JSON number written from the exact decimal
 * (docs/decisions.md). No `jobId`: a send is no job (campaign executions are).
 */
export const sendMessageResultSchema = z
  .object({
    data: z.object({
      messages: z.array(messageSchema),
      invalid: z.array(invalidRecipientSchema),
      requested: z.number().int(),
      valid: z.number().int(),
      estimatedPrice: z.number(),
    }),
  })
  .meta({ id: 'SendMessageResult' });

export type SendMessageResult = z.infer<typeof sendMessageResultSchema>;

// ---------------------------------------------------------------------------------------------------
// Reading

const booleanQuery = z.enum(['true', 'false'], { message: 'Use true or false' }).transform((v) => v === 'true');

/**
 * GET /v1/accounts/{acc}/messages, newest first. `incoming` / `outgoing` keep one direction (true) or leave
 * it out (false); `errors=true` keeps messages that failed or carry an error.
 */
export const messageListQuerySchema = listQuerySchema
  .extend({
    conversationId: z.uuid().optional(),
    contactId: z.uuid().optional(),
    jobId: z.uuid().optional(),
    incoming: booleanQuery.optional(),
    outgoing: booleanQuery.optional(),
    errors: booleanQuery.optional(),
    after: cursorQuery,
  })
  .refine((query) => query.after === undefined || query.offset === 0, { message: CURSOR_WITH_OFFSET_MESSAGE, path: ['after'] });

export type MessageListQuery = z.output<typeof messageListQuerySchema>;

export const messageListSchema = listResponse(messageSchema).meta({ id: 'MessageList' });
export const messageRecordSchema = recordResponse(messageSchema).meta({ id: 'MessageRecord' });

/** PUT /v1/accounts/{acc}/messages/{id}: marks an incoming message read or unread. */
export const markMessageReadSchema = z
  .object({ read: z.boolean({ message: 'Use true or false' }) })
  .meta({ id: 'MarkMessageRead' });

export type MarkMessageRead = z.infer<typeof markMessageReadSchema>;


// ---------------------------------------------------------------------------------------------------
// Events

/** The data of conversationStarted: the new conversation as far as the sending engine knows it (no group: left out). */
export interface ConversationStartedEventData {
  conversation: {
    id: string;
    contact: { id: string };
    phoneNumber: { id: string; number: string };
    group?: { id: string };
    created: { at: string };
  };
}
