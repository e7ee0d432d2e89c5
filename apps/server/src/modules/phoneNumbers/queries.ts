import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../platform/db/client.js';
import { accounts, phoneNumbers, simulatorSettings, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { isUuid } from '../../platform/db/ids.js';

/** Released numbers are gone for the account: not listed, not found. */
const notReleased = ne(phoneNumbers.status, 'released');

/** One number of the account (released ones excepted); null when it is not the account's. */
export async function findPhoneNumber(q: Queryable, accountId: string, id: string): Promise<PhoneNumberRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await q
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.id, id), notReleased))
    .limit(1);
  return row ?? null;
}

/** The same, with the row locked for the rest of the transaction. */
export async function lockPhoneNumber(tx: Tx, accountId: string, id: string): Promise<PhoneNumberRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await tx
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.id, id), notReleased))
    .for('update');
  return row ?? null;
}

/** The account's numbers, oldest first. */
export async function listPhoneNumbers(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: PhoneNumberRow[]; totalCount: number }> {
  const where = and(eq(phoneNumbers.accountId, accountId), notReleased);
  const [total] = await q.select({ n: count() }).from(phoneNumbers).where(where);
  const rows = await q
    .select()
    .from(phoneNumbers)
    .where(where)
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

/** The active row holding a number, in any account (one at most: a unique index keeps it so). */
export async function activeHolder(
  q: Queryable,
  number: string,
  exceptId?: string,
): Promise<{ id: string; accountId: string } | null> {
  const [row] = await q
    .select({ id: phoneNumbers.id, accountId: phoneNumbers.accountId })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.number, number), eq(phoneNumbers.status, 'active'), exceptId === undefined ? undefined : ne(phoneNumbers.id, exceptId)))
    .limit(1);
  return row ?? null;
}

/** Which of `numbers` the account already holds (released ones excepted). */
export async function accountHolds(q: Queryable, accountId: string, numbers: readonly string[]): Promise<string[]> {
  if (numbers.length === 0) return [];
  const rows = await q
    .select({ number: phoneNumbers.number })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), inArray(phoneNumbers.number, [...numbers]), notReleased));
  return rows.map((r) => r.number);
}

/** The simulator's messages per second from its settings row, when there is one. */
export async function simulatorRate(q: Queryable): Promise<number | null> {
  const [row] = await q
    .select({ rate: simulatorSettings.messagesPerSecond })
    .from(simulatorSettings)
    .where(eq(simulatorSettings.id, 1))
    .limit(1);
  return row?.rate ?? null;
}

/** Whether the verification code of a number has expired, by the database's clock. */
export async function verificationExpired(tx: Tx, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ expired: sql<boolean>`coalesce(${phoneNumbers.verificationExpiresAt} <= now(), true)` })
    .from(phoneNumbers)
    .where(eq(phoneNumbers.id, id));
  return row?.expired ?? true;
}

/**
 * The name of the account holding a number now (not released), or null: what the simulated network answers
 * as the caller name of its own numbers (docs/tools.md), as a business's registered name would be.
 */
export async function holderNameOfNumber(q: Queryable, number: string): Promise<string | null> {
  const [row] = await q
    .select({ name: accounts.name })
    .from(phoneNumbers)
    .innerJoin(accounts, eq(accounts.id, phoneNumbers.accountId))
    .where(and(eq(phoneNumbers.number, number), notReleased))
    .limit(1);
  return row?.name ?? null;
}
