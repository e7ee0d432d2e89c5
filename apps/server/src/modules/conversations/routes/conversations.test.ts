import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_NOT_FOUND_MESSAGE, unknownCountTypeMessage, type Conversation, type Message, type Pagination } from '@parley/shared';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { sendingAccount, type SendingAccount } from '../../../test/sendingFixtures.js';
import { addConversation, addGroup, addMember, addMessage, type ConversationFixture } from '../../../test/conversations.js';

interface Page {
  data: Conversation[];
  pagination: Pagination;
}

const minutesAgo = (n: number): Date => new Date(Date.now() - n * 60_000);

describe.each(testDatabaseKinds)('conversations: reading on %s', (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);

  let account: SendingAccount;
  let admin: string;
  const people: Record<'inGroup' | 'outside' | 'managerOutside' | 'readOnly', string> = { inGroup: '', outside: '', managerOutside: '', readOnly: '' };
  let groupId: string;
  let grouped: ConversationFixture;
  let older: ConversationFixture;
  let newest: ConversationFixture;
  let closed: ConversationFixture;
  let empty: ConversationFixture;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const db = h.database.db;
    account = await sendingAccount(db);
    admin = h.tokenFor(account.adminId);
    const inGroup = await addMember(db, account.accountId, 'Sender');
    people.inGroup = h.tokenFor(inGroup);
    people.outside = h.tokenFor(await addMember(db, account.accountId, 'Sender'));
    people.managerOutside = h.tokenFor(await addMember(db, account.accountId, 'CampaignManager'));
    people.readOnly = h.tokenFor(await addMember(db, account.accountId, 'ReadOnly'));
    groupId = await addGroup(db, account.accountId, [inGroup], 'Support');

    // Activity order, oldest first: empty (opened 50 min ago, no messages), older, grouped, newest.
    empty = await addConversation(db, account, { firstName: 'Emma', lastName: 'Empty', createdAt: minutesAgo(50) });
    older = await addConversation(db, account, { firstName: 'Olga', lastName: 'Older', createdAt: minutesAgo(60) });
    ids.olderIn = (await addMessage(db, account, older, { createdAt: minutesAgo(40) })).id;
    ids.olderOut = (await addMessage(db, account, older, { direction: 'outbound', createdAt: minutesAgo(39), body: 'x'.repeat(200) })).id;
    grouped = await addConversation(db, account, { groupId, firstName: 'Greta', lastName: 'Grouped', createdAt: minutesAgo(60) });
    ids.groupedIn = (await addMessage(db, account, grouped, { createdAt: minutesAgo(30) })).id;
    newest = await addConversation(db, account, { firstName: 'Nina', lastName: 'Newest', createdAt: minutesAgo(60) });
    ids.newestRead = (await addMessage(db, account, newest, { createdAt: minutesAgo(22), readAt: minutesAgo(21) })).id;
    ids.newestIn = (await addMessage(db, account, newest, { createdAt: minutesAgo(21), body: 'With a picture', media: [{ url: 'https://example.test/a.png', type: 'image/png', filename: 'a.png' }] })).id;
    ids.newestFailed = (
      await addMessage(db, account, newest, {
        direction: 'outbound',
        status: 'failed',
        errorCode: '30003',
        errorDescription: 'Unreachable destination handset',
        createdAt: minutesAgo(20),
      })
    ).id;
    closed = await addConversation(db, account, { firstName: 'Carl', lastName: 'Closed', closedAt: minutesAgo(1), createdAt: minutesAgo(60) });
    ids.closedIn = (await addMessage(db, account, closed, { createdAt: minutesAgo(10) })).id;
  });

  const url = (query = '') => `/v1/accounts/${account.accountId}/conversations${query}`;
  const list = async (token: string, query = ''): Promise<Page> => {
    const res = await h.call('GET', url(query), token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  const namesOf = (page: Page) => page.data.map((c) => c.contact.firstName);

  it('lists open conversations, newest activity first, each with its contact, number, group, last message and unread ids', async () => {
    const page = await list(admin);
    expect(namesOf(page)).toEqual(['Nina', 'Greta', 'Olga', 'Emma']);
    expect(page.pagination).toEqual({ totalCount: 4, offset: 0, limit: 10 });
    const [nina, greta, olga, emma] = page.data;
    expect(nina).toMatchObject({
      id: newest.id,
      contact: { id: newest.contactId, firstName: 'Nina', lastName: 'Newest', mobile: { number: newest.mobile, country: 'US' } },
      phoneNumber: { id: account.numberId, number: account.number },
      closed: false,
      lastMessage: {
        id: ids.newestFailed,
        status: 'failed',
        outgoing: true,
        error: { code: '30003', description: 'Unreachable destination handset' },
        media: [],
        created: { at: expect.any(String) as unknown },
      },
      // The incoming one nobody read and the failed one: unread (docs/inbox.md), oldest first.
      unread: [ids.newestIn, ids.newestFailed],
    });
    // Absent values are left out (docs/api.md).
    for (const absent of ['messages', 'group', 'closedAt', 'contact.blocked', 'contact.optedOut', 'lastMessage.templateId']) {
      expect(nina, absent).not.toHaveProperty(absent);
    }
    expect(greta).toMatchObject({ group: { id: groupId, name: 'Support' }, unread: [ids.groupedIn] });
    // The full text travels; the list cuts it (lastMessagePreview).
    expect(olga?.lastMessage).toMatchObject({ id: ids.olderOut, message: 'x'.repeat(200), outgoing: true });
    expect(olga?.lastMessage).not.toHaveProperty('error');
    expect(olga?.unread).toEqual([ids.olderIn]);
    expect(emma).toMatchObject({ unread: [] });
    expect(emma).not.toHaveProperty('lastMessage');

    const second = await list(admin, '?limit=2&offset=2');
    expect(namesOf(second)).toEqual(['Olga', 'Emma']);
    expect(second.pagination).toEqual({ totalCount: 4, offset: 2, limit: 2 });
    const past = await list(admin, '?limit=2&offset=10');
    expect(past).toEqual({ data: [], pagination: { totalCount: 4, offset: 10, limit: 2 } });
  });

  it('filters closed, unread, contactId and q (name or number, punctuation ignored)', async () => {
    const closedPage = await list(admin, '?closed=true');
    expect(closedPage.data.map((c) => c.id)).toEqual([closed.id]);
    expect(closedPage.data[0]).toMatchObject({ closed: true, closedAt: expect.any(String) as unknown });
    expect(namesOf(await list(admin, '?unread=true'))).toEqual(['Nina', 'Greta', 'Olga']);
    expect(namesOf(await list(admin, `?contactId=${older.contactId}`))).toEqual(['Olga']);
    expect(namesOf(await list(admin, '?q=nina%20new'))).toEqual(['Nina']);
    const digits = older.mobile.slice(2);
    const typed = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
    expect(namesOf(await list(admin, `?q=${encodeURIComponent(typed)}`))).toEqual(['Olga']);
    expect((await list(admin, '?q=50%25')).data).toEqual([]);
  });

  it('refuses bad filters with a clear message', async () => {
    for (const [query, message] of [
      ['?unread=maybe', 'Use true or false'],
      ['?closed=1', 'Use true or false'],
      ['?limit=0', 'Minimum value is 1'],
      ['?limit=101', 'Maximum value is 100'],
      ['?contactId=nope', 'contactId'],
    ] as const) {
      const res = await h.call('GET', url(query), admin);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message, query).toContain(message);
    }
  });

  it('shows a group’s conversation to its users and administrators only, in lists, counts, messages and records', async () => {
    const seen = async (token: string) => (await list(token)).data.map((c) => c.id);
    expect(await seen(admin)).toContain(grouped.id);
    expect(await seen(people.inGroup)).toContain(grouped.id);
    expect(await seen(people.outside)).toEqual([newest.id, older.id, empty.id]);
    expect(await seen(people.managerOutside)).not.toContain(grouped.id);
    expect(await seen(people.readOnly)).not.toContain(grouped.id);

    const count = async (token: string) => (await h.call('GET', `/v1/accounts/${account.accountId}/counts/unread`, token)).json<{ data: { unread: number } }>();
    expect(await count(admin)).toEqual({ data: { unread: 3 } });
    expect(await count(people.inGroup)).toEqual({ data: { unread: 3 } });
    expect(await count(people.outside)).toEqual({ data: { unread: 2 } });

    const one = await h.call('GET', url(`/${grouped.id}`), people.outside);
    expect(one.statusCode).toBe(404);
    expect(one.json()).toEqual({ error: { code: 'not_found', message: CONVERSATION_NOT_FOUND_MESSAGE } });
    expect((await h.call('GET', url(`/${grouped.id}`), people.inGroup)).statusCode).toBe(200);

    const messagesUrl = `/v1/accounts/${account.accountId}/messages`;
    const messageIds = async (token: string) => (await h.call('GET', `${messagesUrl}?limit=100`, token)).json<{ data: Message[] }>().data.map((m) => m.id);
    expect(await messageIds(admin)).toContain(ids.groupedIn);
    expect(await messageIds(people.inGroup)).toContain(ids.groupedIn);
    expect(await messageIds(people.outside)).not.toContain(ids.groupedIn);
    expect(await messageIds(people.outside)).toContain(ids.olderIn);
    expect((await h.call('GET', `${messagesUrl}/${ids.groupedIn ?? ''}`, people.outside)).statusCode).toBe(404);
    expect((await h.call('PUT', `${messagesUrl}/${ids.groupedIn ?? ''}`, people.outside, { read: true })).statusCode).toBe(404);
    expect((await h.call('GET', `${messagesUrl}/${ids.groupedIn ?? ''}`, people.inGroup)).statusCode).toBe(200);

    // An API client sees everything, as the account's administrator.
    const clientId = `pk_${randomUUID()}`;
    const client = h.authenticator.add({ userId: clientId, clientId, accountIds: [account.accountId] });
    expect(await seen(client)).toContain(grouped.id);
    expect(await count(client)).toEqual({ data: { unread: 3 } });
  });

  it('reads one conversation with the newest page of its messages', async () => {
    const res = await h.call('GET', url(`/${newest.id}?limit=2`), people.readOnly);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json<{ data: Conversation }>();
    expect(data.id).toBe(newest.id);
    expect(data.unread).toEqual([ids.newestIn, ids.newestFailed]);
    expect(data.messages?.pagination).toEqual({ totalCount: 3, offset: 0, limit: 2 });
    expect(data.messages?.data.map((m) => m.id)).toEqual([ids.newestFailed, ids.newestIn]);
    // A failed outgoing message is unread until someone marks it read.
    expect(data.messages?.data.map((m) => m.read)).toEqual([false, false]);
    expect(data.messages?.data[1]?.media).toHaveLength(1);
    const rest = (await h.call('GET', url(`/${newest.id}?limit=2&offset=2`), admin)).json<{ data: Conversation }>().data;
    expect(rest.messages?.data.map((m) => m.id)).toEqual([ids.newestRead]);
    expect(rest.messages?.data[0]?.read).toBe(true);
    expect((await h.call('GET', url(`/${newest.id}?limit=nope`), admin)).statusCode).toBe(400);
  });

  it("answers 404 for another account's conversation and for a malformed id", async () => {
    const other = await sendingAccount(h.database.db);
    const theirs = await addConversation(h.database.db, other);
    expect((await h.call('GET', url(`/${theirs.id}`), admin)).statusCode).toBe(404);
    expect((await h.call('GET', url('/nope'), admin)).statusCode).toBe(404);
    expect((await list(admin, `?contactId=${theirs.contactId}`)).data).toEqual([]);
    // Nor with the other account in the path.
    expect((await h.call('GET', `/v1/accounts/${other.accountId}/conversations`, admin)).statusCode).toBe(404);
    expect((await h.call('GET', `/v1/accounts/${other.accountId}/counts/unread`, admin)).statusCode).toBe(404);
  });

  it('counts open conversations with unread messages for every role, and answers 404 for an unknown count type', async () => {
    for (const role of ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] as const) {
      const res = await h.call('GET', `/v1/accounts/${fixtures.accountId}/counts/unread`, tokens[role]);
      expect(res.statusCode, role).toBe(200);
      expect(res.json(), role).toEqual({ data: { unread: 0 } });
    }
    const unknown = await h.call('GET', `/v1/accounts/${account.accountId}/counts/campaigns`, admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'not_found', message: unknownCountTypeMessage('campaigns') } });
  });
});
