import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { MessageMedia } from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import { contacts, type MessageRow } from '../../platform/db/schema/index.js';
import { conversationKey, openConversations, touchConversations } from './conversations.js';
import { wakeDispatchers } from './dispatcher.js';
import type { PreparedMessage } from './messageSenderPrepare.js';
import { insertMessageRows } from './messageSenderRows.js';
import type { Schedule } from './messageSenderSchedule.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';


export interface MessageOrigin {
  accountId: string;
  createdByUserId: string | null;
  templateId: string | null;
  jobId: string | null;
  eventType: string | null;
  media: readonly MessageMedia[];
}

/**
 * Writes a batch of prepared messages in the caller's transaction: the conversations they belong to
 * (opened where none is), the message rows (queued), each conversation's last message, the number each
 * contact keeps, and one messageSent event per message (by reference, modules/messaging/messageEvents.ts, written by the
 * messages' own INSERT). Set-based: a handful of statements per thousand.
 */
export async function writeMessages(
  tx: Tx,
  origin: MessageOrigin,
  prepared: readonly PreparedMessage[],
  schedules: readonly Schedule[],
  now: Date,
): Promise<MessageRow[]> {
  const { accountId } = origin;
  // Ids first: a conversation opened for a message starts out pointing at it.
  const ids = prepared.map(() => uuidv7());
  const opened = await openConversations(
    tx,
    accountId,
    prepared.flatMap((p, i) =>
      p.recipient.conversation === null
        ? [
            {
              contactId: p.recipient.contact.id,
              phoneNumberId: p.number.id,
              phoneNumber: p.number.number,
              groupId: p.groupId,
              lastMessageId: ids[i] ?? uuidv7(),
            },
          ]
        : [],
    ),
    now,
  );

  const rows: MessageRow[] = prepared.map((p, i) => {
    const schedule = schedules[i];
    const id = ids[i];
    if (schedule === undefined || id === undefined) throw new Error('a message without its schedule');
    const conversationId =
      p.recipient.conversation?.id ?? opened.get(conversationKey(p.recipient.contact.id, p.number.id))?.id;
    if (conversationId === undefined) throw new Error('a message without its conversation');
    return {
      id,
      accountId,
      conversationId,
      contactId: p.recipient.contact.id,
      phoneNumberId: p.number.id,
      direction: 'outbound',
      fromNumber: p.number.number,
      toNumber: p.recipient.contact.mobileNumber,
      body: p.body,
      templateId: origin.templateId,
      jobId: origin.jobId,
      media: origin.media.map((m) => ({ url: m.url, type: m.type, filename: m.filename })),
      encoding: p.encoding,
      segments: p.segments,
      price: p.price,
      refundedAt: null,
      status: 'queued',
      carrier: null,
      carrierMessageId: null,
      errorCode: null,
      errorDescription: null,
      attempts: 0,
      sendAfter: schedule.sendAfter,
      timeZone: schedule.timeZone,
      approvedOutsideHoursAt: schedule.approvedOutsideHours ? now : null,
      claimedAt: null,
      sentAt: null,
      statusAt: null,
      readAt: null,
      replyToId: null,
      eventType: origin.eventType,
      createdByUserId: origin.createdByUserId,
      createdAt: now,
    };
  });

  await insertMessageRows(tx, rows, origin.createdByUserId);

  // Conversations opened above already point at their message; the others move on to it.
  const started = new Set([...opened.values()].filter((c) => c.started).map((c) => c.id));
  await touchConversations(
    tx,
    accountId,
    rows.filter((row) => !started.has(row.conversationId)).map((row) => ({ conversationId: row.conversationId, lastMessageId: row.id, lastMessageAt: now })),
  );
  await keepSenderNumbers(tx, accountId, prepared);
  // Wakes the dispatchers on commit, so what may go now leaves without waiting for their poll.
  if (rows.some((row) => row.sendAfter.getTime() <= now.getTime())) await wakeDispatchers(tx);
  return rows;
}

/** A contact keeps the number it was last texted from, so its next message comes from the same one. */
async function keepSenderNumbers(tx: Tx, accountId: string, prepared: readonly PreparedMessage[]): Promise<void> {
  const changed = new Map<string, string>();
  for (const p of prepared) {
    if (p.recipient.contact.senderPhoneNumberId !== p.number.id) changed.set(p.recipient.contact.id, p.number.id);
  }
  if (changed.size === 0) return;
  // One order for every writer (by id): two sends to the same contacts lock them in the same order.
  const rows = [...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, numberId]) => ({ id, number_id: numberId }));
  await tx.execute(
    sql`update ${contacts} c set sender_phone_number_id = v.number_id
          from json_to_recordset(${jsonRecords(rows)}) as v(id uuid, number_id uuid)
         where c.id = v.id and c.account_id = ${accountId}`,
  );
}
