import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  CONVERSATION_NOTHING_TO_MARK_UNREAD_MESSAGE,
  type ConversationEventData,
  type StartConversation,
} from '@parley/shared';
import { assertContactReachable } from '../contacts/index.js';
import { queryRows, type Db, type Tx } from '../../platform/db/client.js';
import { contactGroups, contacts, conversations, messages, phoneNumbers } from '../../platform/db/schema/index.js';
import { publishEvent, publishEvents, type NewEvent } from '../../platform/events/outbox.js';
import { AppError, notFound } from '../../platform/errors.js';
import { openConversations } from '../messaging/index.js';
import { activeSenderNumbers, chooseSenderNumber, NUMBER_NOT_ACTIVE_MESSAGE, type SenderNumber } from '../messaging/index.js';
import { WHOLE_ACCOUNT, type ConversationViewer } from '../messaging/index.js';
import { loadConversation } from './conversationLoader.js';
import { findConversation, unreadPredicate, type ConversationRecord } from './conversationQueries.js';
import { conversationNotFound } from './routes/conversationRequest.js';
import { isUuid } from '../../platform/db/ids.js';

export const CONVERSATION_IN_OTHER_GROUP_MESSAGE =
  'This conversation belongs to a group you are not in: choose another phone number to text this contact.';

/** The conversation the viewer acts on, locked for the rest of the transaction; 404 when hidden or another account's. */
async function lockVisible(tx: Tx, accountId: string, viewer: ConversationViewer, id: string): Promise<ConversationRecord> {
  if (!isUuid(id)) throw conversationNotFound();
  // Lock first (the record query joins other tables), then read it as the viewer sees it.
  await tx.execute(sql`select 1 from ${conversations} where ${conversations.id} = ${id} and ${conversations.accountId} = ${accountId} for no key update`);
  const record = await findConversation(tx, accountId, viewer, id);
  if (record === null) throw conversationNotFound();
  return record;
}

/** An event carrying the conversation as the list shows it (to its audience: see NewEvent.groupId). */
async function conversationEvent(tx: Tx, type: string, accountId: string, id: string, groupId?: string | null): Promise<NewEvent> {
  const conversation = await loadConversation(tx, accountId, WHOLE_ACCOUNT, id);
  if (conversation === null) throw conversationNotFound();
  const data: ConversationEventData = { conversation };
  return { type, accountId, data, ...(groupId === undefined ? {} : { groupId }) };
}

/** The number a started conversation uses: the one asked for (active, the account's), else the contact's kept one, else the oldest. */
async function numberFor(tx: Tx, accountId: string, wanted: string | null, keptNumberId: string | null): Promise<SenderNumber> {
  const active = await activeSenderNumbers(tx, accountId);
  if (wanted === null) return chooseSenderNumber({ numbers: active, groupId: null }, keptNumberId);
  const chosen = isUuid(wanted) ? active.find((n) => n.id === wanted) : undefined;
  if (chosen !== undefined) return chosen;
  const [ours] = isUuid(wanted)
    ? await tx
        .select({ id: phoneNumbers.id })
        .from(phoneNumbers)
        .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.id, wanted)))
        .limit(1)
    : [];
  if (ours === undefined) throw notFound('The phone number');
  throw new AppError(400, 'bad_request', NUMBER_NOT_ACTIVE_MESSAGE);
}

/**
 * The group a new conversation on the number belongs to: the oldest group holding it, as inbound messages
 * decide. (Read here rather than from SenderNumber.groupId, whose subquery names its columns unqualified.)
 */
async function numberGroupId(tx: Tx, accountId: string, phoneNumberId: string): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`select g.id from group_phone_numbers gp join groups g on g.id = gp.group_id
         where gp.phone_number_id = ${phoneNumberId} and g.account_id = ${accountId}
         order by g.created_at, g.id limit 1`,
  );
  return row?.id ?? null;
}

/**
 * The contact's open conversation on a number, opened (conversationStarted) when it has none. A contact that
 * cannot be texted (blocked, opted out, invalid) is refused (409), since the conversation could not be used;
 * so is a conversation the viewer would not see (the number's group is not theirs): nothing is written then.
 */
export function startConversation(
  db: Db,
  accountId: string,
  viewer: ConversationViewer,
  input: StartConversation,
): Promise<{ id: string; started: boolean }> {
  return db.transaction(async (tx) => {
    const contactId = input.contact.id;
    const [contact] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)))
      .limit(1);
    if (!contact) throw notFound('The contact');
    assertContactReachable(contact);
    const number = await numberFor(tx, accountId, input.phoneNumber?.id ?? null, contact.senderPhoneNumberId);
    const groupId = await numberGroupId(tx, accountId, number.id);
    const opened = await openConversations(tx, accountId, [{ contactId, phoneNumberId: number.id, phoneNumber: number.number, groupId }]);
    const conversation = [...opened.values()][0];
    if (conversation === undefined) throw new Error('no conversation was opened');
    if ((await findConversation(tx, accountId, viewer, conversation.id)) === null) {
      throw new AppError(409, 'conflict', CONVERSATION_IN_OTHER_GROUP_MESSAGE);
    }
    return conversation;
  });
}

/** Closes a conversation (conversationClosed); closing a closed one changes nothing. */
export function closeConversation(db: Db, accountId: string, viewer: ConversationViewer, id: string, now = new Date()): Promise<void> {
  return db.transaction(async (tx) => {
    const record = await lockVisible(tx, accountId, viewer, id);
    if (record.closedAt !== null) return;
    await tx
      .update(conversations)
      .set({ closedAt: now, updatedAt: now })
      .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id), isNull(conversations.closedAt)));
    await publishEvent(tx, await conversationEvent(tx, 'conversationClosed', accountId, id));
  });
}

/**
 * Gives a conversation to a group of the account, or to none (conversationUpdated). The new audience gets the
 * event through the conversation's group; the old one gets it too (its clients drop a conversation that left
 * their sight).
 */
export function assignConversationGroup(
  db: Db,
  accountId: string,
  viewer: ConversationViewer,
  id: string,
  groupId: string | null,
  now = new Date(),
): Promise<void> {
  return db.transaction(async (tx) => {
    const record = await lockVisible(tx, accountId, viewer, id);
    if (groupId !== null) {
      const [group] = await tx
        .select({ id: contactGroups.id })
        .from(contactGroups)
        .where(and(eq(contactGroups.accountId, accountId), eq(contactGroups.id, groupId)))
        .limit(1);
      if (!group) throw notFound('The group');
    }
    const previous = record.group?.id ?? null;
    if (previous === groupId) return;
    await tx
      .update(conversations)
      .set({ groupId, updatedAt: now })
      .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)));
    const updated = await conversationEvent(tx, 'conversationUpdated', accountId, id);
    await publishEvents(tx, [updated, { ...updated, groupId: previous }]);
  });
}

/**
 * read=true marks every unread message of the conversation read; read=false marks its last message that can
 * be unread (incoming, or outgoing and failed) unread. conversationRead when anything changed.
 */
export function markConversationRead(
  db: Db,
  accountId: string,
  viewer: ConversationViewer,
  id: string,
  read: boolean,
  now = new Date(),
): Promise<void> {
  return db.transaction(async (tx) => {
    await lockVisible(tx, accountId, viewer, id);
    let changed: boolean;
    if (read) {
      const marked = await tx
        .update(messages)
        .set({ readAt: now })
        .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, id), unreadPredicate('"messages"')))
        .returning({ id: messages.id });
      changed = marked.length > 0;
    } else {
      const [last] = await tx
        .select({ id: messages.id, readAt: messages.readAt })
        .from(messages)
        .where(
          and(
            eq(messages.accountId, accountId),
            eq(messages.conversationId, id),
            sql`(${messages.direction} = 'inbound' or ${messages.status} in ('failed', 'undelivered'))`,
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1);
      if (!last) throw new AppError(400, 'bad_request', CONVERSATION_NOTHING_TO_MARK_UNREAD_MESSAGE);
      changed = last.readAt !== null;
      if (changed) await tx.update(messages).set({ readAt: null }).where(and(eq(messages.accountId, accountId), eq(messages.id, last.id)));
    }
    if (changed) await publishEvent(tx, await conversationEvent(tx, 'conversationRead', accountId, id));
  });
}
