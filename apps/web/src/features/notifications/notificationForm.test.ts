import type { Notification } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { noFlags } from './eventTypes';
import { bodyOf, checkNotificationForm, formDefaults, NO_EVENT_TYPES_MESSAGE, type NotificationFormValues } from './notificationForm';

const group = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const number = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

const values = (overrides: Partial<NotificationFormValues> = {}): NotificationFormValues => ({
  ...formDefaults(null),
  destination: 'https://hooks.example.com/parley',
  events: { ...noFlags(), messageReceived: true },
  ...overrides,
});

const saved: Notification = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d',
  type: 'email',
  destination: 'ops@example.com',
  eventTypes: ['message-status', 'contact-opt-out'],
  filters: { groups: [group], statuses: ['failed'], direction: 'outgoing' },
  disabled: true,
  disabledReason: 'failing',
  created: { at: '2026-01-01T00:00:00.000Z' },
  updated: { at: '2026-01-01T00:00:00.000Z' },
};

describe('the notification form', () => {
  it('starts a new one as an enabled webhook with nothing chosen', () => {
    const start = formDefaults(null);
    expect(start).toMatchObject({ type: 'webhook', destination: '', groups: [], phoneNumbers: [], statuses: [], direction: 'any', enabled: true });
    expect(Object.values(start.events).every((on) => !on)).toBe(true);
  });

  it('makes the body: event types as kebab-case names, filters only where they narrow, disabled from Enabled', () => {
    const body = bodyOf(
      values({
        events: { ...noFlags(), messageStatus: true, conversationStarted: true },
        groups: [group],
        phoneNumbers: [number],
        statuses: ['delivered', 'failed'],
        direction: 'incoming',
        enabled: false,
      }),
    );
    expect(body).toEqual({
      type: 'webhook',
      destination: 'https://hooks.example.com/parley',
      eventTypes: ['message-status', 'conversation-started'],
      filters: { groups: [group], phoneNumbers: [number], statuses: ['delivered', 'failed'], direction: 'incoming' },
      disabled: true,
    });
    expect(bodyOf(values()).filters).toEqual({});
  });

  it('sends statuses only with message-status on', () => {
    expect(bodyOf(values({ statuses: ['failed'] })).filters).toEqual({});
  });

  it('reads a saved notification back unchanged', () => {
    const form = formDefaults(saved);
    expect(form).toMatchObject({ type: 'email', destination: 'ops@example.com', groups: [group], statuses: ['failed'], direction: 'outgoing', enabled: false });
    expect(bodyOf(form)).toEqual({
      type: 'email',
      destination: 'ops@example.com',
      eventTypes: ['message-status', 'contact-opt-out'],
      filters: { groups: [group], statuses: ['failed'], direction: 'outgoing' },
      disabled: true,
    });
  });

  it('passes a good form as the checked body', () => {
    const check = checkNotificationForm(values({ destination: '  https://hooks.example.com/a  ' }));
    expect(check).toEqual({
      ok: true,
      body: { type: 'webhook', destination: 'https://hooks.example.com/a', eventTypes: ['message-received'], filters: {}, disabled: false },
    });
    const email = checkNotificationForm(values({ type: 'email', destination: 'Ops@Example.com' }));
    expect(email.ok && email.body.destination).toBe('ops@example.com');
  });

  it("checks the destination by type with the API's messages", () => {
    expect(checkNotificationForm(values({ destination: 'ftp://files.example.com' }))).toEqual({
      ok: false,
      fields: { destination: 'Valid URL with http or https prefix required' },
      form: null,
    });
    expect(checkNotificationForm(values({ destination: 'ops@example.com' }))).toMatchObject({ fields: { destination: 'Valid URL with http or https prefix required' } });
    expect(checkNotificationForm(values({ type: 'email', destination: 'not an address' }))).toMatchObject({ fields: { destination: 'Invalid email address' } });
    expect(checkNotificationForm(values({ type: 'email', destination: 'https://hooks.example.com' }))).toMatchObject({ fields: { destination: 'Invalid email address' } });
    expect(checkNotificationForm(values({ destination: '   ' }))).toMatchObject({ fields: { destination: 'Required' } });
    expect(checkNotificationForm(values({ type: 'email', destination: '' }))).toMatchObject({ fields: { destination: 'Required' } });
  });

  it('asks for at least one event, beside other messages', () => {
    expect(checkNotificationForm(values({ events: noFlags(), destination: 'nope' }))).toEqual({
      ok: false,
      fields: { destination: 'Valid URL with http or https prefix required', events: NO_EVENT_TYPES_MESSAGE },
      form: null,
    });
  });

  it('puts a bad filter on its field', () => {
    expect(checkNotificationForm(values({ groups: ['not-a-uuid'] }))).toMatchObject({ ok: false, fields: { groups: 'Not a group id' } });
    expect(checkNotificationForm(values({ phoneNumbers: ['x'] }))).toMatchObject({ ok: false, fields: { phoneNumbers: 'Not a phone number id' } });
  });
});
