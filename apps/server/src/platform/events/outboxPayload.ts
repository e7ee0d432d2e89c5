import type { OutboxEventPayload } from '@parley/shared';
import type { EventRow } from '../db/schema/index.js';

/** An outbox row as the one event it holds (the dispatcher's rows: delivered types never share a row). */
export function toPayload(row: EventRow): OutboxEventPayload {
  return {
    id: String(row.id),
    type: row.type,
    accountId: row.accountId,
    userId: row.userId,
    groupId: row.groupId,
    data: row.data,
    createdAt: row.createdAt.toISOString(),
  };
}
