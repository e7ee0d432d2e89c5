import { canBeUnread, type Conversation, type Message, type Pagination } from '@parley/shared';
import { contactIdOf, conversationIdOf, type InboxEvent } from './inboxEvents';
import type { ConversationListParams } from './queryKeys';

/*
 * How inbox events change what the browser has cached (a received message updates the last message,
 * the message list, the total count and the unread list; closing removes a conversation from the list and
 * refreshes the unread count). Each function answers the new value, 'unchanged', or 'invalidate' when the
 * cache cannot know the answer (the conversation is not in it, or the event moves rows across pages): the
 * caller then fetches again.
 */

export interface ConversationPage {
  data: Conversation[];
  pagination: Pagination;
}

export interface MessagePage {
  data: Message[];
  pagination: Pagination;
}

/** The history of a conversation as an infinite query holds it: pages of messages, newest first. */
export interface MessagePages {
  pages: MessagePage[];
  pageParams: unknown[];
}

export type Outcome<T> = { kind: 'updated'; value: T } | { kind: 'unchanged' } | { kind: 'invalidate' };

const updated = <T>(value: T): Outcome<T> => ({ kind: 'updated', value });
const unchanged: { kind: 'unchanged' } = { kind: 'unchanged' };
const invalidate: { kind: 'invalidate' } = { kind: 'invalidate' };

/** A message is unread when nobody read it and it came in, or it went out and errored. */
export const isUnreadMessage = (message: Pick<Message, 'read' | 'outgoing' | 'status'>): boolean =>
  !message.read && canBeUnread(message);

/** A conversation counts towards the unread badge while it is open and holds unread messages. */
export const countsAsUnread = (conversation: Pick<Conversation, 'closed' | 'unread'>): boolean =>
  !conversation.closed && conversation.unread.length > 0;

const time = (iso: string): number => Date.parse(iso);

/** Whether a message event brings new activity (it moves the conversation to the top of the list). */
const isActivity = (event: InboxEvent): event is Extract<InboxEvent, { message: Message }> =>
  event.type === 'messageReceived' || event.type === 'messageSent';

// The last message is a message with the fields the list shows (optional ones only when the message has them).
const lastMessageOf = ({ id, message, templateId, status, error, outgoing, media, created }: Message): NonNullable<Conversation['lastMessage']> => ({
  id,
  message,
  ...(templateId === undefined ? {} : { templateId }),
  status,
  ...(error === undefined ? {} : { error }),
  outgoing,
  media,
  created,
});

/** A conversation after one of its messages arrived, moved on or was marked read or unread. */
export function conversationWithMessage(conversation: Conversation, message: Message): Conversation {
  const last = conversation.lastMessage;
  const newer = last === undefined || last.id === message.id || time(message.created.at) >= time(last.created.at);
  const withoutIt = conversation.unread.filter((id) => id !== message.id);
  return {
    ...conversation,
    lastMessage: newer ? lastMessageOf(message) : last,
    unread: isUnreadMessage(message) ? [...withoutIt, message.id] : withoutIt,
    updated: newer && time(message.updated.at) > time(conversation.updated.at) ? { at: message.updated.at } : conversation.updated,
  };
}

/** The conversation an event leaves, from what the cache knew of it. */
export function conversationAfter(before: Conversation, event: InboxEvent): Conversation {
  if ('message' in event) return conversationWithMessage(before, event.message);
  if (event.type === 'conversationStarted') return before;
  // The event's conversation is the list's row; a detail keeps the page of messages it was fetched with.
  return before.messages === undefined ? event.conversation : { ...event.conversation, messages: before.messages };
}

const matchesFilters = (conversation: Conversation, params: ConversationListParams): boolean =>
  conversation.closed === params.closed &&
  (!params.unread || conversation.unread.length > 0) &&
  (params.contactId === undefined || conversation.contact.id === params.contactId);

const withTotal = (page: ConversationPage, data: Conversation[], delta: number): ConversationPage => ({
  data,
  pagination: { ...page.pagination, totalCount: Math.max(0, page.pagination.totalCount + delta) },
});

/** One cached page of a conversation list (/conversations, with its Closed and Unread Only filters). */
export function applyToConversationPage(page: ConversationPage, params: ConversationListParams, event: InboxEvent): Outcome<ConversationPage> {
  if (params.contactId !== undefined && contactIdOf(event) !== params.contactId) return unchanged;
  const id = conversationIdOf(event);
  const index = page.data.findIndex((c) => c.id === id);
  const found = page.data[index];

  if (found === undefined) {
    switch (event.type) {
      case 'conversationStarted':
        return params.closed || params.unread ? unchanged : invalidate;
      case 'messageReceived':
      case 'messageSent':
        // A new message only ever lands in an open conversation; where it ranks now, only the server knows.
        return params.closed ? unchanged : invalidate;
      case 'messageStatus':
      case 'messageRead':
        // Neither moves a row; only the unread list may gain the conversation.
        return params.unread && !params.closed && isUnreadMessage(event.message) ? invalidate : unchanged;
      case 'conversationClosed':
      case 'conversationRead':
      case 'conversationUpdated':
        return matchesFilters(event.conversation, params) ? invalidate : unchanged;
    }
  }

  const next = conversationAfter(found, event);
  const others = page.data.filter((c) => c.id !== id);
  if (!matchesFilters(next, params)) return updated(withTotal(page, others, -1));
  if (isActivity(event) && next.lastMessage?.id === event.message.id) {
    // Most recent activity first: on the first page it moves up; from a later page it leaves for the first.
    return params.offset === 0 ? updated(withTotal(page, [next, ...others], 0)) : invalidate;
  }
  return updated(withTotal(page, page.data.map((c) => (c.id === id ? next : c)), 0));
}

/** The open conversation (GET conversations/{id}). */
export function applyToConversation(conversation: Conversation, event: InboxEvent): Outcome<Conversation> {
  if (conversationIdOf(event) !== conversation.id || event.type === 'conversationStarted') return unchanged;
  return updated(conversationAfter(conversation, event));
}

const replaceMessage = (pages: MessagePages, message: Message): MessagePages => ({
  ...pages,
  pages: pages.pages.map((page) => ({ ...page, data: page.data.map((m) => (m.id === message.id ? message : m)) })),
});

/** The open conversation's history: a new message joins the newest page, a changed one is replaced. */
export function applyToMessagePages(pages: MessagePages, conversationId: string, event: InboxEvent): Outcome<MessagePages> {
  if (conversationIdOf(event) !== conversationId) return unchanged;
  if ('message' in event) {
    const { message } = event;
    if (pages.pages.some((page) => page.data.some((m) => m.id === message.id))) return updated(replaceMessage(pages, message));
    if (!isActivity(event)) return unchanged;
    const [first, ...rest] = pages.pages;
    if (first === undefined) return invalidate;
    // Every page shifts by one, so totalCount grows everywhere and 'Load older' asks from one further on.
    const grown = (page: MessagePage): MessagePage => ({
      ...page,
      pagination: { ...page.pagination, totalCount: page.pagination.totalCount + 1 },
    });
    return updated({ ...pages, pages: [{ ...grown(first), data: [message, ...first.data] }, ...rest.map(grown)] });
  }
  if (event.type !== 'conversationRead') return unchanged;
  // Read or unread as the conversation now lists them; messages that are never unread keep their flag.
  const unread = new Set(event.conversation.unread);
  return updated({
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      data: page.data.map((m) => {
        const read = !unread.has(m.id);
        return canBeUnread(m) && m.read !== read ? { ...m, read } : m;
      }),
    })),
  });
}

/**
 * The side menu's unread count: open conversations with unread messages. `before` is the conversation as the
 * cache knew it, null when it did not: then only an event that cannot change the count is answered.
 */
export function applyToUnreadCount(count: number, before: Conversation | null, event: InboxEvent): Outcome<number> {
  if (event.type === 'conversationStarted') return unchanged;
  if (before === null) {
    if ('message' in event) return event.type !== 'messageRead' && !isUnreadMessage(event.message) ? unchanged : invalidate;
    // A closed conversation with nothing unread left the count as it was.
    return event.type === 'conversationClosed' && event.conversation.unread.length === 0 ? unchanged : invalidate;
  }
  const after = conversationAfter(before, event);
  const delta = Number(countsAsUnread(after)) - Number(countsAsUnread(before));
  return delta === 0 ? unchanged : updated(Math.max(0, count + delta));
}
