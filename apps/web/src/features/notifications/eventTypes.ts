import { NOTIFICATION_TEST_EVENT_TYPE, notificationEventTypes, type NotificationEventType } from '@parley/shared';

/**
 * The page's event flags (spec: Notification's eventTypes, "a map of flags") and the kebab-case names the API
 * takes for them (docs/notifications.md): messageReceived ↔ message-received.
 */
export const notificationFlags = [
  'messageReceived',
  'messageSent',
  'messageStatus',
  'contactCreated',
  'contactUpdated',
  'contactRemoved',
  'contactOptOut',
  'contactOptIn',
  'conversationStarted',
  'conversationClosed',
  'listOptOut',
  'listOptIn',
] as const;
export type NotificationFlag = (typeof notificationFlags)[number];
export type EventFlags = Record<NotificationFlag, boolean>;

export const kebabOf = (flag: string): string => flag.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
export const camelOf = (name: string): string => name.replace(/-([a-z])/g, (_dash, letter: string) => letter.toUpperCase());

const isEventType = (name: string): name is NotificationEventType => (notificationEventTypes as readonly string[]).includes(name);
const isFlag = (name: string): name is NotificationFlag => (notificationFlags as readonly string[]).includes(name);

/** The API's name of a flag. */
export function eventTypeOf(flag: NotificationFlag): NotificationEventType {
  const name = kebabOf(flag);
  if (!isEventType(name)) throw new Error(`no event type for the flag ${flag}`);
  return name;
}

/** The flag of an event type the API answered. */
export function flagOf(eventType: NotificationEventType): NotificationFlag {
  const name = camelOf(eventType);
  if (!isFlag(name)) throw new Error(`no flag for the event type ${eventType}`);
  return name;
}

/** Every flag off. */
export const noFlags = (): EventFlags =>
  Object.fromEntries(notificationFlags.map((flag) => [flag, false])) as EventFlags;

/** The flags of a saved notification: those of its event types on. */
export function flagsOf(eventTypes: readonly NotificationEventType[]): EventFlags {
  const flags = noFlags();
  for (const type of eventTypes) flags[flagOf(type)] = true;
  return flags;
}

/** What is sent: the kebab-case names of the flags that are on, in the flags' order. */
export const eventTypesOf = (flags: EventFlags): NotificationEventType[] =>
  notificationFlags.filter((flag) => flags[flag]).map(eventTypeOf);

/** How a flag reads on the page. */
export const flagLabels: Record<NotificationFlag, string> = {
  messageReceived: 'Message received',
  messageSent: 'Message sent',
  messageStatus: 'Message status',
  contactCreated: 'Contact created',
  contactUpdated: 'Contact updated',
  contactRemoved: 'Contact removed',
  contactOptOut: 'Contact opted out',
  contactOptIn: 'Contact opted in',
  conversationStarted: 'Conversation started',
  conversationClosed: 'Conversation closed',
  listOptOut: 'List opt-out',
  listOptIn: 'List opt-in',
};

/** The flags as the form groups them. */
export const flagGroups: readonly { label: string; flags: readonly NotificationFlag[] }[] = [
  { label: 'Messages', flags: ['messageReceived', 'messageSent', 'messageStatus'] },
  { label: 'Contacts', flags: ['contactCreated', 'contactUpdated', 'contactRemoved', 'contactOptOut', 'contactOptIn'] },
  { label: 'Conversations', flags: ['conversationStarted', 'conversationClosed'] },
  { label: 'Lists', flags: ['listOptOut', 'listOptIn'] },
];

/** An event type as the page shows it (a delivery's, which may be the test event). */
export const eventTypeLabel = (eventType: string): string =>
  isEventType(eventType) ? flagLabels[flagOf(eventType)] : eventType === NOTIFICATION_TEST_EVENT_TYPE ? 'Test event' : eventType;
