import { QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Counts } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { acceptableHoursKey, heldCountKey } from '../../messaging';
import { applyInboxEvent } from './cacheSync';
import { parseInboxEvent } from './inboxEvents';
import type { ConversationPage, MessagePages } from './inboxReducer';
import { inboxKeys, type ConversationListParams } from './queryKeys';
import { ACCOUNT, conversation, message, payload, uuid } from './testFixtures';

const A = uuid(1);
const B = uuid(2);
const openList: ConversationListParams = { closed: false, unread: false, q: '', offset: 0, limit: 10 };
const unreadList: ConversationListParams = { ...openList, unread: true };

const setup = () => {
  const queryClient = new QueryClient();
  queryClient.setQueryData<ConversationPage>(inboxKeys.list(ACCOUNT, openList), {
    data: [conversation({ id: A }), conversation({ id: B, unread: [uuid(9)] })],
    pagination: { totalCount: 2, offset: 0, limit: 10 },
  });
  queryClient.setQueryData<ConversationPage>(inboxKeys.list(ACCOUNT, unreadList), {
    data: [conversation({ id: B, unread: [uuid(9)] })],
    pagination: { totalCount: 1, offset: 0, limit: 10 },
  });
  queryClient.setQueryData<Counts>(inboxKeys.unreadCount(ACCOUNT), { data: { unread: 1 } });
  queryClient.setQueryData<MessagePages>(inboxKeys.messages(ACCOUNT, A), {
    pages: [{ data: [], pagination: { totalCount: 0, offset: 0, limit: 25 } }],
    pageParams: [0],
  });
  const refetched: QueryKey[] = [];
  const apply = (type: string, data: unknown): void => {
    const event = parseInboxEvent(payload(type, data), ACCOUNT);
    if (event === null) throw new Error(`not an inbox event: ${type}`);
    applyInboxEvent(queryClient, ACCOUNT, event, (key) => refetched.push(key));
  };
  return { queryClient, refetched, apply };
};

describe('applyInboxEvent', () => {
  it('shows a reply everywhere at once: list order, Unread Only, the badge and the open history', () => {
    const { queryClient, refetched, apply } = setup();
    apply('messageReceived', { message: message({ id: uuid(50), conversationId: A, message: 'Yes please' }) });

    const list = queryClient.getQueryData<ConversationPage>(inboxKeys.list(ACCOUNT, openList));
    expect(list?.data.map((c) => c.id)).toEqual([A, B]);
    expect(list?.data[0]?.lastMessage?.message).toBe('Yes please');
    // The Unread Only list did not hold it: only the server knows where it ranks.
    expect(refetched).toEqual([inboxKeys.list(ACCOUNT, unreadList)]);
    expect(queryClient.getQueryData<Counts>(inboxKeys.unreadCount(ACCOUNT))?.data.unread).toBe(2);
    const history = queryClient.getQueryData<MessagePages>(inboxKeys.messages(ACCOUNT, A));
    expect(history?.pages[0]?.data.map((m) => m.id)).toEqual([uuid(50)]);
  });

  it('takes a closed conversation out of both lists and the badge', () => {
    const { queryClient, refetched, apply } = setup();
    apply('conversationClosed', { conversation: conversation({ id: B, unread: [uuid(9)], closed: true, closedAt: '2025-01-03T00:00:00.000Z' }) });

    expect(queryClient.getQueryData<ConversationPage>(inboxKeys.list(ACCOUNT, openList))?.data.map((c) => c.id)).toEqual([A]);
    expect(queryClient.getQueryData<ConversationPage>(inboxKeys.list(ACCOUNT, unreadList))?.data).toEqual([]);
    expect(queryClient.getQueryData<Counts>(inboxKeys.unreadCount(ACCOUNT))?.data.unread).toBe(0);
    expect(refetched).toEqual([]);
  });

  it('fetches lists and the count again for a conversation nobody has cached', () => {
    const { refetched, apply } = setup();
    apply('messageReceived', { message: message({ id: uuid(51), conversationId: uuid(77) }) });
    expect(refetched).toEqual([
      inboxKeys.unreadCount(ACCOUNT),
      inboxKeys.list(ACCOUNT, openList),
      inboxKeys.list(ACCOUNT, unreadList),
    ]);
  });
});

describe('parseInboxEvent', () => {
  it('ignores other event types, other accounts and malformed data', () => {
    const data = { message: message({ id: uuid(50), conversationId: A }) };
    expect(parseInboxEvent(payload('contactOptOut', data), ACCOUNT)).toBeNull();
    expect(parseInboxEvent(payload('messageReceived', data, uuid(0xbad)), ACCOUNT)).toBeNull();
    expect(parseInboxEvent(payload('messageReceived', { message: { id: 'x' } }), ACCOUNT)).toBeNull();
    expect(parseInboxEvent(payload('conversationClosed', { conversation: { id: A } }), ACCOUNT)).toBeNull();
    expect(parseInboxEvent(payload('messageReceived', data), ACCOUNT)?.type).toBe('messageReceived');
  });

  it('reads conversationStarted from the sending engine’s short form', () => {
    const started = { conversation: { id: A, contact: { id: uuid(3) }, phoneNumber: { id: uuid(4), number: '+15550000000' }, created: { at: '2025-01-01T00:00:00Z' } } };
    expect(parseInboxEvent(payload('conversationStarted', started), ACCOUNT)).toEqual({
      type: 'conversationStarted',
      conversation: { id: A, contact: { id: uuid(3) } },
    });
  });

  it('asks the send box again when the contact writes, and the held count when a held message comes or goes', () => {
    const { queryClient, refetched, apply } = setup();
    const incoming = message({ id: uuid(60), conversationId: A });
    const hours = acceptableHoursKey(ACCOUNT, incoming.contact.id);
    const held = heldCountKey(ACCOUNT);
    // Nothing cached, nothing fetched.
    apply('messageReceived', { message: incoming });
    expect(refetched).not.toContainEqual(hours);

    queryClient.setQueryData(hours, { open: false });
    queryClient.setQueryData(held, 0);
    refetched.length = 0;
    apply('messageReceived', { message: message({ id: uuid(61), conversationId: A }) });
    expect(refetched).toContainEqual(hours);
    expect(refetched).not.toContainEqual(held);

    refetched.length = 0;
    apply('messageSent', { message: message({ id: uuid(62), conversationId: A, outgoing: true, status: 'queued', sendAfter: '2030-01-01T13:00:00.000Z' }) });
    expect(refetched).toContainEqual(held);
    expect(refetched).not.toContainEqual(hours);
  });
});
