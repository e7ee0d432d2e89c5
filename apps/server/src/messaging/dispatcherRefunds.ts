import { sql } from 'drizzle-orm';
import { moneyToUnits, unitsToMoney, type MessageEventData } from '@parley/shared';
import { refundAccount } from '../commands/ledger.js';
import type { Tx } from '../db/client.js';
import type { MessageRow } from '../db/schema/index.js';
import { insertEventRows, laneOf, notifyOutbox } from '../events/outbox.js';
import { presentMessage } from '../presenters/message.js';
import { jsonRecords } from './dispatcherRows.js';

/**
 * Gives back the charge of messages that failed before a carrier accepted them: one ledger refund per
 * account with the sum (accounts in id order, so two dispatchers never lock two accounts crosswise).
 * `refunded` are the rows whose refunded_at the caller's statement has just set, in the same transaction,
 * so a message is refunded once however often its failure is written.
 */
export async function refundMessages(tx: Tx, refunded: readonly MessageRow[]): Promise<void> {
  const byAccount = new Map<string, { units: bigint; count: number }>();
  for (const row of refunded) {
    const units = moneyToUnits(row.price);
    if (units <= 0n) continue;
    const sum = byAccount.get(row.accountId) ?? { units: 0n, count: 0 };
    sum.units += units;
    sum.count += 1;
    byAccount.set(row.accountId, sum);
  }
  for (const accountId of [...byAccount.keys()].sort()) {
    const { units, count } = byAccount.get(accountId) as { units: bigint; count: number };
    await refundAccount(tx, {
      accountId,
      amount: unitsToMoney(units),
      description: count === 1 ? 'Refund: 1 message was not sent' : `Refund: ${count} messages were not sent`,
    });
  }
}

/**
 * messageStatus events for changed messages, in the order given: one insert whose events travel as ONE jsonb
 * parameter (the outbox's publishEvents binds four parameters a row, which costs a campaign's batches
 * several times more) and share rows by account and group (insertEventRows), then the outbox's NOTIFY.
 */
export async function publishStatusEvents(tx: Tx, rows: readonly MessageRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => ({ account_id: row.accountId, data: { message: presentMessage(row) } satisfies MessageEventData }));
  const written = await insertEventRows(
    tx,
    sql`select 'messageStatus'::text as type, e.account_id, null::uuid as user_id, c.group_id,
               ${laneOf('messageStatus')}::smallint as lane, e.data, e.n
          from rows from (jsonb_to_recordset(${jsonRecords(records)}) as (account_id uuid, data jsonb)) with ordinality as e(account_id, data, n)
          left join conversations c on c.id = (e.data->'message'->'conversation'->>'id')::uuid and c.account_id = e.account_id`,
  );
  await notifyOutbox(tx, written);
}
