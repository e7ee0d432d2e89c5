import type { OutboxEventPayload } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { changesExecutions } from './executionEvents';

const event = (type: string, data: unknown): OutboxEventPayload => ({
  id: '1',
  type,
  accountId: 'a',
  userId: null,
  groupId: null,
  data,
  createdAt: '2026-11-22T08:00:00.000Z',
});

describe('changesExecutions', () => {
  const shown = new Set(['job-1']);

  it('takes any reply, which may be to one of them', () => {
    expect(changesExecutions(event('messageReceived', { message: { id: 'm' } }), shown)).toBe(true);
  });

  it('takes a failure of one of their messages, and no other status', () => {
    expect(changesExecutions(event('messageStatus', { message: { jobId: 'job-1', status: 'undelivered' } }), shown)).toBe(true);
    expect(changesExecutions(event('messageStatus', { message: { jobId: 'job-1', status: 'failed' } }), shown)).toBe(true);
    expect(changesExecutions(event('messageStatus', { message: { jobId: 'job-1', status: 'delivered' } }), shown)).toBe(false);
    expect(changesExecutions(event('messageStatus', { message: { jobId: 'job-2', status: 'failed' } }), shown)).toBe(false);
    expect(changesExecutions(event('messageStatus', { message: { jobId: null, status: 'failed' } }), shown)).toBe(false);
  });

  it('ignores other events and malformed ones', () => {
    expect(changesExecutions(event('conversationClosed', { conversation: { id: 'c' } }), shown)).toBe(false);
    expect(changesExecutions(event('messageStatus', null), shown)).toBe(false);
    expect(changesExecutions(event('messageStatus', { message: 'x' }), shown)).toBe(false);
  });
});
