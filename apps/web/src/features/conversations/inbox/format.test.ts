import { LAST_MESSAGE_PREVIEW_LENGTH, UNREAD_BADGE_MAX } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import {
  lastMessageErrorText,
  lastMessageSummary,
  messageTime,
  statusColour,
  statusLabel,
  unreadBadgeText,
  type StatusColour,
} from './format';
import { conversation, uuid } from './testFixtures';

const last = (overrides: Partial<NonNullable<ReturnType<typeof conversation>['lastMessage']>>) => ({
  id: uuid(1),
  message: 'Hi',
  status: 'delivered' as const,
  outgoing: true,
  media: [],
  created: { at: '2025-01-01T10:00:00.000Z' },
  ...overrides,
});

describe('unreadBadgeText', () => {
  it('shows nothing without unread conversations', () => {
    expect(unreadBadgeText(undefined)).toBeNull();
    expect(unreadBadgeText(0)).toBeNull();
  });

  it('shows the count up to the maximum, then the maximum and a plus', () => {
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(UNREAD_BADGE_MAX)).toBe(String(UNREAD_BADGE_MAX));
    expect(unreadBadgeText(UNREAD_BADGE_MAX + 1)).toBe(`${String(UNREAD_BADGE_MAX)}+`);
  });
});

describe('statusColour', () => {
  it.each<[Parameters<typeof statusColour>[0], StatusColour]>([
    ['failed', 'error'],
    ['undelivered', 'error'],
    ['queued', 'warning'],
    ['sending', 'warning'],
    ['sent', 'success'],
    ['delivered', 'success'],
    ['received', 'success'],
  ])('colours %s %s', (status, colour) => {
    expect(statusColour(status)).toBe(colour);
  });

  it('colours any message carrying an error red', () => {
    expect(statusColour('sent', true)).toBe('error');
  });

  it('capitalises the status', () => {
    expect(statusLabel('undelivered')).toBe('Undelivered');
  });
});

describe('lastMessageSummary', () => {
  it('cuts a long text at 160 characters with an ellipsis', () => {
    const text = 'a'.repeat(LAST_MESSAGE_PREVIEW_LENGTH + 20);
    expect(lastMessageSummary(last({ message: text }))).toBe(`${'a'.repeat(LAST_MESSAGE_PREVIEW_LENGTH)}…`);
    expect(lastMessageSummary(last({ message: 'a'.repeat(LAST_MESSAGE_PREVIEW_LENGTH) }))).toBe('a'.repeat(LAST_MESSAGE_PREVIEW_LENGTH));
  });

  it('names the attachments of a media-only message, and an empty conversation', () => {
    const picture = { url: 'https://x.test/a.png', type: 'image/png', filename: 'a.png' };
    expect(lastMessageSummary(last({ message: '', media: [picture, picture] }))).toBe('2 attachments');
    expect(lastMessageSummary(last({ message: '', media: [picture] }))).toBe('1 attachment');
    expect(lastMessageSummary(undefined)).toBe('No messages yet');
  });
});

describe('lastMessageErrorText', () => {
  it('explains an errored last message with its description', () => {
    expect(lastMessageErrorText(last({ status: 'failed', error: { code: '30003', description: 'Unreachable handset' } }))).toBe(
      'Last message errored: Unreachable handset',
    );
    expect(lastMessageErrorText(last({}))).toBeNull();
    expect(lastMessageErrorText(undefined)).toBeNull();
  });
});

describe('messageTime', () => {
  it('shows the date only for messages of another day', () => {
    const now = new Date('2025-01-02T12:00:00');
    expect(messageTime(new Date('2025-01-02T09:30:00').toISOString(), now)).not.toMatch(/2025/);
    expect(messageTime(new Date('2024-12-30T09:30:00').toISOString(), now)).toMatch(/2024/);
  });
});
