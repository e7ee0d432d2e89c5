import { z } from 'zod';
import { httpUrl, requiredText } from '../forms.js';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE } from '../validation.js';
import { contactByMobileSchema } from './contacts.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

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
    phoneNumberFilter: phoneNumberFilterSchema.nullish(),
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
    if (value.contacts.length + value.conversations.length === 0) {
      ctx.addIssue({ code: 'custom', message: MESSAGE_RECIPIENT_REQUIRED_MESSAGE, path: ['contacts'] });
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

/** A recipient left out of a send, and why (blocked, opted out, invalid, a closed conversation ...). */
export const invalidRecipientSchema = z
  .object({
    contact: z.object({ id: z.uuid() }),
    conversation: z.object({ id: z.uuid() }).nullable(),
    reason: z.string(),
  })
  .meta({ id: 'InvalidRecipient' });

export type InvalidRecipient = z.infer<typeof invalidRecipientSchema>;

/** 201: the queued messages, and the recipients left out. */
export const sendMessageResultSchema = z
  .object({ data: z.array(messageSchema), invalid: z.array(invalidRecipientSchema) })
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
  });

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
