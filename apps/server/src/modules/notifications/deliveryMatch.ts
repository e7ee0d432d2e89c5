import type { NotificationEventType, NotificationFilters } from '@parley/shared';

/** What matching reads of an event: its group and the message or conversation it is about. */
export interface MatchedEvent {
  type: NotificationEventType;
  groupId: string | null;
  data: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const recordAt = (value: unknown, key: string): Record<string, unknown> | null => {
  if (!isRecord(value)) return null;
  const inner = value[key];
  return isRecord(inner) ? inner : null;
};

const some = (list: readonly string[] | undefined): list is readonly string[] => list !== undefined && list.length > 0;

/** The account number a message or conversation event went through; null for other events. */
function numberOf(message: Record<string, unknown> | null, conversation: Record<string, unknown> | null): string | null {
  if (message !== null) return typeof message.phoneNumberId === 'string' ? message.phoneNumberId : null;
  const number = recordAt(conversation, 'phoneNumber');
  return number !== null && typeof number.id === 'string' ? number.id : null;
}

/**
 * Whether a notification wants an event (docs/notifications.md, "Filters"): its type is one of the
 * notification's, and each filter that is set holds. Groups and numbers narrow message and conversation
 * events (a contact event has neither and passes); statuses narrow message-status; direction narrows message events.
 */
export function wantsEvent(notification: { eventTypes: readonly string[]; filters: NotificationFilters }, event: MatchedEvent): boolean {
  if (!notification.eventTypes.includes(event.type)) return false;
  const { groups, phoneNumbers, statuses, direction } = notification.filters;
  const message = recordAt(event.data, 'message');
  const conversation = recordAt(event.data, 'conversation');
  const aboutConversation = message !== null || conversation !== null;
  if (aboutConversation && some(groups) && (event.groupId === null || !groups.includes(event.groupId))) return false;
  if (aboutConversation && some(phoneNumbers)) {
    const number = numberOf(message, conversation);
    if (number === null || !phoneNumbers.includes(number)) return false;
  }
  if (event.type === 'message-status' && some(statuses) && !(typeof message?.status === 'string' && statuses.includes(message.status))) return false;
  if (direction !== undefined && message !== null) {
    const outgoing = message.outgoing === true;
    if ((direction === 'outgoing') !== outgoing) return false;
  }
  return true;
}
