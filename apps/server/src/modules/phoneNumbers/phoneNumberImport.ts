import { and, eq, inArray, ne } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { checkE164 } from '@parley/shared';
import type { Db, Queryable } from '../../platform/db/client.js';
import { auditLog, phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { refuseHeldNumber } from './phoneNumberBuyer.js';
import { accountThatMayAddNumbers, rateFor } from './phoneNumberCarrier.js';
import { insertConnectionNumber } from './connectionNumberInsert.js';

/*
 * Numbers the account already owns at Twilio, imported onto its own Twilio connection (docs/integrations.md,
 * "Twilio"): the number is the account's at Twilio (the connection's credentials listed it), so it is active
 * and verified at once, as a bought number is.
 */

export interface ImportedNumber {
  accountId: string;
  carrierSettingsId: string;
  /** E.164, as Twilio lists it. */
  number: string;
  /** Twilio's PN… sid. */
  carrierNumberId: string;
  name: string;
  actorUserId: string | null;
}

/** The checks before Twilio is asked to point the number at Parley: the plan, and the number free. */
export async function refuseImport(q: Queryable, accountId: string, number: string): Promise<string> {
  await accountThatMayAddNumbers(q, accountId);
  const checked = checkE164(number);
  if (!checked.ok) throw new AppError(400, 'validation_failed', checked.message);
  await refuseHeldNumber(q, accountId, checked.e164);
  return checked.e164;
}

/** Writes the imported number, active; a number taken meanwhile is refused (409). */
export async function addImportedNumber(db: Db, input: ImportedNumber): Promise<PhoneNumberRow> {
  const checked = checkE164(input.number);
  if (!checked.ok) throw new AppError(400, 'validation_failed', checked.message);
  const rate = await rateFor(db, 'twilio', null);
  return insertConnectionNumber(
    db,
    {
      accountId: input.accountId,
      e164: checked.e164,
      country: checked.country,
      name: input.name,
      carrier: 'twilio',
      carrierSettingsId: input.carrierSettingsId,
      carrierNumberId: input.carrierNumberId,
      messagesPerSecond: rate,
    },
    async (tx, inserted) => {
      await tx.insert(auditLog).values({
        id: uuidv7(),
        accountId: input.accountId,
        actorUserId: input.actorUserId,
        action: 'phoneNumber.import',
        subjectType: 'phoneNumber',
        subjectId: inserted.id,
        details: { number: inserted.number, carrier: 'twilio', carrierSettingsId: input.carrierSettingsId, carrierNumberId: input.carrierNumberId },
      });
    },
  );
}

/** The account's numbers (not released) on a connection, by carrier number id. */
export async function connectionNumbers(q: Queryable, accountId: string, carrierSettingsId: string): Promise<PhoneNumberRow[]> {
  return q
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.carrierSettingsId, carrierSettingsId), ne(phoneNumbers.status, 'released')));
}

/** Releases numbers of the account (they stop sending and receiving; their messages stay). */
export async function releaseNumbers(q: Queryable, accountId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await q
    .update(phoneNumbers)
    .set({ status: 'released', updatedAt: new Date() })
    .where(and(eq(phoneNumbers.accountId, accountId), inArray(phoneNumbers.id, [...ids])));
}
