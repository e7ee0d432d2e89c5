import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.js';
import { accountRowCount, foldRowCounts, type RowCountKind } from './rowCounts.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';

describe.each(testDatabaseKinds)('kept row counts on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const addContacts = async (accountId: string, n: number): Promise<string[]> => {
    const ids = Array.from({ length: n }, () => randomUUID());
    for (const id of ids) {
      await database.db.execute(sql`insert into contacts (id, account_id, first_name, last_name, mobile_number, mobile_country)
        values (${id}, ${accountId}, 'Ada', 'Lovelace', ${`+1202${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`}, 'US')`);
    }
    return ids;
  };
  const addConversations = async (accountId: string, contactIds: readonly string[], closed: boolean): Promise<void> => {
    for (const contactId of contactIds) {
      await database.db.execute(sql`insert into conversations (id, account_id, contact_id, closed_at)
        values (${randomUUID()}, ${accountId}, ${contactId}, ${closed ? sql`now()` : sql`null`})`);
    }
  };
  const counted = async (accountId: string): Promise<Record<RowCountKind, number>> => {
    const [contacts, open, closed] = await Promise.all([
      database.db.execute(sql`select count(*)::int as n from contacts where account_id = ${accountId}`),
      database.db.execute(sql`select count(*)::int as n from conversations where account_id = ${accountId} and closed_at is null`),
      database.db.execute(sql`select count(*)::int as n from conversations where account_id = ${accountId} and closed_at is not null`),
    ]);
    const n = (r: unknown): number => (r as { rows: { n: number }[] }).rows[0]?.n ?? -1;
    return { contacts: n(contacts), openConversations: n(open), closedConversations: n(closed) };
  };
  const kept = async (accountId: string): Promise<Record<RowCountKind, number>> => ({
    contacts: await accountRowCount(database.db, accountId, 'contacts'),
    openConversations: await accountRowCount(database.db, accountId, 'openConversations'),
    closedConversations: await accountRowCount(database.db, accountId, 'closedConversations'),
  });

  it('follows contacts and conversations added, closed, reopened and removed, account by account, across folds', async () => {
    const [one, other] = [await createAccount(database.db), await createAccount(database.db)];
    expect(await kept(one.id)).toEqual({ contacts: 0, openConversations: 0, closedConversations: 0 });
    const contacts = await addContacts(one.id, 5);
    await addContacts(other.id, 2);
    await addConversations(one.id, contacts.slice(0, 3), false);
    await addConversations(one.id, contacts.slice(3, 4), true);
    expect(await kept(one.id)).toEqual(await counted(one.id));
    expect(await kept(one.id)).toEqual({ contacts: 5, openConversations: 3, closedConversations: 1 });

    await database.db.execute(sql`update conversations set closed_at = now() where account_id = ${one.id} and contact_id = ${contacts[0] ?? ''}`);
    // An update that changes no state (a new last message) counts nothing.
    await database.db.execute(sql`update conversations set updated_at = now() where account_id = ${one.id}`);
    expect(await kept(one.id)).toEqual({ contacts: 5, openConversations: 2, closedConversations: 2 });
    await foldRowCounts(database.db);
    await database.db.execute(sql`update conversations set closed_at = null where account_id = ${one.id} and contact_id = ${contacts[3] ?? ''}`);
    // Removing contacts takes their conversations with them (cascade), in the same statement's counts.
    await database.db.execute(sql`delete from contacts where account_id = ${one.id} and id in (${contacts[1] ?? ''}, ${contacts[4] ?? ''})`);
    expect(await kept(one.id)).toEqual(await counted(one.id));
    expect(await kept(one.id)).toEqual({ contacts: 3, openConversations: 2, closedConversations: 1 });
    expect(await kept(other.id)).toEqual({ contacts: 2, openConversations: 0, closedConversations: 0 });

    await foldRowCounts(database.db);
    expect(await kept(one.id)).toEqual(await counted(one.id));
    const rows = await database.db.execute(sql`select count(*)::int as n from account_row_counts where account_id = ${one.id}`);
    // One row per kind after a fold.
    expect((rows as { rows: { n: number }[] }).rows[0]?.n).toBe(3);
  });

  it('counts a statement of many rows once, and nothing of a statement rolled back', async () => {
    const account = await createAccount(database.db);
    await database.db.execute(sql`insert into contacts (id, account_id, first_name, last_name, mobile_number, mobile_country)
      select gen_random_uuid(), ${account.id}, 'Bulk', 'Row', '+1303' || lpad(g::text, 7, '0'), 'US' from generate_series(1, 250) g`);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`delete from contacts where account_id = ${account.id}`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await accountRowCount(database.db, account.id, 'contacts')).toBe(250);
    const rows = await database.db.execute(sql`select count(*)::int as n from account_row_counts where account_id = ${account.id}`);
    expect((rows as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
  });
});
