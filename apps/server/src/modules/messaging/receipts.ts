import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DeliveryStatus, StatusReport } from '../carriers/index.js';
import type { NumberCarrierRef } from '../carriers/index.js';
import { queryRows, type Database } from '../../platform/db/client.js';
import { messageEventsOfChanged } from './messageEvents.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/** How far along a status is: a message only ever moves up, and a final status (3) never changes. */
const statusRank: Record<DeliveryStatus, number> = { sent: 2, delivered: 3, undelivered: 3, failed: 3 };

const rankSql = (column: ReturnType<typeof sql>) =>
  sql`(case ${column} when 'queued' then 0 when 'sending' then 1 when 'sent' then 2 else 3 end)`;

/**
 * Receipts for carrier ids no message has yet while messages are still being submitted: the receipt may
 * have beaten the dispatcher's 'sent' write. Thrown after the known receipts were written, so the adapter
 * hands the report over again (the simulator retries, SMPP answers deliver_sm with a temporary error).
 */
export class ReceiptNotMatchedError extends Error {
  constructor(readonly carrierMessageIds: readonly string[]) {
    super(
      `no message has the carrier id${carrierMessageIds.length === 1 ? '' : 's'} ${carrierMessageIds.slice(0, 5).join(', ')}` +
        `${carrierMessageIds.length > 5 ? ' …' : ''} yet; report again later`,
    );
    this.name = 'ReceiptNotMatchedError';
  }
}

export interface AppliedReceipts {
  /** Messages whose status moved. */
  changed: number;
  /** Receipts for no message at all, dropped (nothing was being submitted that could still take the id). */
  dropped: string[];
}

/** Per carrier id the furthest report (the first final one when several are final): a batch may hold both. */
function furthest(reports: readonly StatusReport[]): StatusReport[] {
  const byId = new Map<string, StatusReport>();
  for (const report of reports) {
    const seen = byId.get(report.carrierMessageId);
    if (seen === undefined || statusRank[report.status] > statusRank[seen.status]) byId.set(report.carrierMessageId, report);
  }
  return [...byId.values()];
}

interface Pass {
  changed: number;
  /** Carrier ids whose report is not applied: no message has the id, or it got it after this pass looked. */
  pending: string[];
  /** Of those, the ids no message has at all. */
  unknown: string[];
  /** Whether any message is being submitted (so an unknown id may still be written). */
  submitting: boolean;
}

/** One pass in one transaction: the receipts that move a message are written with their events. */
async function applyOnce(database: Database, reports: readonly StatusReport[], source: NumberCarrierRef): Promise<Pass> {
  if (reports.length === 0) return { changed: 0, pending: [], unknown: [], submitting: false };
  const wanted = furthest(reports).map((r) => ({
    cid: r.carrierMessageId,
    status: r.status,
    code: r.errorCode,
    text: r.errorText,
    at: r.at.toISOString(),
  }));
  const fromSource = sql`m.carrier = ${source.carrier} and exists (select 1 from phone_numbers p where p.id = m.phone_number_id
              and p.carrier_settings_id is not distinct from ${source.carrierSettingsId}::uuid)`;

  return database.db.transaction(async (tx) => {
    const [result] = await queryRows<{ moved: string[] | null; announced: number }>(
      tx,
      // Each receipt finds its message through messages_carrier_id_idx (OFFSET 0 keeps the lookup a probe per
      // receipt: planned as a join, statistics from before the messages had carrier ids (refreshed only as the
      // table grows by half) make the planner compare every sent message with every receipt, seconds a batch). The
      // update then goes by primary key and checks the status again on the row it locks. Its messageStatus
      // events are written by the same statement.
      sql`with changed as (
            update messages m
               set status = t.status, error_code = t.code, error_description = t.text, status_at = t.at
              from (select f.id, v.status, v.code, v.text, v.at
                      from json_to_recordset(${jsonRecords(wanted)}) as v(cid text, status text, code text, text text, at timestamptz)
                      cross join lateral (
                        select m.id from messages m
                         where m.carrier_message_id = v.cid and m.direction = 'outbound' and ${fromSource}
                           and ${rankSql(sql`m.status`)} < ${rankSql(sql`v.status`)}
                        offset 0) f) t
             where m.id = t.id and ${rankSql(sql`m.status`)} < ${rankSql(sql`t.status`)}
            returning m.id, m.account_id, m.conversation_id, m.status, m.error_code, m.error_description, m.status_at,
                      m.sent_at, m.carrier_message_id
          )${messageEventsOfChanged('messageStatus')}
          select (select array_agg(carrier_message_id) from changed) as moved, (select n::int from announced) as announced`,
    );
    const movedIds = result?.moved ?? [];
    const moved = new Set(movedIds);
    const rest = wanted.filter((w) => !moved.has(w.cid)).map((w) => ({ cid: w.cid, status: w.status }));
    if (rest.length === 0) return { changed: movedIds.length, pending: [], unknown: [], submitting: false };
    // A message already as far or further (a repeat, a late 'sent') settles its report. This statement sees
    // what committed after the update's own look, so an id written meanwhile shows as known, not settled:
    // the next pass applies it.
    const [found] = await queryRows<{ checks: unknown; submitting: boolean }>(
      tx,
      sql`select (select jsonb_agg(jsonb_build_object(
                     'cid', v.cid,
                     'known', exists (select 1 from messages m
                                       where m.carrier_message_id = v.cid and m.direction = 'outbound' and ${fromSource}),
                     'settled', exists (select 1 from messages m
                                         where m.carrier_message_id = v.cid and m.direction = 'outbound' and ${fromSource}
                                           and ${rankSql(sql`m.status`)} >= ${rankSql(sql`v.status`)})))
                    from json_to_recordset(${jsonRecords(rest)}) as v(cid text, status text)) as checks,
                 exists (select 1 from messages s where s.status = 'sending') as submitting`,
    );
    const checks = (typeof found?.checks === 'string' ? JSON.parse(found.checks) : (found?.checks ?? [])) as {
      cid: string;
      known: boolean;
      settled: boolean;
    }[];
    const open = checks.filter((c) => !c.settled);
    return {
      changed: movedIds.length,
      pending: open.map((c) => c.cid),
      unknown: open.filter((c) => !c.known).map((c) => c.cid),
      submitting: found?.submitting === true,
    };
  });
}

/** Waits between looks for ids a dispatcher is about to write; the usual race is a few milliseconds. */
const MATCH_RETRY_DELAYS_MS = [50, 100, 200, 400];

/**
 * Writes delivery receipts set-based, in one transaction: each message found by its carrier id (and, when
 * the adapter says which connection it is, by that carrier) moves forward only — queued → sending → sent →
 * delivered | undelivered | failed; a final status is never overwritten — with the carrier's error code
 * and text and the report's time, and publishes messageStatus for each message that moved. A receipt
 * after acceptance is never refunded: the carrier took the message.
 *
 * A receipt for an id no message carries yet: while any message is 'sending', the id may still be written
 * (the receipt beat the dispatcher's 'sent' write). Those receipts are tried again a few times within about
 * a second; if still unmatched, this throws ReceiptNotMatchedError (the others are committed) and the
 * adapter reports them again later. When nothing is being submitted the id can never appear: the receipt
 * is logged and dropped, so a stray one is not retried forever.
 */
export async function applyStatusReports(
  database: Database,
  reports: readonly StatusReport[],
  log: Logger,
  source: NumberCarrierRef,
): Promise<AppliedReceipts> {
  let pending = reports;
  let changed = 0;
  for (let attempt = 0; ; attempt++) {
    const pass = await applyOnce(database, pending, source);
    changed += pass.changed;
    if (pass.pending.length === 0) return { changed, dropped: [] };
    if (!pass.submitting && pass.unknown.length === pass.pending.length) {
      log.warn({ carrierMessageIds: pass.unknown.slice(0, 20), count: pass.unknown.length, source }, 'receipts for unknown messages dropped');
      return { changed, dropped: pass.unknown };
    }
    const delay = MATCH_RETRY_DELAYS_MS[attempt];
    if (delay === undefined) throw new ReceiptNotMatchedError(pass.pending);
    const open = new Set(pass.pending);
    pending = pending.filter((r) => open.has(r.carrierMessageId));
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
