import { describe, expect, it } from 'vitest';
import type { Call, Message } from '@parley/shared';
import { timeline } from './timeline';

const message = (id: string, at: string): Message => ({ id, created: { at } }) as Message;
const call = (id: string, startedAt: string): Call => ({ id, startedAt }) as Call;

describe('the history with calls', () => {
  const messages = [message('m1', '2026-12-03T09:00:00Z'), message('m2', '2026-12-03T10:00:00Z')];
  const calls = [call('c2', '2026-12-03T09:30:00Z'), call('c1', '2026-12-03T08:00:00Z')];

  it('puts each call between the messages by time', () => {
    expect(timeline(messages, calls, false).map((i) => (i.kind === 'call' ? i.call.id : i.message.id))).toEqual(['c1', 'm1', 'c2', 'm2']);
  });

  it('keeps calls older than the oldest message shown for when older messages load', () => {
    expect(timeline(messages, calls, true).map((i) => (i.kind === 'call' ? i.call.id : i.message.id))).toEqual(['m1', 'c2', 'm2']);
  });

  it('shows the calls of a conversation without messages', () => {
    expect(timeline([], calls, false).map((i) => i.kind)).toEqual(['call', 'call']);
  });
});
