import type { Bundle, ZObject } from 'zapier-platform-core';
import { callAccount } from '../parleyApi.js';
import { hookTrigger, type HookEvent } from './hookTrigger.js';

interface Timed {
  id: string;
  updated: { at: string };
  created: { at: string };
  optedOut?: string;
}

/** How many recent records stand in as samples. */
const SAMPLES = 3;

const recentMessages = (query: Record<string, string>) => async (z: ZObject, bundle: Bundle) =>
  (await callAccount<Timed[]>(z, bundle, { path: '/messages', params: { ...query, limit: SAMPLES } })).map((message) => ({ record: message, at: message.updated.at, data: { message } }));

const recentContacts = (orderBy: string, keep: (contact: Timed) => boolean = () => true) => async (z: ZObject, bundle: Bundle) =>
  (await callAccount<Timed[]>(z, bundle, { path: '/contacts', params: { orderBy, limit: 50 } }))
    .filter(keep)
    .slice(0, SAMPLES)
    .map((contact) => ({ record: contact, at: contact.updated.at, data: { contact } }));

const at = '2026-01-15T10:30:00.000Z';
const sampleMessage = {
  id: '0194b2a0-0000-7000-8000-000000000001',
  message: 'Is my order ready?',
  outgoing: false,
  direction: 'inbound',
  status: 'received',
  phoneNumber: '+12025550100',
  contact: { id: '0194b2a0-0000-7000-8000-000000000002' },
  conversation: { id: '0194b2a0-0000-7000-8000-000000000003' },
  created: { at },
  updated: { at },
};
const sampleContact = {
  id: '0194b2a0-0000-7000-8000-000000000002',
  firstName: 'Ada',
  lastName: 'Lovelace',
  mobile: { number: '+12025550143', country: 'US' },
  email: 'ada@example.com',
  tags: [{ tag: 'customer', visible: true }],
  attributes: {},
  valid: true,
  created: { at },
  updated: { at },
};
const sampleOf = (type: string, data: Record<string, unknown>): HookEvent => ({ id: 'evt_sample', type, timestamp: at, accountId: '0194b2a0-0000-7000-8000-00000000000a', data });

export const messageReceived = hookTrigger({
  key: 'message_received',
  noun: 'Message',
  label: 'New Inbound Message',
  description: 'Triggers when a contact texts one of your Parley numbers.',
  eventType: 'message-received',
  recent: recentMessages({ incoming: 'true' }),
  sample: sampleOf('message-received', { message: sampleMessage }),
});

export const messageStatus = hookTrigger({
  key: 'message_status',
  noun: 'Message',
  label: 'Message Status Changed',
  description: 'Triggers when a message you sent is sent, delivered, undelivered or fails.',
  eventType: 'message-status',
  recent: recentMessages({ outgoing: 'true' }),
  sample: sampleOf('message-status', { message: { ...sampleMessage, message: 'Your order is ready.', outgoing: true, direction: 'outbound', status: 'delivered' } }),
});

export const contactCreated = hookTrigger({
  key: 'contact_created',
  noun: 'Contact',
  label: 'New Contact',
  description: 'Triggers when a contact is added in Parley.',
  eventType: 'contact-created',
  recent: recentContacts('created-desc'),
  sample: sampleOf('contact-created', { contact: sampleContact }),
});

export const contactUpdated = hookTrigger({
  key: 'contact_updated',
  noun: 'Contact',
  label: 'Updated Contact',
  description: 'Triggers when a contact is changed in Parley.',
  eventType: 'contact-updated',
  recent: recentContacts('updated-desc'),
  sample: sampleOf('contact-updated', { contact: sampleContact }),
});

export const contactOptedOut = hookTrigger({
  key: 'contact_opt_out',
  noun: 'Contact',
  label: 'Contact Opted Out',
  description: 'Triggers when a contact opts out of your messages (STOP).',
  eventType: 'contact-opt-out',
  recent: recentContacts('updated-desc', (contact) => contact.optedOut !== undefined),
  sample: sampleOf('contact-opt-out', { contact: { ...sampleContact, optedOut: at } }),
});
