import type { OutboxEventPayload } from '@parley/shared';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Whether a websocket event may change the counts of a campaign's executions on show once they stopped
 * sending: a reply (Incoming counts replies in the conversations an execution texted, which the event
 * does not name) or a late receipt failing one of their messages (Failures).
 */
export function changesExecutions(event: OutboxEventPayload, executionIds: ReadonlySet<string>): boolean {
  if (event.type === 'messageReceived') return true;
  if (event.type !== 'messageStatus' || !isRecord(event.data) || !isRecord(event.data.message)) return false;
  const { jobId, status } = event.data.message;
  return typeof jobId === 'string' && executionIds.has(jobId) && (status === 'failed' || status === 'undelivered');
}
