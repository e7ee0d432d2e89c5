import type { OutboxEventPayload } from '@parley/shared';
import type { EventRow } from '../db/schema/index.js';
import { OUTBOX_DELIVERED_TYPES } from './outbox.js';

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

/**
 * The events an outbox row holds that carries its events' data, in order: itself, or, for a row several
 * events share (insertEventRows: a type no subscriber delivers, its data the array of theirs), each of them
 * with the row's type, account, user and group, and the id `{row id}.{position}`.
 */
export function eventPayloads(row: EventRow): OutboxEventPayload[] {
  const event = toPayload(row);
  if (!Array.isArray(row.data) || OUTBOX_DELIVERED_TYPES.includes(row.type)) return [event];
  return row.data.map((data: unknown, index) => ({ ...event, id: `${event.id}.${String(index)}`, data }));
}
