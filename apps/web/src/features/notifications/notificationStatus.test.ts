import type { Notification } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { filterLines, notificationState } from './notificationStatus';

const base: Notification = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d',
  type: 'webhook',
  destination: 'https://hooks.example.com',
  eventTypes: ['message-received'],
  filters: {},
  disabled: false,
  created: { at: '2026-01-01T00:00:00.000Z' },
  updated: { at: '2026-01-01T00:00:00.000Z' },
};

describe('notificationState', () => {
  it('reads Enabled with nothing to say while it works', () => {
    expect(notificationState(base)).toEqual({ label: 'Enabled', reason: null, warning: null });
  });

  it('says why Parley disabled it', () => {
    expect(notificationState({ ...base, disabled: true, disabledReason: 'gone' })).toMatchObject({ label: 'Disabled', reason: expect.stringContaining('410 Gone') as string });
    expect(notificationState({ ...base, disabled: true, disabledReason: 'failing' }).reason).toContain('5 days');
    expect(notificationState({ ...base, disabled: true })).toEqual({ label: 'Disabled', reason: null, warning: null });
  });

  it('warns while deliveries fail', () => {
    const state = notificationState({ ...base, failingSince: '2026-03-02T10:00:00.000Z' });
    expect(state.label).toBe('Enabled');
    expect(state.warning).toContain('Every delivery has failed since');
    expect(state.warning).toContain('2026');
  });
});

describe('filterLines', () => {
  const names = { group: (id: string) => `group ${id}`, phoneNumber: (id: string) => `number ${id}` };

  it('says None when nothing narrows', () => {
    expect(filterLines({}, names)).toEqual(['None']);
    expect(filterLines({ groups: [], phoneNumbers: [] }, names)).toEqual(['None']);
  });

  it('names each filter', () => {
    expect(filterLines({ groups: ['a', 'b'], phoneNumbers: ['c'], statuses: ['failed'], direction: 'incoming' }, names)).toEqual([
      'Groups: group a, group b',
      'Numbers: number c',
      'Statuses: failed',
      'Incoming only',
    ]);
    expect(filterLines({ direction: 'outgoing' }, names)).toEqual(['Outgoing only']);
  });
});
