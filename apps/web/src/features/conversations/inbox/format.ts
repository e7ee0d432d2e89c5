import { lastMessagePreview, UNREAD_BADGE_MAX, type Conversation, type MessageStatus } from '@parley/shared';

/** The side menu's badge: nothing at zero, the count up to the maximum, then 'max+'. */
export const unreadBadgeText = (count: number | undefined): string | null => {
  if (count === undefined || count <= 0) return null;
  return count > UNREAD_BADGE_MAX ? `${String(UNREAD_BADGE_MAX)}+` : String(count);
};

export type StatusColour = 'error' | 'warning' | 'success';

const erroredStatuses: readonly MessageStatus[] = ['failed', 'undelivered'];
const waitingStatuses: readonly MessageStatus[] = ['queued', 'sending'];

/** Status colours: an error red, a message still waiting to go amber, the rest green. */
export const statusColour = (status: MessageStatus, hasError = false): StatusColour => {
  if (hasError || erroredStatuses.includes(status)) return 'error';
  if (waitingStatuses.includes(status)) return 'warning';
  return 'success';
};

/** How a status reads in the table and the history ('undelivered' → 'Undelivered'). */
export const statusLabel = (status: MessageStatus): string => `${status.charAt(0).toUpperCase()}${status.slice(1)}`;

const plural = (n: number, one: string, many: string): string => `${String(n)} ${n === 1 ? one : many}`;

/** The last message as the list shows it: its text cut at 160 characters, or what it carried. */
export const lastMessageSummary = (last: Conversation['lastMessage']): string => {
  if (last === undefined) return 'No messages yet';
  if (last.message.trim() !== '') return lastMessagePreview(last.message);
  return last.media.length > 0 ? plural(last.media.length, 'attachment', 'attachments') : '';
};

/** The tooltip of an errored last message. */
export const lastMessageErrorText = (last: Conversation['lastMessage']): string | null =>
  last?.error === undefined ? null : `Last message errored: ${last.error.description}`;

/** Today's times as the hour, older ones with the date. */
export const messageTime = (iso: string, now: Date = new Date()): string => {
  const at = new Date(iso);
  const sameDay = at.toDateString() === now.toDateString();
  return sameDay
    ? at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : at.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
};
