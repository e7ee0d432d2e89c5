import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { SEND_RECIPIENTS_MAX } from '@parley/shared';
import { contactIdsMatching } from '../contacts/index.js';
import type { Tx } from '../../platform/db/client.js';
import { contacts, conversations, type ContactRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import {
  CONTACT_NOT_FOUND,
  CONVERSATION_NOT_FOUND,
  SEND_FILTERS_EMPTY_MATCH_MESSAGE,
  sendFiltersTooManyMessage,
  type SendMessagesInput,
} from './messageSenderTypes.js';
import { isUuid } from '../../platform/db/ids.js';

/** A recipient of a send: a contact, through one of its conversations or not. */
export interface SendRecipient {
  contact: ContactRow;
  conversation: { id: string; phoneNumberId: string | null; closedAt: Date | null } | null;
}

/** `column in (ids)` with the ids as one jsonb parameter, so thousands of them stay one bound value. */
export const inIds = (column: AnyPgColumn, ids: readonly string[]): SQL =>
  sql`${column} in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`;

async function contactsById(tx: Tx, accountId: string, ids: readonly string[]): Promise<Map<string, ContactRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), inIds(contacts.id, ids)));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The recipients of a send, within the account: each conversation (with its contact), then each contact not
 * already reached through one of them; repeats count once. An id the account does not have answers 404 and
 * nothing is sent: a wrong id is the caller's mistake, unlike a contact who cannot be texted.
 */
export async function loadRecipients(
  tx: Tx,
  accountId: string,
  contactIds: readonly string[],
  conversationIds: readonly string[],
): Promise<SendRecipient[]> {
  const wantedConversations = [...new Set(conversationIds)];
  const wantedContacts = [...new Set(contactIds)];
  if (!wantedConversations.every(isUuid)) throw notFound(CONVERSATION_NOT_FOUND);
  if (!wantedContacts.every(isUuid)) throw notFound(CONTACT_NOT_FOUND);

  const conversationRows =
    wantedConversations.length === 0
      ? []
      : await tx
          .select({
            id: conversations.id,
            contactId: conversations.contactId,
            phoneNumberId: conversations.phoneNumberId,
            closedAt: conversations.closedAt,
          })
          .from(conversations)
          .where(and(eq(conversations.accountId, accountId), inIds(conversations.id, wantedConversations)));
  const conversationsById = new Map(conversationRows.map((row) => [row.id, row]));
  if (conversationsById.size !== wantedConversations.length) throw notFound(CONVERSATION_NOT_FOUND);

  const byId = await contactsById(tx, accountId, [...new Set([...wantedContacts, ...conversationRows.map((c) => c.contactId)])]);
  if (!wantedContacts.every((id) => byId.has(id))) throw notFound(CONTACT_NOT_FOUND);

  const recipients: SendRecipient[] = [];
  const reached = new Set<string>();
  for (const id of wantedConversations) {
    const conversation = conversationsById.get(id);
    const contact = conversation === undefined ? undefined : byId.get(conversation.contactId);
    if (conversation === undefined || contact === undefined) throw notFound(CONVERSATION_NOT_FOUND);
    recipients.push({
      contact,
      conversation: { id: conversation.id, phoneNumberId: conversation.phoneNumberId, closedAt: conversation.closedAt },
    });
    reached.add(contact.id);
  }
  for (const id of wantedContacts) {
    const contact = byId.get(id);
    if (contact === undefined) throw notFound(CONTACT_NOT_FOUND);
    if (reached.has(id)) continue;
    recipients.push({ contact, conversation: null });
    reached.add(id);
  }
  return recipients;
}

/** Whether a send's filters name anything: filters naming nothing add nobody (never the whole account). */
export const filtersName = (filters: SendMessagesInput['filters']): filters is NonNullable<SendMessagesInput['filters']> =>
  filters != null && (filters.tags.length > 0 || filters.attributes.length > 0);

/**
 * The contacts a send's filters add (docs/api.md, sending). One call texts at most SEND_RECIPIENTS_MAX
 * recipients: filters that match more are refused, so a send never quietly texts a part of them.
 */
export async function contactsOfFilters(tx: Tx, accountId: string, filters: SendMessagesInput['filters']): Promise<string[]> {
  if (!filtersName(filters)) return [];
  const ids = await contactIdsMatching(tx, accountId, filters, SEND_RECIPIENTS_MAX + 1);
  if (ids.length > SEND_RECIPIENTS_MAX) throw new AppError(400, 'bad_request', sendFiltersTooManyMessage(SEND_RECIPIENTS_MAX));
  return ids;
}

/** With filters, the recipients all told must stay within one call's limit, and someone must be found. */
export function checkFilteredRecipients(filters: SendMessagesInput['filters'], recipients: readonly SendRecipient[]): void {
  if (!filtersName(filters)) return;
  if (recipients.length === 0) throw new AppError(400, 'bad_request', SEND_FILTERS_EMPTY_MATCH_MESSAGE);
  if (recipients.length > SEND_RECIPIENTS_MAX) throw new AppError(400, 'bad_request', sendFiltersTooManyMessage(SEND_RECIPIENTS_MAX));
}
