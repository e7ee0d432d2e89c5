import { describe, expect, it } from 'vitest';
import type { InboxEvent } from './inboxEvents';
import {
  applyToConversation,
  applyToConversationPage,
  applyToMessagePages,
  applyToUnreadCount,
  isUnreadMessage,
  type ConversationPage,
  type MessagePages,
} from './inboxReducer';
import type { ConversationListParams } from './queryKeys';
import { conversation, message, uuid } from './testFixtures';

const A = uuid(1);
const B = uuid(2);
const C = uuid(3);
const open: ConversationListParams = { closed: false, unread: false, q: '', offset: 0, limit: 10 };
const unreadOnly: ConversationListParams = { ...open, unread: true };
const closedOnes: ConversationListParams = { ...open, closed: true };

const page = (...rows: ReturnType<typeof conversation>[]): ConversationPage => ({
  data: rows,
  pagination: { totalCount: rows.length + 5, offset: 0, limit: 10 },
});

const ids = (outcome: ReturnType<typeof applyToConversationPage>): string[] => {
  if (outcome.kind !== 'updated') throw new Error(`expected an update, got ${outcome.kind}`);
  return outcome.value.data.map((c) => c.id);
};

const received = (conversationId: string, id = uuid(100)): InboxEvent => ({
  type: 'messageReceived',
  message: message({ id, conversationId, message: 'Are you open?' }),
});

describe('isUnreadMessage', () => {
  it('counts incoming messages and errored outgoing ones nobody read', () => {
    expect(isUnreadMessage({ read: false, outgoing: false, status: 'received' })).toBe(true);
    expect(isUnreadMessage({ read: false, outgoing: true, status: 'failed' })).toBe(true);
    expect(isUnreadMessage({ read: false, outgoing: true, status: 'undelivered' })).toBe(true);
    expect(isUnreadMessage({ read: false, outgoing: true, status: 'delivered' })).toBe(false);
    expect(isUnreadMessage({ read: false, outgoing: true, status: 'queued' })).toBe(false);
    expect(isUnreadMessage({ read: true, outgoing: false, status: 'received' })).toBe(false);
  });
});

describe('applyToConversationPage', () => {
  it('moves a conversation that received a message to the top with its last message and unread', () => {
    const outcome = applyToConversationPage(page(conversation({ id: A }), conversation({ id: B })), open, received(B));
    expect(ids(outcome)).toEqual([B, A]);
    if (outcome.kind !== 'updated') return;
    const row = outcome.value.data[0];
    expect(row?.lastMessage).toMatchObject({ id: uuid(100), message: 'Are you open?', outgoing: false, status: 'received', media: [] });
    expect(row?.unread).toEqual([uuid(100)]);
    expect(outcome.value.pagination.totalCount).toBe(7);
  });

  it('keeps the order when a message of another conversation only changes status', () => {
    const sent = message({ id: uuid(7), conversationId: B, outgoing: true, direction: 'outbound', status: 'sent', read: true });
    const before = page(conversation({ id: A }), conversation({ id: B, lastMessage: undefined }));
    const withSent = applyToConversationPage(before, open, { type: 'messageSent', message: sent });
    expect(ids(withSent)).toEqual([B, A]);
    if (withSent.kind !== 'updated') return;
    const failed = { ...sent, status: 'failed' as const, read: false, error: { code: '30003', description: 'Unreachable' } };
    const outcome = applyToConversationPage(withSent.value, open, { type: 'messageStatus', message: failed });
    expect(ids(outcome)).toEqual([B, A]);
    if (outcome.kind !== 'updated') return;
    expect(outcome.value.data[0]?.lastMessage).toMatchObject({ status: 'failed', error: { description: 'Unreachable' } });
    expect(outcome.value.data[0]?.unread).toEqual([uuid(7)]);
  });

  it('does not let an older message replace the last one', () => {
    const old = message({ id: uuid(9), conversationId: A, created: { at: '2024-12-01T00:00:00.000Z' } });
    const outcome = applyToConversationPage(page(conversation({ id: A })), open, { type: 'messageStatus', message: old });
    if (outcome.kind !== 'updated') throw new Error(outcome.kind);
    expect(outcome.value.data[0]?.lastMessage?.id).toBe(uuid(0xe0));
    expect(outcome.value.data[0]?.unread).toEqual([uuid(9)]);
  });

  it('fetches again when a message arrives for a conversation it does not hold', () => {
    expect(applyToConversationPage(page(conversation({ id: A })), open, received(C)).kind).toBe('invalidate');
    expect(applyToConversationPage(page(conversation({ id: A })), unreadOnly, received(C)).kind).toBe('invalidate');
  });

  it('leaves closed lists and other contacts’ lists alone when a message arrives', () => {
    expect(applyToConversationPage(page(conversation({ id: A })), closedOnes, received(C)).kind).toBe('unchanged');
    const otherContact = { ...open, contactId: uuid(0xbad) };
    expect(applyToConversationPage(page(conversation({ id: A })), otherContact, received(C)).kind).toBe('unchanged');
  });

  it('fetches a later page again when one of its conversations moves to the first', () => {
    expect(applyToConversationPage(page(conversation({ id: A })), { ...open, offset: 10 }, received(A)).kind).toBe('invalidate');
  });

  it('ignores status changes of conversations it does not hold unless they become unread', () => {
    const delivered = message({ id: uuid(5), conversationId: C, outgoing: true, status: 'delivered', read: true });
    expect(applyToConversationPage(page(conversation({ id: A })), unreadOnly, { type: 'messageStatus', message: delivered }).kind).toBe(
      'unchanged',
    );
    const failed = { ...delivered, status: 'failed' as const, read: false };
    expect(applyToConversationPage(page(conversation({ id: A })), open, { type: 'messageStatus', message: failed }).kind).toBe('unchanged');
    expect(applyToConversationPage(page(conversation({ id: A })), unreadOnly, { type: 'messageStatus', message: failed }).kind).toBe(
      'invalidate',
    );
  });

  it('removes a closed conversation from the open list and counts one fewer', () => {
    const closed = conversation({ id: A, closed: true, closedAt: '2025-01-03T00:00:00.000Z' });
    const outcome = applyToConversationPage(page(conversation({ id: A }), conversation({ id: B })), open, {
      type: 'conversationClosed',
      conversation: closed,
    });
    expect(ids(outcome)).toEqual([B]);
    if (outcome.kind === 'updated') expect(outcome.value.pagination.totalCount).toBe(6);
  });

  it('fetches the closed list again when a conversation is closed', () => {
    const closed = conversation({ id: A, closed: true, closedAt: '2025-01-03T00:00:00.000Z' });
    expect(applyToConversationPage(page(conversation({ id: B })), closedOnes, { type: 'conversationClosed', conversation: closed }).kind).toBe(
      'invalidate',
    );
  });

  it('drops a conversation read elsewhere from the Unread Only list, and keeps it in the full list', () => {
    const read = conversation({ id: A, unread: [] });
    const before = page(conversation({ id: A, unread: [uuid(4)] }), conversation({ id: B, unread: [uuid(6)] }));
    expect(ids(applyToConversationPage(before, unreadOnly, { type: 'conversationRead', conversation: read }))).toEqual([B]);
    const all = applyToConversationPage(before, open, { type: 'conversationRead', conversation: read });
    expect(ids(all)).toEqual([A, B]);
    if (all.kind === 'updated') expect(all.value.data[0]?.unread).toEqual([]);
  });

  it('drops a conversation from the Unread Only list when its last unread message is marked read', () => {
    const readMessage = message({ id: uuid(4), conversationId: A, read: true });
    const before = page(conversation({ id: A, unread: [uuid(4)] }));
    expect(ids(applyToConversationPage(before, unreadOnly, { type: 'messageRead', message: readMessage }))).toEqual([]);
  });

  it('sets the group a conversation was assigned', () => {
    const grouped = conversation({ id: A, group: { id: uuid(50), name: 'Support' } });
    const outcome = applyToConversationPage(page(conversation({ id: A })), open, { type: 'conversationUpdated', conversation: grouped });
    if (outcome.kind !== 'updated') throw new Error(outcome.kind);
    expect(outcome.value.data[0]?.group).toEqual({ id: uuid(50), name: 'Support' });
  });

  it('fetches open lists again when a conversation starts, and leaves the others', () => {
    const started: InboxEvent = { type: 'conversationStarted', conversation: { id: C, contact: { id: uuid(0xc0) } } };
    expect(applyToConversationPage(page(), open, started).kind).toBe('invalidate');
    expect(applyToConversationPage(page(), closedOnes, started).kind).toBe('unchanged');
    expect(applyToConversationPage(page(), unreadOnly, started).kind).toBe('unchanged');
  });
});

describe('applyToConversation', () => {
  it('updates the open conversation and keeps the page of messages it came with', () => {
    const detail = conversation({ id: A, messages: { data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } } });
    const outcome = applyToConversation(detail, { type: 'conversationClosed', conversation: conversation({ id: A, closed: true, closedAt: '2025-01-03T00:00:00.000Z' }) });
    if (outcome.kind !== 'updated') throw new Error(outcome.kind);
    expect(outcome.value).toMatchObject({ closed: true, closedAt: '2025-01-03T00:00:00.000Z' });
    expect(outcome.value.messages).toEqual(detail.messages);
  });

  it('leaves it alone for another conversation', () => {
    expect(applyToConversation(conversation({ id: A }), received(B)).kind).toBe('unchanged');
  });
});

describe('applyToMessagePages', () => {
  const older = message({ id: uuid(20), conversationId: A, created: { at: '2025-01-01T00:00:00.000Z' } });
  const history = (): MessagePages => ({
    pages: [
      { data: [older], pagination: { totalCount: 2, offset: 0, limit: 1 } },
      { data: [message({ id: uuid(19), conversationId: A })], pagination: { totalCount: 2, offset: 1, limit: 1 } },
    ],
    pageParams: [0, 1],
  });

  it('puts a new message first and counts it in every page', () => {
    const outcome = applyToMessagePages(history(), A, received(A, uuid(21)));
    if (outcome.kind !== 'updated') throw new Error(outcome.kind);
    expect(outcome.value.pages[0]?.data.map((m) => m.id)).toEqual([uuid(21), uuid(20)]);
    expect(outcome.value.pages.map((p) => p.pagination.totalCount)).toEqual([3, 3]);
  });

  it('replaces a message whose status moved, without adding it twice', () => {
    const failed = { ...older, status: 'failed' as const, error: { description: 'Carrier rejected' } };
    const outcome = applyToMessagePages(history(), A, { type: 'messageStatus', message: failed });
    if (outcome.kind !== 'updated') throw new Error(outcome.kind);
    expect(outcome.value.pages[0]?.data).toEqual([failed]);
    expect(applyToMessagePages(history(), A, { type: 'messageReceived', message: older }).kind).toBe('updated');
  });

  it('ignores status changes of messages not loaded and events of other conversations', () => {
    const elsewhere = message({ id: uuid(30), conversationId: A });
    expect(applyToMessagePages(history(), A, { type: 'messageStatus', message: elsewhere }).kind).toBe('unchanged');
    expect(applyToMessagePages(history(), B, received(A)).kind).toBe('unchanged');
  });

  it('marks loaded messages read as the conversation now says', () => {
    const outcome = applyToMessagePages(history(), A, { type: 'conversationRead', conversation: conversation({ id: A, unread: [uuid(19)] }) });
    if (outcome.kind !== 'updated') throw new Error(outcome.kind);
    expect(outcome.value.pages.flatMap((p) => p.data).map((m) => [m.id, m.read])).toEqual([
      [uuid(20), true],
      [uuid(19), false],
    ]);
  });
});

describe('applyToUnreadCount', () => {
  it('counts a conversation that gains its first unread message', () => {
    expect(applyToUnreadCount(2, conversation({ id: A }), received(A))).toEqual({ kind: 'updated', value: 3 });
  });

  it('does not count a conversation twice', () => {
    expect(applyToUnreadCount(2, conversation({ id: A, unread: [uuid(4)] }), received(A)).kind).toBe('unchanged');
  });

  it('counts one fewer when a conversation with unread messages is closed or read', () => {
    const before = conversation({ id: A, unread: [uuid(4)] });
    const closed = { ...before, closed: true, closedAt: '2025-01-03T00:00:00.000Z' };
    expect(applyToUnreadCount(2, before, { type: 'conversationClosed', conversation: closed })).toEqual({ kind: 'updated', value: 1 });
    expect(applyToUnreadCount(2, before, { type: 'conversationRead', conversation: { ...before, unread: [] } })).toEqual({
      kind: 'updated',
      value: 1,
    });
  });

  it('fetches the count again for an unknown conversation when the event may change it', () => {
    expect(applyToUnreadCount(2, null, received(C)).kind).toBe('invalidate');
    expect(applyToUnreadCount(2, null, { type: 'messageRead', message: message({ id: uuid(4), conversationId: C, read: true }) }).kind).toBe(
      'invalidate',
    );
    const sent = message({ id: uuid(8), conversationId: C, outgoing: true, status: 'queued', read: true });
    expect(applyToUnreadCount(2, null, { type: 'messageSent', message: sent }).kind).toBe('unchanged');
  });

  it('never goes below zero', () => {
    const before = conversation({ id: A, unread: [uuid(4)] });
    expect(applyToUnreadCount(0, before, { type: 'conversationRead', conversation: { ...before, unread: [] } })).toEqual({
      kind: 'updated',
      value: 0,
    });
  });
});
