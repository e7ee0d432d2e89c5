import { CALL_RECORDED_EVENT, type OutboxEventPayload } from '@parley/shared';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The conversation a callRecorded event of the account is about, else null. */
export function callConversationOf(payload: OutboxEventPayload, accountId: string): string | null {
  if (payload.type !== CALL_RECORDED_EVENT || payload.accountId !== accountId || !isRecord(payload.data)) return null;
  const { conversation } = payload.data;
  return isRecord(conversation) && typeof conversation.id === 'string' ? conversation.id : null;
}
