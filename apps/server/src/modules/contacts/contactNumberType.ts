import { and, eq } from 'drizzle-orm';
import { NUMBER_TYPE_CHECK_PRICE, numberTypeOf } from '@parley/shared';
import type { Tx } from '../../platform/db/client.js';
import { contacts } from '../../platform/db/schema/index.js';
import { ChargeRefusedError, debitAccount } from '../billing/index.js';

/** One charge per contact, whatever happens to its number later: the ledger keeps the key. */
export const numberTypeChargeKey = (contactId: string): string => `number-type:${contactId}`;

/**
 * The account option 'validate phone number type': looks up the type of a contact's valid number and charges
 * 1 cent through the ledger, once per contact (a renumbered contact is looked up again for free). When the
 * charge is refused (the balance cannot cover it, the trial has expired) the lookup is skipped and the contact is saved without a type: the check
 * is an extra, and a contact is never lost for want of a cent. Answers whether the type was recorded. The type
 * is the range's; where a lookup provider is configured, refineNumberTypesJob asks it to confirm (docs/decisions.md).
 */
export async function checkNumberType(tx: Tx, accountId: string, contactId: string, e164: string): Promise<boolean> {
  try {
    await debitAccount(tx, {
      accountId,
      amount: NUMBER_TYPE_CHECK_PRICE,
      description: 'Phone number type validation',
      idempotencyKey: numberTypeChargeKey(contactId),
    });
  } catch (error) {
    if (error instanceof ChargeRefusedError) return false;
    throw error;
  }
  const now = new Date();
  await tx
    .update(contacts)
    .set({ numberType: numberTypeOf(e164), numberTypeCheckedAt: now, numberTypeSource: 'range' })
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)));
  return true;
}
