import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { roles, type Conversation } from '@parley/shared';
import { CONTACT_BLOCKED_MESSAGE, CONTACT_OPTED_OUT_MESSAGE } from '../../contacts/reachability.js';
import { queryRows } from '../../../platform/db/client.js';
import { groupPhoneNumbers } from '../../../platform/db/schema/index.js';
import { NUMBER_NOT_ACTIVE_MESSAGE } from '../../messaging/senderNumbers.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, addPhoneNumber, messagingCounts, sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';
import { CONVERSATION_IN_OTHER_GROUP_MESSAGE } from '../conversationCommands.js';
import { addGroup, addMember } from '../../../test/conversations.js';

describe.each(testDatabaseKinds)('conversations: start on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  let account: SendingAccount;
  let admin: string;
  beforeAll(async () => {
    account = await sendingAccount(h.database.db);
    admin = h.tokenFor(account.adminId);
    await addPhoneNumber(h.database.db, fixtures.accountId);
  });

  const start = async (token: string, body: object, acc = account.accountId) => {
    const res = await h.call('POST', `/v1/accounts/${acc}/conversations`, token, body);
    return { statusCode: res.statusCode, body: res.body, data: res.statusCode < 300 ? res.json<{ data: Conversation }>().data : null };
  };
  const startedEvents = (contactId: string) =>
    queryRows<{ group_id: string | null; data: { conversation: { id: string } } }>(
      h.database.db,
      sql`select group_id, data from events where type = 'conversationStarted' and data->'conversation'->'contact'->>'id' = ${contactId} order by id`,
    );

  it("opens the contact's conversation (201, conversationStarted), then answers the open one (200)", async () => {
    const contact = await addContact(h.database.db, account.accountId, { firstName: 'Stella' });
    const opened = await start(admin, { contact: { id: contact.id } });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.data).toMatchObject({
      contact: { id: contact.id, firstName: 'Stella' },
      phoneNumber: { id: account.numberId, number: account.number },
      closed: false,
      unread: [],
    });
    // Absent values are left out (docs/api.md): no group, no message yet, open.
    for (const absent of ['group', 'lastMessage', 'closedAt']) expect(opened.data, absent).not.toHaveProperty(absent);
    const again = await start(admin, { contact: { id: contact.id }, phoneNumber: { id: account.numberId } });
    expect(again.statusCode).toBe(200);
    expect(again.data?.id).toBe(opened.data?.id);
    const events = await startedEvents(contact.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.conversation.id).toBe(opened.data?.id);

    // Another number of the account is another conversation.
    const second = await addPhoneNumber(h.database.db, account.accountId);
    const elsewhere = await start(admin, { contact: { id: contact.id }, phoneNumber: { id: second.id } });
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.data?.phoneNumber).toEqual({ id: second.id, number: second.number });
  });

  it('uses the number the contact last talked to when none is named', async () => {
    const kept = await addPhoneNumber(h.database.db, account.accountId);
    const contact = await addContact(h.database.db, account.accountId, { senderPhoneNumberId: kept.id });
    const opened = await start(admin, { contact: { id: contact.id } });
    expect(opened.data?.phoneNumber?.id).toBe(kept.id);
  });

  it('refuses contacts that cannot be texted, numbers that cannot send and bad input, writing nothing', async () => {
    const blocked = await addContact(h.database.db, account.accountId, { blockedAt: new Date() });
    const optedOut = await addContact(h.database.db, account.accountId, { optedOutAt: new Date() });
    const fine = await addContact(h.database.db, account.accountId);
    const suspended = await addPhoneNumber(h.database.db, account.accountId, { status: 'suspended' });
    const other = await sendingAccount(h.database.db);
    const theirContact = await addContact(h.database.db, other.accountId);
    const before = await messagingCounts(h.database.db, account.accountId);
    const cases: [object, number, string][] = [
      [{ contact: { id: blocked.id } }, 409, CONTACT_BLOCKED_MESSAGE],
      [{ contact: { id: optedOut.id } }, 409, CONTACT_OPTED_OUT_MESSAGE],
      [{ contact: { id: fine.id }, phoneNumber: { id: suspended.id } }, 400, NUMBER_NOT_ACTIVE_MESSAGE],
      [{ contact: { id: fine.id }, phoneNumber: { id: other.numberId } }, 404, 'The phone number was not found.'],
      [{ contact: { id: theirContact.id } }, 404, 'The contact was not found.'],
      [{}, 400, 'contact'],
      [{ contact: { id: 'nope' } }, 400, 'Choose a contact'],
      [{ contact: { id: fine.id }, phoneNumber: { id: 'nope' } }, 400, 'Choose a phone number'],
    ];
    for (const [body, status, message] of cases) {
      const res = await start(admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.body, JSON.stringify(body)).toContain(message);
    }
    expect(await messagingCounts(h.database.db, account.accountId)).toEqual(before);
    // Nor with the other account in the path.
    expect((await start(admin, { contact: { id: theirContact.id } }, other.accountId)).statusCode).toBe(404);
  });

  it('opens a conversation on a group’s number in that group, only for a user who will see it', async () => {
    const member = await addMember(h.database.db, account.accountId, 'Sender');
    const outsider = await addMember(h.database.db, account.accountId, 'Sender');
    const groupId = await addGroup(h.database.db, account.accountId, [member], 'Front desk');
    const number = await addPhoneNumber(h.database.db, account.accountId);
    await h.database.db.insert(groupPhoneNumbers).values({ groupId, phoneNumberId: number.id });
    const contact = await addContact(h.database.db, account.accountId);

    const before = await messagingCounts(h.database.db, account.accountId);
    const refused = await start(h.tokenFor(outsider), { contact: { id: contact.id }, phoneNumber: { id: number.id } });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain(CONVERSATION_IN_OTHER_GROUP_MESSAGE);
    expect(await messagingCounts(h.database.db, account.accountId)).toEqual(before);

    const opened = await start(h.tokenFor(member), { contact: { id: contact.id }, phoneNumber: { id: number.id } });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.data?.group).toEqual({ id: groupId, name: 'Front desk' });
    expect((await startedEvents(contact.id)).map((e) => e.group_id)).toEqual([groupId]);
  });

  it('lets every role but Read Only start conversations', async () => {
    for (const role of roles) {
      const contact = await addContact(h.database.db, fixtures.accountId);
      const res = await start(tokens[role], { contact: { id: contact.id } }, fixtures.accountId);
      expect(res.statusCode, `${role}: ${res.body}`).toBe(role === 'ReadOnly' ? 403 : 201);
    }
  });
});
