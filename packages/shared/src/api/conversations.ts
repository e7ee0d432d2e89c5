import { z } from 'zod';
import { messageSchema, type MessageStatus } from './messages.js';
import { listQuerySchema, listResponse, paginationSchema, recordResponse } from './pagination.js';

/** The last message's preview in the conversation list is cut here, plus an ellipsis. */
export const LAST_MESSAGE_PREVIEW_LENGTH = 160;

export const lastMessagePreview = (text: string): string =>
  text.length > LAST_MESSAGE_PREVIEW_LENGTH ? `${text.slice(0, LAST_MESSAGE_PREVIEW_LENGTH)}…` : text;

/** The side menu's unread badge shows up to this many, then '+' when more exist. */
export const UNREAD_BADGE_MAX = 99;

/** As the server words every 404 ('The ... was not found.'); a conversation hidden from the user by its group answers it too. */
export const CONVERSATION_NOT_FOUND_MESSAGE = 'The conversation was not found.';
/** The refusal of a message to a closed conversation (409), from POST messages. */
export const CONVERSATION_CLOSED_MESSAGE = 'This conversation is closed and cannot be answered: start a new one to text this contact.';
export const CONVERSATION_EMPTY_STATE = 'No Conversations Exist';
/** PUT conversations/{id}/read with read=false when nothing in it can be unread (400). */
export const CONVERSATION_NOTHING_TO_MARK_UNREAD_MESSAGE = 'This conversation has no incoming or failed message to mark unread.';
/** PUT messages/{id} on a message that cannot be unread: an outgoing one that did not fail (400). */
export const MESSAGE_READ_NOT_UNREADABLE_MESSAGE = 'Only incoming messages and outgoing ones that failed can be marked read or unread.';

/**
 * docs/inbox.md, Unread: a message is unread when nobody marked it read and it is incoming, or outgoing and errored
 * (failed or undelivered). The server's partial index messages_unread_idx has the same predicate.
 */
export const canBeUnread = (message: { outgoing: boolean; status: MessageStatus }): boolean =>
  !message.outgoing || message.status === 'failed' || message.status === 'undelivered';

/**
 * The contact as a conversation shows it: the hosted product's ContactIdentifiers (its mobile is the number and
 * its country), with when it was blocked or opted out, left out when it was not.
 */
export const conversationContactSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    mobile: z.object({ number: z.string(), country: z.string() }),
    blocked: z.string().optional(),
    optedOut: z.string().optional(),
  })
  .meta({ id: 'ConversationContact' });

/**
 * The last message, a message as the messages calls answer it (the contract's lastMessage is a Message), with
 * the fields the list shows. `message` is the full text; the list cuts it with lastMessagePreview.
 */
export const conversationLastMessageSchema = messageSchema
  .pick({ id: true, message: true, templateId: true, status: true, error: true, outgoing: true, media: true, created: true })
  .meta({ id: 'ConversationLastMessage' });

/**
 * A conversation (docs/inbox.md) in the hosted product's shape (docs/api.md): a contact and one of the account's
 * numbers, open until closed. `closed` says whether it is closed and `closedAt` since when; absent values (no
 * number, group or last message, an open conversation's `closedAt`) are left out. `unread` lists the ids of its
 * unread messages: incoming ones, and outgoing ones that errored, that nobody marked read. `messages` is only
 * filled by GET conversations/{id} (its newest page).
 */
export const conversationSchema = z
  .object({
    id: z.uuid(),
    contact: conversationContactSchema,
    phoneNumber: z.object({ id: z.uuid(), number: z.string() }).optional(),
    group: z.object({ id: z.uuid(), name: z.string() }).optional(),
    lastMessage: conversationLastMessageSchema.optional(),
    created: z.object({ at: z.string() }),
    updated: z.object({ at: z.string() }),
    closed: z.boolean(),
    closedAt: z.string().optional(),
    unread: z.array(z.uuid()),
    messages: z.object({ data: z.array(messageSchema), pagination: paginationSchema }).optional(),
  })
  .meta({ id: 'Conversation' });

export type Conversation = z.infer<typeof conversationSchema>;

const booleanQuery = z.enum(['true', 'false'], { message: 'Use true or false' }).transform((v) => v === 'true');

/**
 * GET /v1/accounts/{acc}/conversations, the most recent activity first. `closed=true` lists closed ones
 * instead of open ones; `unread=true` keeps those with unread messages; `q` searches the contact's name
 * and number; `contactId` keeps one contact's.
 */
export const conversationListQuerySchema = listQuerySchema.extend({
  closed: booleanQuery.default(false),
  unread: booleanQuery.default(false),
  contactId: z.uuid().optional(),
  q: z.string().trim().max(100, { message: 'At most 100 characters' }).optional(),
});

export type ConversationListQuery = z.output<typeof conversationListQuerySchema>;

export const conversationListSchema = listResponse(conversationSchema).meta({ id: 'ConversationList' });
export const conversationRecordSchema = recordResponse(conversationSchema).meta({ id: 'ConversationRecord' });

/** GET conversations/{id}: the page of messages it carries (newest first). */
export const conversationQuerySchema = listQuerySchema;

/**
 * POST /v1/accounts/{acc}/conversations: the contact's open conversation on the number (the account's oldest
 * active number, or the contact's kept one, when none is named), opened when it has none. 201 when opened,
 * 200 when it existed.
 */
export const startConversationSchema = z
  .object({
    contact: z.object({ id: z.uuid({ message: 'Choose a contact' }) }),
    phoneNumber: z.object({ id: z.uuid({ message: 'Choose a phone number' }) }).nullish(),
  })
  .meta({ id: 'StartConversation' });

export type StartConversation = z.infer<typeof startConversationSchema>;

/** PUT conversations/{id}/assigngroup: payload group.id (null takes the group away). */
export const assignGroupSchema = z
  .object({ group: z.object({ id: z.uuid({ message: 'Choose a group' }) }).nullable() })
  .meta({ id: 'AssignGroup' });

export type AssignGroup = z.infer<typeof assignGroupSchema>;

/** PUT conversations/{id}/read: marks every unread message of the conversation read, or its last incoming one unread. */
export const markConversationReadSchema = z
  .object({ read: z.boolean({ message: 'Use true or false' }) })
  .meta({ id: 'MarkConversationRead' });

export type MarkConversationRead = z.infer<typeof markConversationReadSchema>;

/**
 * GET /v1/accounts/{acc}/counts/{type}: counts keyed by type; `unread` is the number of open
 * conversations the user can see that have unread messages. Another type answers 404 (unknownCountTypeMessage).
 */
export const countTypes = ['unread'] as const;
export type CountType = (typeof countTypes)[number];
export const isCountType = (type: string): type is CountType => (countTypes as readonly string[]).includes(type);
export const unknownCountTypeMessage = (type: string): string =>
  `There is no count of type '${type}'. Known types: ${countTypes.join(', ')}.`;

export const countsSchema = z.object({ data: z.object({ unread: z.number().int() }) }).meta({ id: 'Counts' });
export type Counts = z.infer<typeof countsSchema>;

// ---------------------------------------------------------------------------------------------------
// Events (outbox → websocket, notifications)

/** conversationClosed, conversationRead and conversationUpdated carry the conversation as the list shows it. */
export interface ConversationEventData {
  conversation: Conversation;
}

/** Event types the inbox listens to; all carry a conversation or a message with its conversation id. */
export const inboxEventTypes = [
  'messageReceived',
  'messageSent',
  'messageStatus',
  'messageRead',
  'conversationStarted',
  'conversationClosed',
  'conversationRead',
  'conversationUpdated',
] as const;
export type InboxEventType = (typeof inboxEventTypes)[number];
