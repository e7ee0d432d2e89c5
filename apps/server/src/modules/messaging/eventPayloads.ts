import { sql } from 'drizzle-orm';
import type { MessageEventData, OutboxEventPayload } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { messages, type EventRow, type MessageRow } from '../../platform/db/schema/index.js';
import { presentMessage } from './messagePresenter.js';
import { MESSAGE_REFERENCE_TYPES, referencedMessages, type MessageSnapshot } from './messageEvents.js';
import { OUTBOX_DELIVERED_TYPES } from '../../platform/events/outbox.js';
import { isUuid } from '../../platform/db/ids.js';
import { eventPayloads, toPayload } from '../../platform/events/outboxPayload.js';

const isReferenceType = (type: string): boolean => MESSAGE_REFERENCE_TYPES.some((t) => t === type);

/** How many events a row holds (what expandEventRows makes of it, at most). */
export function eventCountOf(row: EventRow): number {
  if (isReferenceType(row.type)) {
    const snapshots = referencedMessages(row.data);
    if (snapshots !== null) return snapshots.length;
  }
  return Array.isArray(row.data) && !OUTBOX_DELIVERED_TYPES.includes(row.type) ? row.data.length : 1;
}

/** The message as it was at the event: its row now, with what changes along its way as the event recorded it. */
function asAtEvent(row: MessageRow, [, status, errorCode, errorDescription, statusAt, sentAt]: MessageSnapshot): MessageEventData {
  return {
    message: presentMessage({
      ...row,
      status,
      errorCode,
      errorDescription,
      statusAt: statusAt === null ? null : new Date(statusAt),
      sentAt: sentAt === null ? null : new Date(sentAt),
    }),
  };
}

/**
 * Every event the rows hold, in order, as the websockets get them: rows that carry their data as
 * eventPayloads reads them; a message event written by reference (modules/messaging/messageEvents.ts) as one event
 * per message, read in one query for all the rows, the message presented as it was at the event, with the
 * id `{row id}.{position}`. A message removed since (or of another account) is left out.
 */
export async function expandEventRows(q: Queryable, rows: readonly EventRow[]): Promise<OutboxEventPayload[]> {
  const references = new Map<number, MessageSnapshot[]>();
  for (const row of rows) {
    if (!isReferenceType(row.type)) continue;
    const snapshots = referencedMessages(row.data);
    if (snapshots !== null) references.set(row.id, snapshots);
  }
  const ids = [...new Set([...references.values()].flatMap((snapshots) => snapshots.map(([id]) => id)))].filter(isUuid);
  const found = new Map<string, MessageRow>();
  if (ids.length > 0) {
    const read = await q
      .select()
      .from(messages)
      .where(sql`${messages.id} = any(string_to_array(${ids.join(',')}, ',')::uuid[])`);
    for (const message of read) found.set(message.id, message);
  }
  return rows.flatMap((row) => {
    const snapshots = references.get(row.id);
    if (snapshots === undefined) return eventPayloads(row);
    const event = toPayload(row);
    return snapshots.flatMap((snapshot, index) => {
      const message = found.get(snapshot[0]);
      if (message === undefined || message.accountId !== row.accountId) return [];
      return [{ ...event, id: `${event.id}.${String(index)}`, data: asAtEvent(message, snapshot) }];
    });
  });
}
