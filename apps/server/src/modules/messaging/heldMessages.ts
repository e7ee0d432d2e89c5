import { sql, type SQL } from 'drizzle-orm';
import type { HeldMessage } from '@parley/shared';
import { queryRows, type Db } from '../../platform/db/client.js';
import { wakeDispatchers } from './dispatcher.js';
import { MAX_RETRY_DELAY_MS } from './dispatcherResults.js';

/*
 * Messages held by quiet hours: outbound, queued, with a recipient zone (the sender sets it only when the
 * account's quiet hours apply), not approved, and due later than now. A message waiting out a retry backoff
 * is due later too, but never by more than the longest backoff; so one that was tried before counts as held
 * only when it waits longer than that (a retry that landed outside the hours and was held again).
 */
const longestBackoffSeconds = MAX_RETRY_DELAY_MS / 1000;

function heldCondition(accountId: string, now: Date): SQL {
  const at = now.toISOString();
  return sql`m.account_id = ${accountId} and m.direction = 'outbound' and m.status = 'queued'
    and m.time_zone is not null and m.approved_outside_hours_at is null and m.send_after > ${at}::timestamptz
    and (m.attempts = 0 or m.send_after > ${at}::timestamptz + ${longestBackoffSeconds} * interval '1 second')`;
}

interface HeldRow extends Record<string, unknown> {
  id: string;
  body: string;
  contact_id: string;
  first_name: string;
  last_name: string;
  mobile_number: string;
  phone_number_id: string | null;
  from_number: string;
  time_zone: string;
  send_after: Date | string;
  created_at: Date | string;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

function presentHeldMessage(row: HeldRow): HeldMessage {
  return {
    id: row.id,
    message: row.body,
    contact: { id: row.contact_id, firstName: row.first_name, lastName: row.last_name, mobile: row.mobile_number },
    phoneNumber: row.phone_number_id === null ? null : { id: row.phone_number_id, number: row.from_number },
    timeZone: row.time_zone,
    sendAfter: iso(row.send_after),
    created: { at: iso(row.created_at) },
  };
}

/** One page of the account's held messages, the soonest to go first, and how many there are in all. */
export async function listHeldMessages(
  db: Db,
  accountId: string,
  page: { offset: number; limit: number },
  now: Date = new Date(),
): Promise<{ rows: HeldMessage[]; totalCount: number }> {
  const where = heldCondition(accountId, now);
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from messages m where ${where}`);
  const rows = await queryRows<HeldRow>(
    db,
    sql`select m.id, m.body, m.contact_id, c.first_name, c.last_name, c.mobile_number, m.phone_number_id, m.from_number,
               m.time_zone, m.send_after, m.created_at
          from messages m join contacts c on c.id = m.contact_id
         where ${where}
         order by m.send_after, m.id
         limit ${page.limit} offset ${page.offset}`,
  );
  return { rows: rows.map(presentHeldMessage), totalCount: count?.n ?? 0 };
}

/**
 * Approves sending held messages now (all of them, or those named): they are marked approved, so quiet
 * hours no longer hold them at the dispatcher's claim either, and due at once; the dispatchers are woken.
 * Ids that are not held messages of the account (another account's, already sent, unknown) are left out.
 */
export async function approveHeldMessages(
  db: Db,
  accountId: string,
  messageIds: readonly string[] | undefined,
  now: Date = new Date(),
): Promise<number> {
  const only =
    messageIds === undefined
      ? sql`true`
      : sql`m.id in (select (jsonb_array_elements_text(${JSON.stringify(messageIds)}::jsonb))::uuid)`;
  return db.transaction(async (tx) => {
    const approved = await queryRows<{ id: string }>(
      tx,
      sql`update messages m set approved_outside_hours_at = ${now.toISOString()}::timestamptz,
                                send_after = ${now.toISOString()}::timestamptz
           where ${heldCondition(accountId, now)} and ${only}
          returning m.id`,
    );
    if (approved.length > 0) await wakeDispatchers(tx);
    return approved.length;
  });
}
