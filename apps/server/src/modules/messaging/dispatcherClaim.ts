import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { isWithinHours, nextOpening } from '@parley/shared';
import type { CarrierName, MessageEncoding } from '../carriers/index.js';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { at } from './dispatcherRows.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/** A message the dispatcher holds ('sending', claimed_at = the claim's token) with what its submit needs. */
export interface ClaimedMessage {
  id: string;
  accountId: string;
  phoneNumberId: string;
  from: string;
  to: string;
  body: string;
  encoding: MessageEncoding;
  segments: number;
  media: MessageRow['media'];
  /** Submits before this one. */
  attempts: number;
  carrier: CarrierName;
  carrierSettingsId: string | null;
}

interface ClaimRow extends Record<string, unknown> {
  id: string;
  account_id: string;
  phone_number_id: string;
  from_number: string;
  to_number: string;
  body: string;
  encoding: MessageEncoding;
  segments: number;
  media: MessageRow['media'] | string;
  attempts: number;
  time_zone: string | null;
  approved: boolean;
  carrier: CarrierName;
  carrier_settings_id: string | null;
  quiet_hours_enabled: boolean;
  quiet_hours_start: string;
  quiet_hours_end: string;
}

export interface ClaimOptions {
  now: Date;
  /** Most messages in one claim, and most for one number. */
  batchSize: number;
  /** A number gets at most messagesPerSecond × this many seconds' worth per claim. */
  roundSeconds: number;
}

export interface Claim {
  /** The claimed_at value of every message of the claim: results are written only where it still holds. */
  token: Date;
  messages: ClaimedMessage[];
  /** Messages put back because quiet hours began for their recipient since they were queued. */
  held: number;
}

/**
 * One claim, in the caller's SHORT transaction: locks the active numbers whose rate gate is open and that
 * have due queued messages (SKIP LOCKED: another dispatcher takes other numbers), takes for each up to its
 * quota of due messages in send order (SKIP LOCKED again, messages_dispatch_idx) and marks them 'sending'
 * in the same statement. Quiet hours are checked again here (the account may have changed them, the message
 * may have waited for a retry): a message whose recipient is now outside the window goes back to 'queued'
 * with send_after at the next opening. Last, each number's gate moves on by what it was given / its rate.
 * Three statements, whatever the batch size. The row locks are NO KEY UPDATE: a sender inserting messages for
 * the number holds KEY SHARE on it (the foreign key), which must not make the dispatcher skip the number.
 */
export async function claimDueMessages(tx: Tx, options: ClaimOptions, log: Logger): Promise<Claim> {
  const { now, batchSize, roundSeconds } = options;
  const token = now;
  const rows = await queryRows<ClaimRow>(
    tx,
    sql`with numbers as (
          select p.id, p.messages_per_second
            from phone_numbers p
           where p.status = 'active' and p.next_dispatch_at <= ${at(now)}
             -- A scalar subquery, not EXISTS: EXISTS may become a semi-join, and with statistics from before
             -- a campaign queued its messages the planner expects none and compares every queued message with
             -- every number (seconds a claim); this is one probe of messages_dispatch_idx per number. Ordered
             -- as the index is: unordered, with statistics that expect many queued, the planner scans the
             -- table for the first, past every message already sent.
             and (select q.id from messages q
                   where q.phone_number_id = p.id and q.status = 'queued' and q.send_after <= ${at(now)}
                   order by q.send_after, q.id
                   limit 1) is not null
           order by p.next_dispatch_at
           limit ${batchSize}
             for no key update of p skip locked
        ), picked as (
          select c.id
            from numbers cross join lateral (
                   select m.id from messages m
                    where m.phone_number_id = numbers.id and m.status = 'queued' and m.send_after <= ${at(now)}
                    order by m.send_after, m.id
                    limit least(${batchSize}::int, greatest(1, floor(numbers.messages_per_second * ${roundSeconds}::float8))::int)
                      for no key update of m skip locked
                 ) c
           limit ${batchSize}
        )
        -- No status test here: picked rows were locked as queued by this statement. With one, statistics from
        -- before a campaign make the planner scan every queued message for each picked one (tens of seconds).
        -- The picked ids as an array: joined to them, with current statistics the planner hashes the whole
        -- table for a thousand rows; = any(array) is one primary-key probe each.
        update messages m
           set status = 'sending', claimed_at = ${at(token)}
          from phone_numbers p, accounts a
         where m.id = any(array(select id from picked)) and p.id = m.phone_number_id and a.id = m.account_id
        returning m.id, m.account_id, m.phone_number_id, m.from_number, m.to_number, m.body, m.encoding, m.segments,
                  m.media, m.attempts, m.time_zone, (m.approved_outside_hours_at is not null) as approved,
                  p.carrier, p.carrier_settings_id, a.quiet_hours_enabled, a.quiet_hours_start, a.quiet_hours_end`,
  );
  if (rows.length === 0) return { token, messages: [], held: 0 };

  const kept: ClaimedMessage[] = [];
  const held: { id: string; send_after: string }[] = [];
  for (const row of rows) {
    const opening = quietHoursOpening(row, now, log);
    if (opening !== null) {
      held.push({ id: row.id, send_after: opening.toISOString() });
      continue;
    }
    kept.push({
      id: row.id,
      accountId: row.account_id,
      phoneNumberId: row.phone_number_id,
      from: row.from_number,
      to: row.to_number,
      body: row.body,
      encoding: row.encoding,
      segments: row.segments,
      media: typeof row.media === 'string' ? (JSON.parse(row.media) as MessageRow['media']) : row.media,
      attempts: row.attempts,
      carrier: row.carrier,
      carrierSettingsId: row.carrier_settings_id,
    });
  }

  if (held.length > 0) {
    await tx.execute(sql`
      update messages m set status = 'queued', claimed_at = null, send_after = v.send_after
        from json_to_recordset(${jsonRecords(held)}) as v(id uuid, send_after timestamptz)
       where m.id = v.id and m.status = 'sending' and m.claimed_at = ${at(token)}`);
  }

  const perNumber = new Map<string, number>();
  for (const message of kept) perNumber.set(message.phoneNumberId, (perNumber.get(message.phoneNumberId) ?? 0) + 1);
  if (perNumber.size > 0) {
    // The gate opens again once the number's rate has covered what it was given.
    await tx.execute(sql`
      update phone_numbers p
         set next_dispatch_at = greatest(p.next_dispatch_at, ${at(now)})
                                + (v.n::float8 / p.messages_per_second) * interval '1 second'
        from json_to_recordset(${jsonRecords([...perNumber].map(([id, n]) => ({ id, n })))}) as v(id uuid, n int)
       where p.id = v.id`);
  }
  return { token, messages: kept, held: held.length };
}

const invalidZonesLogged = new Set<string>();

/** Null when the message may go now; else when it may (its recipient's next opening). */
function quietHoursOpening(row: ClaimRow, now: Date, log: Logger): Date | null {
  if (row.time_zone === null || row.approved || !row.quiet_hours_enabled) return null;
  const window = { start: row.quiet_hours_start, end: row.quiet_hours_end };
  try {
    return isWithinHours(now, row.time_zone, window) ? null : nextOpening(now, row.time_zone, window);
  } catch (error) {
    // An unknown zone (or a broken window) must not keep a message forever: it goes, and the log says why.
    const key = `${row.time_zone} ${window.start}-${window.end}`;
    if (!invalidZonesLogged.has(key)) {
      invalidZonesLogged.add(key);
      log.warn({ err: error, timeZone: row.time_zone, window }, 'quiet hours cannot be checked; sending anyway');
    }
    return null;
  }
}
