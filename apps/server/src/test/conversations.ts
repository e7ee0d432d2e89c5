import { and, eq, isNull, lte, or } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Role } from '@parley/shared';
import type { Queryable } from '../platform/db/client.js';
import { accountMembers, contactGroups, conversations, groupUsers, messages, type MessageRow } from '../platform/db/schema/index.js';
import { createUser } from './factories.js';
import { addContact, type SendingAccount } from './sendingFixtures.js';

/* Test fixtures of the inbox: rows written directly, each test in its own account. */

/** A member of the account with a role (verified e-mail), and their id. */
export async function addMember(q: Queryable, accountId: string, role: Role): Promise<string> {
  const user = await createUser(q);
  await q.insert(accountMembers).values({ accountId, userId: user.id, role });
  return user.id;
}

/** A group of the account with these users. */
export async function addGroup(q: Queryable, accountId: string, userIds: readonly string[] = [], name = `Group ${uuidv7()}`): Promise<string> {
  const id = uuidv7();
  await q.insert(contactGroups).values({ id, accountId, name });
  if (userIds.length > 0) await q.insert(groupUsers).values(userIds.map((userId) => ({ groupId: id, userId })));
  return id;
}

export interface ConversationFixture {
  id: string;
  contactId: string;
  mobile: string;
}

/**
 * An open conversation of a new contact on the account's number, optionally in a group, with its activity at
 * `at` (last message time; none when it has no messages).
 */
export async function addConversation(
  q: Queryable,
  account: SendingAccount,
  options: { groupId?: string | null; firstName?: string; lastName?: string; closedAt?: Date | null; createdAt?: Date } = {},
): Promise<ConversationFixture> {
  const contact = await addContact(q, account.accountId, {
    firstName: options.firstName ?? 'Ada',
    lastName: options.lastName ?? 'Lovelace',
    senderPhoneNumberId: account.numberId,
  });
  const id = uuidv7();
  const createdAt = options.createdAt ?? new Date();
  await q.insert(conversations).values({
    id,
    accountId: account.accountId,
    contactId: contact.id,
    phoneNumberId: account.numberId,
    groupId: options.groupId ?? null,
    closedAt: options.closedAt ?? null,
    createdAt,
    updatedAt: createdAt,
  });
  return { id, contactId: contact.id, mobile: contact.mobileNumber };
}

/**
 * A message in the conversation (incoming unless overridden) written as the engine would, the conversation
 * pointing at it as its last message when it is the newest.
 */
export async function addMessage(
  q: Queryable,
  account: SendingAccount,
  conversation: ConversationFixture,
  overrides: Partial<typeof messages.$inferInsert> = {},
): Promise<MessageRow> {
  const inbound = (overrides.direction ?? 'inbound') === 'inbound';
  const [row] = await q
    .insert(messages)
    .values({
      id: uuidv7(),
      accountId: account.accountId,
      conversationId: conversation.id,
      contactId: conversation.contactId,
      phoneNumberId: account.numberId,
      direction: 'inbound',
      fromNumber: inbound ? conversation.mobile : account.number,
      toNumber: inbound ? account.number : conversation.mobile,
      body: inbound ? 'Hello there' : 'Hi back',
      status: inbound ? 'received' : 'delivered',
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('message insert returned nothing');
  await q
    .update(conversations)
    .set({ lastMessageId: row.id, lastMessageAt: row.createdAt })
    .where(and(eq(conversations.id, conversation.id), or(isNull(conversations.lastMessageAt), lte(conversations.lastMessageAt, row.createdAt))));
  return row;
}
