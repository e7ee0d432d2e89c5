import { notificationEventTypes } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { camelOf, eventTypeLabel, eventTypesOf, flagsOf, kebabOf, noFlags, notificationFlags } from './eventTypes';

describe('event flags and their kebab-case names', () => {
  it('names each of the spec flags as the API does', () => {
    expect(kebabOf('messageReceived')).toBe('message-received');
    expect(kebabOf('contactOptOut')).toBe('contact-opt-out');
    expect(kebabOf('conversationClosed')).toBe('conversation-closed');
    expect(camelOf('contact-opt-in')).toBe('contactOptIn');
    // Every flag has its event type and back, and every event type the API takes has a flag.
    expect(notificationFlags.map(kebabOf)).toEqual([...notificationEventTypes]);
    expect(notificationEventTypes.map(camelOf)).toEqual([...notificationFlags]);
  });

  it('sends the flags that are on, in the flags order', () => {
    expect(eventTypesOf(noFlags())).toEqual([]);
    const flags = { ...noFlags(), conversationClosed: true, messageReceived: true, contactOptOut: true };
    expect(eventTypesOf(flags)).toEqual(['message-received', 'contact-opt-out', 'conversation-closed']);
  });

  it('reads a saved notification back into flags', () => {
    const flags = flagsOf(['message-status', 'list-opt-in']);
    expect(Object.entries(flags).filter(([, on]) => on).map(([flag]) => flag)).toEqual(['messageStatus', 'listOptIn']);
    expect(eventTypesOf(flags)).toEqual(['message-status', 'list-opt-in']);
  });

  it('labels the test event and an unknown type too', () => {
    expect(eventTypeLabel('contact-opt-out')).toBe('Contact opted out');
    expect(eventTypeLabel('webhook-test')).toBe('Test event');
    expect(eventTypeLabel('something-new')).toBe('something-new');
  });
});
