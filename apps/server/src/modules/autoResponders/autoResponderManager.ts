import { and, asc, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  AUTO_RESPONDER_MATCH_TAKEN_MESSAGE,
  AUTO_RESPONDERS_MAX,
  AUTO_RESPONDERS_MAX_MESSAGE,
  AUTO_RESPONDERS_TRIAL_MESSAGE,
  type ListQuery,
  type SaveAutoResponder,
} from '@parley/shared';
import { queryRows, type Db, type Queryable, type Tx } from '../../platform/db/client.js';
import { autoResponders, type AutoResponderRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/db/ids.js';

export const AUTO_RESPONDER_NOT_FOUND = 'The auto responder';

/** The account's responders, oldest first: the order an inbound message tries them in. */
export async function listAutoResponders(q: Queryable, accountId: string, page: ListQuery): Promise<{ rows: AutoResponderRow[]; totalCount: number }> {
  const where = eq(autoResponders.accountId, accountId);
  const [total] = await q.select({ n: count() }).from(autoResponders).where(where);
  const rows = await q
    .select()
    .from(autoResponders)
    .where(where)
    .orderBy(asc(autoResponders.createdAt), asc(autoResponders.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

/** One responder of the account; null for another account's, an unknown or a malformed id. */
export async function findAutoResponder(q: Queryable, accountId: string, id: string): Promise<AutoResponderRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await q
    .select()
    .from(autoResponders)
    .where(and(eq(autoResponders.accountId, accountId), eq(autoResponders.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * Locks the open account (NO KEY UPDATE, as ledger debits do) so two saves check the limit and the
 * duplicates one after the other, and refuses a trial plan: auto responders are not part of it (docs/autoResponders.md
 * hides them; the server says why, as phone numbers do).
 */
async function lockPaidAccount(tx: Tx, accountId: string): Promise<void> {
  const [account] = await queryRows<{ is_trial: boolean }>(
    tx,
    sql`select p.is_trial from accounts a join plans p on p.id = a.plan_id
         where a.id = ${accountId} and a.status = 'active' for no key update of a`,
  );
  if (!account) throw notFound('The account');
  if (account.is_trial) throw new AppError(403, 'forbidden', AUTO_RESPONDERS_TRIAL_MESSAGE);
}

/**
 * A responder with the same match would never answer (the older one always wins): refused. Simple
 * matches ignore case, so they compare ignoring case; Advanced ones compare as written.
 */
async function checkMatchFree(tx: Tx, accountId: string, input: SaveAutoResponder, exceptId?: string): Promise<void> {
  const sameMatch: SQL = input.advanced
    ? sql`${autoResponders.match} = ${input.match}`
    : sql`lower(${autoResponders.match}) = lower(${input.match})`;
  const [taken] = await tx
    .select({ id: autoResponders.id })
    .from(autoResponders)
    .where(
      and(
        eq(autoResponders.accountId, accountId),
        eq(autoResponders.advanced, input.advanced),
        sameMatch,
        exceptId === undefined ? undefined : ne(autoResponders.id, exceptId),
      ),
    )
    .limit(1);
  if (taken) throw new AppError(409, 'conflict', AUTO_RESPONDER_MATCH_TAKEN_MESSAGE);
}

/** A new responder: the newest, so tried after the account's others. */
export function createAutoResponder(db: Db, accountId: string, userId: string | null, input: SaveAutoResponder): Promise<AutoResponderRow> {
  return db.transaction(async (tx) => {
    await lockPaidAccount(tx, accountId);
    const [existing] = await tx.select({ n: count() }).from(autoResponders).where(eq(autoResponders.accountId, accountId));
    if ((existing?.n ?? 0) >= AUTO_RESPONDERS_MAX) throw new AppError(409, 'conflict', AUTO_RESPONDERS_MAX_MESSAGE);
    await checkMatchFree(tx, accountId, input);
    const now = new Date();
    const [row] = await tx
      .insert(autoResponders)
      .values({ id: uuidv7(), accountId, ...input, createdByUserId: userId, createdAt: now, updatedAt: now })
      .returning();
    if (!row) throw new Error('the auto responder insert returned nothing');
    return row;
  });
}

/** Replaces a responder's match, response and kind; it keeps its place in the order (its creation time). */
export function updateAutoResponder(db: Db, accountId: string, id: string, input: SaveAutoResponder): Promise<AutoResponderRow> {
  return db.transaction(async (tx) => {
    await lockPaidAccount(tx, accountId);
    if (!(await findAutoResponder(tx, accountId, id))) throw notFound(AUTO_RESPONDER_NOT_FOUND);
    await checkMatchFree(tx, accountId, input, id);
    const [row] = await tx
      .update(autoResponders)
      .set({ match: input.match, response: input.response, advanced: input.advanced, updatedAt: new Date() })
      .where(and(eq(autoResponders.accountId, accountId), eq(autoResponders.id, id)))
      .returning();
    if (!row) throw notFound(AUTO_RESPONDER_NOT_FOUND);
    return row;
  });
}

export function removeAutoResponder(db: Db, accountId: string, id: string): Promise<void> {
  return db.transaction(async (tx) => {
    await lockPaidAccount(tx, accountId);
    if (!isUuid(id)) throw notFound(AUTO_RESPONDER_NOT_FOUND);
    const removed = await tx
      .delete(autoResponders)
      .where(and(eq(autoResponders.accountId, accountId), eq(autoResponders.id, id)))
      .returning({ id: autoResponders.id });
    if (removed.length === 0) throw notFound(AUTO_RESPONDER_NOT_FOUND);
  });
}
