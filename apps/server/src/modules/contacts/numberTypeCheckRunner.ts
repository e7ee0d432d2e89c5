import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../platform/db/client.js';
import { contacts, numberTypeChecks } from '../../platform/db/schema/index.js';
import { publishEvents } from '../../platform/events/outbox.js';
import { contactEvent } from './contactEvents.js';
import { checkNumberType } from './contactNumberType.js';
import { findContact } from './queries.js';

/** Contacts checked per transaction: the cursor moves with them, so a retry repeats none. */
export const NUMBER_TYPE_CHECK_BATCH = 25;

/** A check that will not finish: failed, so the page stops waiting. */
export async function abandonNumberTypeCheck(database: Database, id: string): Promise<void> {
  await database.db
    .update(numberTypeChecks)
    .set({ status: 'failed', finishedAt: new Date() })
    .where(and(eq(numberTypeChecks.id, id), inArray(numberTypeChecks.status, ['queued', 'running'])));
}

type Outcome = 'checked' | 'alreadyChecked' | 'skipped' | 'notPaid';

async function checkOne(tx: Tx, accountId: string, contactId: string): Promise<Outcome> {
  const [contact] = await tx
    .select({ valid: contacts.valid, number: contacts.mobileNumber, numberType: contacts.numberType })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)))
    .for('update');
  if (!contact || !contact.valid) return 'skipped';
  if (contact.numberType !== null) return 'alreadyChecked';
  return (await checkNumberType(tx, accountId, contactId, contact.number)) ? 'checked' : 'notPaid';
}

/** One batch after the cursor, in one transaction with the cursor's move; false when nothing was left. */
async function runBatch(database: Database, checkId: string): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    const [check] = await tx.select().from(numberTypeChecks).where(eq(numberTypeChecks.id, checkId)).for('update');
    if (!check || check.status === 'completed' || check.status === 'failed') return false;
    const batch = check.contactIds.slice(check.processed, check.processed + NUMBER_TYPE_CHECK_BATCH);
    if (batch.length === 0) {
      await tx.update(numberTypeChecks).set({ status: 'completed', finishedAt: new Date() }).where(eq(numberTypeChecks.id, checkId));
      return false;
    }
    const tally: Record<Outcome, number> = { checked: 0, alreadyChecked: 0, skipped: 0, notPaid: 0 };
    const changed: string[] = [];
    for (const contactId of batch) {
      const outcome = await checkOne(tx, check.accountId, contactId);
      tally[outcome] += 1;
      if (outcome === 'checked') changed.push(contactId);
    }
    const records = await Promise.all(changed.map((id) => findContact(tx, check.accountId, id)));
    await publishEvents(
      tx,
      records.flatMap((record) => (record === null ? [] : [contactEvent('contactUpdated', check.accountId, record)])),
    );
    await tx
      .update(numberTypeChecks)
      .set({
        status: 'running',
        processed: sql`${numberTypeChecks.processed} + ${batch.length}`,
        checked: sql`${numberTypeChecks.checked} + ${tally.checked}`,
        alreadyChecked: sql`${numberTypeChecks.alreadyChecked} + ${tally.alreadyChecked}`,
        skipped: sql`${numberTypeChecks.skipped} + ${tally.skipped}`,
        notPaid: sql`${numberTypeChecks.notPaid} + ${tally.notPaid}`,
      })
      .where(eq(numberTypeChecks.id, checkId));
    return true;
  });
}

/** The job's work: batches until every selected contact is counted. A retry goes on from the cursor. */
export async function runNumberTypeCheck(database: Database, checkId: string): Promise<void> {
  while (await runBatch(database, checkId)) {
    // Each batch commits before the next starts.
  }
}
