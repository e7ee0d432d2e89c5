import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { AirCallDirectory, AirCallLinesChange } from '@parley/shared';
import type { Db, Queryable } from '../../../platform/db/client.js';
import { contactGroups, groupPhoneNumbers, integrationLines, integrationUsers, phoneNumbers } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import type { AirCallNumber, AirCallUserRecord } from './aircallApi.js';
import { e164Of } from './aircallCalls.js';

/*
 * AirCall's numbers and users as the last refresh found them, and where each number's calls go in Parley
 * (docs/integrations.md, "AirCall"): the account's number with the same E.164 digits, unless an administrator
 * chose a number or a group, which a refresh keeps.
 */

const KIND = 'aircall';
export const AIRCALL_LINE_NOT_FOUND = 'No AirCall number has this id; refresh first';
export const AIRCALL_TARGET_NOT_FOUND = 'The number or group is not one of this account';

async function activeNumbers(q: Queryable, accountId: string): Promise<Map<string, string>> {
  const rows = await q
    .select({ id: phoneNumbers.id, number: phoneNumbers.number })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.status, 'active')))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id));
  const byNumber = new Map<string, string>();
  for (const row of rows) if (!byNumber.has(row.number)) byNumber.set(row.number, row.id);
  return byNumber;
}

/** Keeps what a refresh found: numbers matched by their digits (an administrator's choice kept), users replaced. */
export async function saveDirectory(db: Db, accountId: string, numbers: readonly AirCallNumber[], users: readonly AirCallUserRecord[]): Promise<void> {
  await db.transaction(async (tx) => {
    const ours = await activeNumbers(tx, accountId);
    const now = new Date();
    for (const n of numbers) {
      const number = e164Of(n.digits);
      const matched = number === '' ? null : (ours.get(number) ?? null);
      await tx
        .insert(integrationLines)
        .values({ id: uuidv7(), accountId, kind: KIND, externalId: n.id, name: n.name, number, phoneNumberId: matched, mappedBy: 'auto', updatedAt: now })
        .onConflictDoUpdate({
          target: [integrationLines.accountId, integrationLines.kind, integrationLines.externalId],
          set: {
            name: n.name,
            number,
            phoneNumberId: sql`case when ${integrationLines.mappedBy} = 'admin' then ${integrationLines.phoneNumberId} else excluded.phone_number_id end`,
            updatedAt: now,
          },
        });
    }
    const kept = numbers.map((n) => n.id);
    const gone = [eq(integrationLines.accountId, accountId), eq(integrationLines.kind, KIND)];
    await tx.delete(integrationLines).where(kept.length === 0 ? and(...gone) : and(...gone, notInArray(integrationLines.externalId, kept)));
    await tx.delete(integrationUsers).where(and(eq(integrationUsers.accountId, accountId), eq(integrationUsers.kind, KIND)));
    if (users.length > 0) {
      await tx.insert(integrationUsers).values(users.map((u) => ({ accountId, kind: KIND, externalId: u.id, name: u.name, email: u.email, updatedAt: now })));
    }
  });
}

export async function readDirectory(q: Queryable, accountId: string): Promise<AirCallDirectory> {
  const lines = await q
    .select()
    .from(integrationLines)
    .where(and(eq(integrationLines.accountId, accountId), eq(integrationLines.kind, KIND)))
    .orderBy(asc(integrationLines.name), asc(integrationLines.externalId));
  const users = await q
    .select()
    .from(integrationUsers)
    .where(and(eq(integrationUsers.accountId, accountId), eq(integrationUsers.kind, KIND)))
    .orderBy(asc(integrationUsers.name), asc(integrationUsers.externalId));
  return {
    lines: lines.map((l) => ({ id: l.externalId, name: l.name, number: l.number, phoneNumberId: l.phoneNumberId, groupId: l.groupId, mappedBy: l.mappedBy })),
    users: users.map((u) => ({ id: u.externalId, name: u.name, email: u.email })),
  };
}

async function checkTargets(q: Queryable, accountId: string, change: AirCallLinesChange): Promise<void> {
  const numberIds = change.lines.flatMap((l) => (l.phoneNumberId === null ? [] : [l.phoneNumberId]));
  const groupIds = change.lines.flatMap((l) => (l.groupId === null ? [] : [l.groupId]));
  const numbers = numberIds.length === 0 ? [] : await q.select({ id: phoneNumbers.id }).from(phoneNumbers).where(and(eq(phoneNumbers.accountId, accountId), inArray(phoneNumbers.id, numberIds)));
  const groups = groupIds.length === 0 ? [] : await q.select({ id: contactGroups.id }).from(contactGroups).where(and(eq(contactGroups.accountId, accountId), inArray(contactGroups.id, groupIds)));
  if (numbers.length !== new Set(numberIds).size || groups.length !== new Set(groupIds).size) throw new AppError(404, 'not_found', AIRCALL_TARGET_NOT_FOUND);
}

/** An administrator's choice for each named AirCall number; both null hands it back to matching by digits. */
export async function setLineTargets(db: Db, accountId: string, change: AirCallLinesChange): Promise<void> {
  await db.transaction(async (tx) => {
    await checkTargets(tx, accountId, change);
    const ours = await activeNumbers(tx, accountId);
    for (const line of change.lines) {
      const [row] = await tx
        .select()
        .from(integrationLines)
        .where(and(eq(integrationLines.accountId, accountId), eq(integrationLines.kind, KIND), eq(integrationLines.externalId, line.id)));
      if (row === undefined) throw new AppError(404, 'not_found', AIRCALL_LINE_NOT_FOUND);
      const automatic = line.phoneNumberId === null && line.groupId === null;
      await tx
        .update(integrationLines)
        .set(
          automatic
            ? { phoneNumberId: row.number === '' ? null : (ours.get(row.number) ?? null), groupId: null, mappedBy: 'auto', updatedAt: new Date() }
            : { phoneNumberId: line.phoneNumberId, groupId: line.groupId, mappedBy: 'admin', updatedAt: new Date() },
        )
        .where(eq(integrationLines.id, row.id));
    }
  });
}

/**
 * The account's active number an AirCall number's calls are filed under: the one it maps to, else the first
 * active number of the group it maps to; null when it maps to neither (the integration's own choice applies).
 */
export async function lineNumberOf(q: Queryable, accountId: string, externalLineId: string): Promise<string | null> {
  const [line] = await q
    .select({ phoneNumberId: integrationLines.phoneNumberId, groupId: integrationLines.groupId })
    .from(integrationLines)
    .where(and(eq(integrationLines.accountId, accountId), eq(integrationLines.kind, KIND), eq(integrationLines.externalId, externalLineId)));
  if (line === undefined) return null;
  if (line.phoneNumberId !== null) {
    // A number released since it was chosen no longer takes calls: the integration's own choice applies.
    const [active] = await q
      .select({ id: phoneNumbers.id })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.id, line.phoneNumberId), eq(phoneNumbers.status, 'active')));
    return active?.id ?? null;
  }
  if (line.groupId === null) return null;
  const [first] = await q
    .select({ id: phoneNumbers.id })
    .from(groupPhoneNumbers)
    .innerJoin(phoneNumbers, eq(phoneNumbers.id, groupPhoneNumbers.phoneNumberId))
    .where(and(eq(groupPhoneNumbers.groupId, line.groupId), eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.status, 'active')))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id))
    .limit(1);
  return first?.id ?? null;
}
