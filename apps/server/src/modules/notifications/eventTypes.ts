import type { NotificationEventType } from '@parley/shared';

/** The outbox event each notification event type is (platform/events/outbox.ts); null for one Parley does not write. */
export const OUTBOX_TYPE_OF: Readonly<Record<NotificationEventType, string | null>> = {
  'message-received': 'messageReceived',
  'message-sent': 'messageSent',
  'message-status': 'messageStatus',
  'contact-created': 'contactCreated',
  'contact-updated': 'contactUpdated',
  'contact-removed': 'contactRemoved',
  'contact-opt-out': 'contactOptOut',
  'contact-opt-in': 'contactOptIn',
  'conversation-started': 'conversationStarted',
  'conversation-closed': 'conversationClosed',
  'list-opt-out': 'listOptOut',
  'list-opt-in': 'listOptIn',
};

const byOutboxType = new Map<string, NotificationEventType>(
  Object.entries(OUTBOX_TYPE_OF).flatMap(([kebab, outbox]) => (outbox === null ? [] : [[outbox, kebab as NotificationEventType]])),
);

/** The outbox types notifications deliver. */
export const NOTIFIED_OUTBOX_TYPES: readonly string[] = [...byOutboxType.keys()];

/** The notification event type of an outbox event, or null for one no notification gets. */
export const notificationTypeOf = (outboxType: string): NotificationEventType | null => byOutboxType.get(outboxType) ?? null;
