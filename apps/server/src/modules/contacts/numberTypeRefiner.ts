import { and, asc, eq, gt } from 'drizzle-orm';
import { NUMBER_TYPE_CONFIRM_HOURS, numberTypeOfLineType, type ContactNumberTypeSource, type LineType } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { contacts } from '../../platform/db/schema/index.js';
import { publishEvents } from '../../platform/events/outbox.js';
import { contactEvent } from './contactEvents.js';
import { findContact } from './queries.js';

/*
 * Where a lookup provider is configured, a type read from the number's range when the contact was saved (in its
 * transaction, where no outside call belongs) is confirmed by the provider afterwards (docs/decisions.md,
 * "Validate phone number type"). The contact's cent paid for both; the provider's answer is kept for 30 days and
 * serves the carrier lookup too.
 */

/** The provider's line type for a number, and who gave it (the tools module answers it). */
export type ConfirmNumberType = (number: string) => Promise<{ lineType: LineType; source: ContactNumberTypeSource }>;

/** Contacts confirmed per run, oldest first. */
export const NUMBER_TYPE_REFINE_BATCH = 100;
/** Failures in a row after which a run stops: the provider is down, and the next run tries again. */
const FAILURES_IN_A_ROW = 3;

export interface RefineOutcome {
  confirmed: number;
  failed: number;
}

export async function refineNumberTypes(database: Database, confirm: ConfirmNumberType, now = new Date()): Promise<RefineOutcome> {
  const since = new Date(now.getTime() - NUMBER_TYPE_CONFIRM_HOURS * 3_600_000);
  const awaiting = await database.db
    .select({ accountId: contacts.accountId, id: contacts.id, number: contacts.mobileNumber })
    .from(contacts)
    .where(and(eq(contacts.numberTypeSource, 'range'), gt(contacts.numberTypeCheckedAt, since)))
    .orderBy(asc(contacts.numberTypeCheckedAt))
    .limit(NUMBER_TYPE_REFINE_BATCH);
  const outcome: RefineOutcome = { confirmed: 0, failed: 0 };
  let inARow = 0;
  for (const contact of awaiting) {
    let answer: Awaited<ReturnType<ConfirmNumberType>>;
    try {
      answer = await confirm(contact.number);
    } catch {
      // Left as it is: a later run asks again while the contact is in the window.
      outcome.failed += 1;
      inARow += 1;
      if (inARow >= FAILURES_IN_A_ROW) break;
      continue;
    }
    inARow = 0;
    if (await recordConfirmed(database, contact, answer)) outcome.confirmed += 1;
  }
  return outcome;
}

/** Writes the provider's type unless the contact was renumbered or confirmed meanwhile; announces a change. */
async function recordConfirmed(
  database: Database,
  contact: { accountId: string; id: string; number: string },
  answer: { lineType: LineType; source: ContactNumberTypeSource },
): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ numberType: contacts.numberType })
      .from(contacts)
      .where(and(eq(contacts.accountId, contact.accountId), eq(contacts.id, contact.id), eq(contacts.mobileNumber, contact.number), eq(contacts.numberTypeSource, 'range')))
      .for('update');
    if (!before) return false;
    const numberType = numberTypeOfLineType(answer.lineType);
    await tx
      .update(contacts)
      .set({ numberType, numberTypeSource: answer.source })
      .where(and(eq(contacts.accountId, contact.accountId), eq(contacts.id, contact.id)));
    if (numberType !== before.numberType) {
      const record = await findContact(tx, contact.accountId, contact.id);
      if (record !== null) await publishEvents(tx, [contactEvent('contactUpdated', contact.accountId, record)]);
    }
    return true;
  });
}
