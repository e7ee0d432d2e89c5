import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { publishStatusEvents, refundMessages } from './dispatcherRefunds.js';
import { messageEventsOfChanged } from './messageEvents.js';
import { at, messageFromRaw } from './dispatcherRows.js';
import type { SubmitOutcome } from './dispatcherSubmit.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';

/** Submits a message gets before a retryable failure becomes final. */
export const MAX_SUBMIT_ATTEMPTS = 8;

/** The longest wait between two submits of a message. */
export const MAX_RETRY_DELAY_MS = 5 * 60_000;

/** The wait before submit n + 1 after n retryable failures: 1 s, doubling, at most 5 minutes. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_DELAY_MS);
}

export interface WrittenResults {
  sent: number;
  failed: number;
  retried: number;
  refunded: number;
}

interface FailedRecord {
  id: string;
  code: string;
  text: string;
}

/**
 * Marks messages failed (final) with the carrier's code and text and refunds them: set-based, only messages
 * still 'sending' under `token` (another dispatcher that recovered them after a lost lease owns them now).
 */
export async function failMessages(
  tx: Tx,
  failed: readonly FailedRecord[],
  now: Date,
  where: ReturnType<typeof sql>,
): Promise<MessageRow[]> {
  if (failed.length === 0) return [];
  const raw = await queryRows<Record<string, unknown>>(
    tx,
    sql`update messages m
           set status = 'failed', error_code = v.code, error_description = v.text, status_at = ${at(now)},
               attempts = m.attempts + 1, claimed_at = null,
               refunded_at = case when m.refunded_at is null and m.price > 0 then ${at(now)} else m.refunded_at end
          from json_to_recordset(${jsonRecords(failed)}) as v(id uuid, code text, text text)
         where m.id = v.id and ${where}
        returning m.*, (m.refunded_at = ${at(now)}) as refunded_now`,
  );
  const rows = raw.map(messageFromRaw);
  await refundMessages(
    tx,
    rows.filter((_, i) => raw[i]?.refunded_now === true),
  );
  return rows;
}

/**
 * Writes what the carriers answered for one claim, in the caller's transaction, in a constant number of
 * statements: accepted → 'sent' with the carrier and its id; a final refusal → 'failed' and refunded; a
 * retryable one → 'queued' again after a backoff, or 'failed' and refunded at the last attempt. Only rows
 * still 'sending' under the claim's token change. The accepted ones' messageStatus events are written by their
 * update's own statement, the failed ones' by one insert.
 */
export async function writeOutcomes(
  tx: Tx,
  token: Date,
  outcomes: readonly SubmitOutcome[],
  now: Date,
  maxAttempts = MAX_SUBMIT_ATTEMPTS,
): Promise<WrittenResults> {
  const accepted: { id: string; carrier: string; cid: string }[] = [];
  const failed: FailedRecord[] = [];
  const retried: { id: string; send_after: string }[] = [];
  for (const outcome of outcomes) {
    switch (outcome.kind) {
      case 'accepted':
        accepted.push({ id: outcome.message.id, carrier: outcome.carrier, cid: outcome.carrierMessageId });
        break;
      case 'refused':
        failed.push({ id: outcome.message.id, code: outcome.errorCode, text: outcome.errorText });
        break;
      case 'retry': {
        const attempts = outcome.message.attempts + 1;
        if (attempts >= maxAttempts) {
          failed.push({ id: outcome.message.id, code: outcome.errorCode, text: outcome.errorText });
        } else {
          retried.push({ id: outcome.message.id, send_after: new Date(now.getTime() + retryDelayMs(attempts)).toISOString() });
        }
        break;
      }
    }
  }
  const mine = sql`m.status = 'sending' and m.claimed_at = ${at(token)}`;

  let sent = 0;
  if (accepted.length > 0) {
    // The update and its messageStatus events in one statement (the rows stay in the database).
    const [written] = await queryRows<{ sent: number; announced: number }>(
      tx,
      sql`with changed as (
            update messages m
               set status = 'sent', carrier = v.carrier, carrier_message_id = v.cid, sent_at = ${at(now)},
                   status_at = ${at(now)}, attempts = m.attempts + 1, claimed_at = null
              from json_to_recordset(${jsonRecords(accepted)}) as v(id uuid, carrier text, cid text)
             where m.id = v.id and ${mine}
            returning m.id, m.account_id, m.conversation_id, m.status, m.error_code, m.error_description, m.status_at, m.sent_at
          )${messageEventsOfChanged('messageStatus')}
          select (select count(*)::int from changed) as sent, (select n::int from announced) as announced`,
    );
    sent = written?.sent ?? 0;
  }
  const failedRows = await failMessages(tx, failed, now, mine);
  if (retried.length > 0) {
    await tx.execute(sql`
      update messages m set status = 'queued', attempts = m.attempts + 1, send_after = v.send_after, claimed_at = null
        from json_to_recordset(${jsonRecords(retried)}) as v(id uuid, send_after timestamptz)
       where m.id = v.id and ${mine}`);
  }
  await publishStatusEvents(tx, failedRows);
  return {
    sent,
    failed: failedRows.length,
    retried: retried.length,
    refunded: failedRows.filter((row) => row.refundedAt !== null && row.refundedAt.getTime() === now.getTime()).length,
  };
}
