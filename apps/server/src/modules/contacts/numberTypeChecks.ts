import { and, count, eq, inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { NumberTypeCheck } from '@parley/shared';
import type { Database, Queryable } from '../../platform/db/client.js';
import { contacts, numberTypeChecks, type NumberTypeCheckRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/db/ids.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { SOME_CONTACTS_NOT_FOUND_MESSAGE } from './contactWriter.js';
import { checkNumberTypesJob } from './checkNumberTypesJob.js';
import { abandonNumberTypeCheck } from './numberTypeCheckRunner.js';

/*
 * "Check number types" on selected contacts (docs/decisions.md, "Check number types"): the same check, and the same
 * charge once per contact, as the account option 'validate phone number type' makes on every new number.
 */

const CHECK_NOT_FOUND = 'The number type check';

export function presentNumberTypeCheck(row: NumberTypeCheckRow): NumberTypeCheck {
  return {
    id: row.id,
    status: row.status,
    total: row.contactIds.length,
    processed: row.processed,
    checked: row.checked,
    alreadyChecked: row.alreadyChecked,
    skipped: row.skipped,
    notPaid: row.notPaid,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function findNumberTypeCheck(q: Queryable, accountId: string, id: string): Promise<NumberTypeCheck> {
  if (!isUuid(id)) throw notFound(CHECK_NOT_FOUND);
  const [row] = await q
    .select()
    .from(numberTypeChecks)
    .where(and(eq(numberTypeChecks.accountId, accountId), eq(numberTypeChecks.id, id)))
    .limit(1);
  if (!row) throw notFound(CHECK_NOT_FOUND);
  return presentNumberTypeCheck(row);
}

/** Starts a check of the account's contacts `ids` (all of them the account's, else 404 and nothing starts). */
export async function startNumberTypeCheck(
  database: Database,
  jobs: JobQueue,
  input: { accountId: string; userId: string | null; ids: readonly string[] },
): Promise<NumberTypeCheck> {
  const ids = [...new Set(input.ids)];
  const [found] = await database.db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.accountId, input.accountId), inArray(contacts.id, ids)));
  if ((found?.n ?? 0) !== ids.length) throw new AppError(404, 'not_found', SOME_CONTACTS_NOT_FOUND_MESSAGE);
  const [row] = await database.db
    .insert(numberTypeChecks)
    .values({ id: uuidv7(), accountId: input.accountId, userId: input.userId, contactIds: ids })
    .returning();
  if (!row) throw new Error('the number type check insert returned nothing');
  try {
    await jobs.send(checkNumberTypesJob(database), { checkId: row.id });
  } catch (error) {
    // Never queued, never run: say so on the check rather than leave the page waiting.
    await abandonNumberTypeCheck(database, row.id);
    throw error;
  }
  return presentNumberTypeCheck(row);
}

