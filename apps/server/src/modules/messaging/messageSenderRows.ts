import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { messageEventsOfChanged } from './messageEvents.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/** Rows per statement: one JSON parameter of a few megabytes, parsed by PostgreSQL in one go. */
const ROWS_PER_STATEMENT = 5000;

/**
 * Inserts queued messages and publishes their messageSent events (by `userId`), each few thousand in one
 * statement: the rows are one json parameter unpacked by json_to_recordset (as the contact importer writes
 * contacts), far cheaper than a bound parameter per column and row, and the inserted rows write their events
 * and NOTIFY as they come back (messageEventsOfChanged), so the events never travel as JSON. Columns left out
 * take their defaults (attempts 0, the carrier's fields and times null), as the rows built in memory say.
 */
export async function insertMessageRows(tx: Tx, rows: readonly MessageRow[], userId: string | null): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const batch = rows.slice(i, i + ROWS_PER_STATEMENT).map((r) => ({
      id: r.id,
      account_id: r.accountId,
      conversation_id: r.conversationId,
      contact_id: r.contactId,
      phone_number_id: r.phoneNumberId,
      direction: r.direction,
      from_number: r.fromNumber,
      to_number: r.toNumber,
      body: r.body,
      template_id: r.templateId,
      job_id: r.jobId,
      media: r.media,
      encoding: r.encoding,
      segments: r.segments,
      price: r.price,
      status: r.status,
      send_after: r.sendAfter.toISOString(),
      time_zone: r.timeZone,
      approved_outside_hours_at: r.approvedOutsideHoursAt?.toISOString() ?? null,
      event_type: r.eventType,
      created_by_user_id: r.createdByUserId,
      created_at: r.createdAt.toISOString(),
    }));
    await tx.execute(
      sql`with changed as (
          insert into messages (id, account_id, conversation_id, contact_id, phone_number_id, direction, from_number, to_number,
                                body, template_id, job_id, media, encoding, segments, price, status, send_after, time_zone,
                                approved_outside_hours_at, event_type, created_by_user_id, created_at)
          select id, account_id, conversation_id, contact_id, phone_number_id, direction, from_number, to_number,
                 body, template_id, job_id, media, encoding, segments, price, status, send_after, time_zone,
                 approved_outside_hours_at, event_type, created_by_user_id, created_at
            from json_to_recordset(${jsonRecords(batch)}) as r(
                 id uuid, account_id uuid, conversation_id uuid, contact_id uuid, phone_number_id uuid, direction text,
                 from_number text, to_number text, body text, template_id uuid, job_id uuid, media jsonb, encoding text,
                 segments integer, price numeric, status text, send_after timestamptz, time_zone text,
                 approved_outside_hours_at timestamptz, event_type text,
                 created_by_user_id uuid, created_at timestamptz)
          returning id, account_id, conversation_id, status, error_code, error_description, status_at, sent_at
          )${messageEventsOfChanged('messageSent', userId)}
          select n from announced`,
    );
  }
}
