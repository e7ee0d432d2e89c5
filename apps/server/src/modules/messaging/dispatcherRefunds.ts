import { moneyToUnits, unitsToMoney } from '@parley/shared';
import { refundAccount } from '../billing/index.js';
import type { Tx } from '../../platform/db/client.js';
import type { MessageRow } from '../../platform/db/schema/index.js';
import { publishMessageEvents } from './messageEvents.js';

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

/** messageStatus events for changed messages, in the order given, by reference (modules/messaging/messageEvents.ts). */
export async function publishStatusEvents(tx: Tx, rows: readonly MessageRow[]): Promise<void> {
  await publishMessageEvents(tx, 'messageStatus', rows);
}
